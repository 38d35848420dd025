#!/usr/bin/env bash
# Runs a test script against the Windows build under Wine: builds the test-only ProcessPrng
# shim (bcryptprimitives.c) with mingw-w64, puts it next to a copy of the Windows binary, and
# runs the given command with OBSIDIAN_TC_BIN set to a wrapper that starts that binary under
# wine64, OBSIDIAN_TC_TARGET_OS=windows, and OBSIDIAN_TC_WINE_HOLD set to a wrapper of
# hold_file.c (a Windows program holding a file open without sharing it) in the same Wine
# prefix. The DLLs beside the binary come along (a release's onnxruntime.dll: ONNX Runtime is
# looked for next to the executable). Needs Debian's mingw-w64 and wine64 and a build of
# x86_64-pc-windows-gnu.
#
#   tests/wine/run.sh target/x86_64-pc-windows-gnu/debug/obsidian-tc.exe \
#       .venv/bin/python tests/e2e/py_sdk.py
set -euo pipefail
exe="$(realpath "$1")"; shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$(mktemp -d)"
# Wine's server keeps its socket and lock in a folder it makes under $TMPDIR (wine-XXXXXX) and
# never removes: every Wine process here is given a TMPDIR inside the work folder, so that folder
# goes with it (the command run is not: its own temporary files stay where they were).
wine_env=(WINEPREFIX="$work/prefix" TMPDIR="$work/tmp")
# The Wine server is stopped and waited for before the folder goes: it writes the prefix's
# registry as it exits, and the removal would race those writes.
cleanup() {
  env "${wine_env[@]}" /usr/lib/wine/wineserver -k >/dev/null 2>&1 || true
  env "${wine_env[@]}" /usr/lib/wine/wineserver -w >/dev/null 2>&1 || true
  # Wine's programs outlive a server that died (services.exe, explorer.exe...): ended here.
  local pid
  for pid in $(prefix_pids); do kill -9 "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
# The processes of this Wine prefix: its server and programs have it in their environment.
prefix_pids() {
  grep -lzxF "WINEPREFIX=$work/prefix" /proc/[0-9]*/environ 2>/dev/null | cut -d/ -f3
}
# Ends the run: message $1, then the file $2 (a Wine log).
fail() {
  echo "tests/wine/run.sh: $1" >&2
  cat "$2" >&2
  exit 1
}
trap cleanup EXIT
mkdir "$work/tmp"
find "$(dirname "$exe")" -maxdepth 1 -name '*.dll' -exec cp {} "$work/" \;
x86_64-w64-mingw32-gcc -O2 -shared -o "$work/bcryptprimitives.dll" \
  "$here/bcryptprimitives.c" "$here/bcryptprimitives.def" -ladvapi32
x86_64-w64-mingw32-gcc -O2 -o "$work/hold_file.exe" "$here/hold_file.c"
cp "$exe" "$work/obsidian-tc.exe"
for name in obsidian-tc hold_file; do
  cat > "$work/$name" <<WRAPPER
#!/bin/sh
export WINEDEBUG=-all WINEDLLOVERRIDES="bcryptprimitives=n,b" WINEPREFIX="$work/prefix" TMPDIR="$work/tmp"
exec /usr/lib/wine/wine64 "$work/$name.exe" "\$@"
WRAPPER
  chmod +x "$work/$name"
done
# One Wine server for the whole command, started first and kept running (-p: it never shuts down
# when idle), its stderr in a file. Left to start on demand, a server is started with -p0 (by
# Debian's wineserver script): it shuts down as soon as its last program ends, and the next
# program starts another, which inherits that program's stderr. The servers then come and go
# between the test's programs: a test capturing a command's stderr waits for the server that
# command started and reads its shutdown dump of leftover objects, and a program starting while
# a server shuts down races it. CI saw one `elicit approve` fail with nothing in its stderr but
# such a dump, in about fifty runs.
mkdir "$work/prefix"
env "${wine_env[@]}" /usr/lib/wine/wineserver -p 2>"$work/wineserver.log" \
  || fail "the Wine server did not start; its log:" "$work/wineserver.log"
# Then the prefix made and Wine's own programs started (services.exe, rpcss.exe, plugplay.exe...)
# by wineboot, whose output goes to a file: those programs live as long as the server and keep
# the stdin, stdout and stderr of the program that started them. Started by the test's first
# program they would hold its pipes, whose reader then waits for an end that never comes; a
# file has no reader. Made here, the prefix also does not delay the first MCP session.
env WINEDEBUG=-all "${wine_env[@]}" /usr/lib/wine/wine64 wineboot --init \
  </dev/null >"$work/wineboot.log" 2>&1 || fail "wineboot failed; its output:" "$work/wineboot.log"
server_pid=""
for pid in $(prefix_pids); do
  case "$(cat "/proc/$pid/comm" 2>/dev/null)" in wineserver*) server_pid=$pid ;; esac
done
[ -n "$server_pid" ] || fail "the Wine server did not start; its log:" "$work/wineserver.log"
status=0
OBSIDIAN_TC_BIN="$work/obsidian-tc" OBSIDIAN_TC_TARGET_OS=windows OBSIDIAN_TC_WINE_HOLD="$work/hold_file" "$@" \
  || status=$?
# A server gone before the end (or a zombie: nothing here reaps it) fails the run, with its log.
state="$(ps -o stat= -p "$server_pid" || true)"
if [ -z "$state" ] || [ "${state#Z}" != "$state" ]; then
  fail "the Wine server (pid $server_pid) exited during the run; its log:" "$work/wineserver.log"
fi
exit "$status"

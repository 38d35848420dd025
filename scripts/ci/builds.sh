#!/usr/bin/env bash
# The builds that scripts/test.sh's later steps need (and the fuzzing smoke run), started by
# test.sh in the background at nice 10 while its foreground lints and runs the tests: on two
# cores the builds take whatever CPU the tests leave (servers, Wine and the disk keep them
# waiting much of the time), and the tests keep the CPU they need. The builds run in four lanes,
# all from the start, each one build after another: the plugin bundle; the release binary (which
# embeds the bundle), then the benchmark binaries; the web lane (wasm-bindgen-cli, then the
# WebAssembly engine once the bundle has read the committed pkg); the cross lane (Windows, which
# the first step after the plugin's, Wine, waits for; the Apple checks, in the cross folder; then
# the fuzz targets, in a folder of their own), these two at a lower priority (`later_lane`).
# The release and Windows builds start with the last run's bundle when it is there
# (`with_bundle`). With the cross lane started only once the release binary was built, a warm
# run's Wine step waited 90 seconds for the Windows build, and release, Windows and Apple one
# after another were 52 of the cold run's 53 minutes; with the fuzz targets behind the
# benchmarks, they would end a warm run that changed the server. One lane for all left a core
# idle whenever its build was in a single-threaded stage (a crate's front end, a link). Each
# build writes <jobs>/<name>.log and, when it succeeds, <name>.ok holding its seconds; a failure
# writes <name>.failed and stops the rest of its lane (test.sh stops at any .failed). test.sh
# waits for a build's .ok before the step that uses it.
#
#   scripts/ci/builds.sh <jobs folder>
#
# Environment (set by test.sh): CARGO_TARGET_DIR, OBSIDIAN_TC_PLUGIN_DIR (where the plugin bundle
# is copied for the release binary to embed), PACKAGES_READY (a file that appears once npm ci
# has run), NOCARGO_PATH (PATH without cargo or rustc), CLIPPY_ARGS and CLIPPY_DRIVER (the lints
# of the test build, for the Windows build), FUZZ_SECONDS.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
jobs="$1"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
# The cross builds (Windows, macOS) have a folder of their own: a cross build also compiles the
# build scripts and procedural macros for this machine, and in the shared folder that would hold
# the lock of the foreground's debug build folder (cargo test would wait for it).
cross_dir="$target_dir/cross"

# wasm-bindgen-cli, pinned to the wasm-bindgen crate's version (the WebAssembly step). Tools of
# the tests only are installed unoptimised (`--debug`): they build in about half the time, and
# wasm-bindgen still turns the engine's module into bindings in seconds.
wasm_bindgen() {
  local want
  want="$(grep -E '^wasm-bindgen = ' Cargo.toml | sed -E 's/.*"=([0-9.]+)".*/\1/')"
  if [ "$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" != "$want" ]; then
    echo "installing wasm-bindgen-cli $want (cached in ~/.cargo/bin afterwards)"
    cargo install --quiet --debug wasm-bindgen-cli --version "$want"
  fi
  wasm-bindgen --version
}

# TC Bridge's bundle, built without a Rust toolchain on PATH (tsc + esbuild over the committed
# engine-wasm/pkg) into this job's folder rather than the repository's main.js, which the
# foreground's test build would otherwise find half-written (build.rs embeds it when present).
# Copied where the release binary embeds it from (for `plugin install`) only when a file's
# content changed (an identical main.js with a new time must not rebuild it), each file
# replaced whole by a rename: a build started with the last run's bundle (`with_bundle`) reads
# the old file or the new one, never half of one.
plugin() {
  while [ ! -e "$PACKAGES_READY" ]; do sleep 1; done
  local bundle="$jobs/plugin-bundle/main.js"
  rm -rf "$jobs/plugin-bundle"
  env PATH="$NOCARGO_PATH" TC_BRIDGE_OUTFILE="$bundle" bash -c 'if command -v cargo >/dev/null; then echo "cargo still on PATH" >&2; exit 1; fi; npm run build'
  test -s "$bundle"
  mkdir -p "$OBSIDIAN_TC_PLUGIN_DIR"
  local file source
  for file in main.js manifest.json styles.css; do
    source="$file"; [ "$file" != main.js ] || source="$bundle"
    if [ -f "$source" ]; then
      if ! cmp -s "$source" "$OBSIDIAN_TC_PLUGIN_DIR/$file"; then
        cp "$source" "$OBSIDIAN_TC_PLUGIN_DIR/$file.new"
        mv "$OBSIDIAN_TC_PLUGIN_DIR/$file.new" "$OBSIDIAN_TC_PLUGIN_DIR/$file"
      fi
    else
      rm -f "$OBSIDIAN_TC_PLUGIN_DIR/$file"
    fi
  done
}

# The WebAssembly engine rebuilt (scripts/build-wasm.sh: engine-wasm/pkg and pkg-node) after the
# plugin bundle has read the committed pkg; the WebAssembly step checks that pkg did not change.
wasm() {
  plugin_built
  bash scripts/build-wasm.sh
}

# Waits for the plugin lane's bundle: the WebAssembly build must not rewrite the committed pkg
# before the bundle has read it, and the release and Windows builds embed the bundle (build.rs).
plugin_built() {
  while [ ! -e "$jobs/plugin.ok" ]; do
    if [ -e "$jobs/plugin.failed" ]; then echo "the plugin bundle failed" >&2; return 1; fi
    sleep 1
  done
}

# Runs "$@", a build that embeds the plugin bundle, once this run's bundle is in place. When
# the last run's bundle is still there (a warm run), "$@" first runs with it, beside the plugin
# lane, rather than waiting for it (about 40 seconds): the bundle seldom changes, and then the
# second run is a no-op; when it did change, the second run builds again with the new one.
with_bundle() {
  if [ -f "$OBSIDIAN_TC_PLUGIN_DIR/main.js" ] && [ -f "$OBSIDIAN_TC_PLUGIN_DIR/manifest.json" ]; then
    "$@"
  fi
  plugin_built
  "$@"
}

# The product binary exactly as users build it (no dev-dependency features), copied aside for
# every test and benchmark.
release() {
  with_bundle cargo build --release --quiet -p obsidian-tc --bin obsidian-tc
  mkdir -p "$target_dir/product"
  cp "$target_dir/release/obsidian-tc" "$target_dir/product/obsidian-tc"
}

# The Windows build the Wine step runs (profile `cross`: the dev profile with unoptimised
# dependencies), linted like the test build, with the plugin bundle embedded as in a release.
windows() {
  with_bundle env CARGO_TARGET_DIR="$cross_dir" RUSTC_WORKSPACE_WRAPPER="$CLIPPY_DRIVER" \
    cargo build --quiet --profile cross -p obsidian-tc --bin obsidian-tc --target x86_64-pc-windows-gnu
}

# The driver of the several-processes step, before the other benchmarks: it links no server
# code, so it is built 11 s after a change to the server, where the others, each linked with
# thin LTO over the server, take 115 s (idle, both cores).
processes() {
  cargo build --release --quiet -p bench --bin bench_processes
}

# The benchmark binaries test.sh runs last (their crate reuses the product's release build) and
# the SciFact examples of engine-core.
benches() {
  cargo build --release --quiet -p bench --bin empty_mcp_server --bin bench_server \
    --bin bench_companion --bin bench_content --bin bench_load --bin bench_memory --bin bench_observability
  cargo build --release --quiet -p obsidian-tc-core --example eval_scifact --example bench_scifact
}

# Both Apple targets type-checked with clippy (tests/apple/check.sh), in the cross folder and
# profile: the build scripts and procedural macros are the Windows build's.
apple() {
  CARGO_TARGET_DIR="$cross_dir" tests/apple/check.sh
}

# The fuzzing smoke run: the fuzz targets whose inputs changed since they last passed here
# (scripts/ci/fuzz-targets.sh), built in the dev profile with the address sanitizer (all of them
# in one cargo run when all changed: their binaries compile and link side by side), then run for
# FUZZ_SECONDS each from their seeds, two at a time. New inputs go to a corpus under the target
# folder; the seeds in the repository are only read. The builds are nightly builds
# (RUSTC_BOOTSTRAP), so cargo judges them by the checksum of every source file rather than its
# time: .ci/run's old times for unchanged files can never leave a stale fuzz build behind.
fuzz() {
  local seconds="${FUZZ_SECONDS:-20}"
  if [ "$seconds" -le 0 ]; then echo "fuzzing skipped (FUZZ_SECONDS=0)"; return 0; fi
  if ! cargo fuzz --version >/dev/null 2>&1; then
    cargo install --quiet --debug cargo-fuzz --locked || cargo install --quiet --debug cargo-fuzz
  fi
  local targets all key
  targets="$(scripts/ci/fuzz-targets.sh)"
  all="$(cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz list)"
  key="$(scripts/ci/fuzz-targets.sh key)"
  export CARGO_TARGET_DIR="$target_dir/fuzz" RUSTC_BOOTSTRAP=1 CARGO_UNSTABLE_CHECKSUM_FRESHNESS=true
  if [ "$targets" = "$all" ]; then
    (cd fuzz && cargo fuzz build --dev)
  else
    local target
    for target in $targets; do (cd fuzz && cargo fuzz build --dev "$target"); done
  fi
  set -- $targets
  while [ "$#" -gt 0 ]; do
    fuzz_one "$1" "$seconds" "$key" & local first=$! second=""
    if [ "$#" -gt 1 ]; then fuzz_one "$2" "$seconds" "$key" & second=$!; fi
    wait "$first"
    [ -z "$second" ] || wait "$second"
    shift; [ "$#" -eq 0 ] || shift
  done
}

# Runs one fuzz target for the given seconds; on success records the key it passed with.
fuzz_one() {
  local target="$1" seconds="$2" key="$3"
  local corpus="$target_dir/fuzz/corpus/$target" log="$jobs/fuzz-run-$target.log"
  mkdir -p "$corpus"
  rm -f "$target_dir/fuzz/passed-$target"
  if (cd fuzz && cargo fuzz run --dev "$target" "$corpus" "corpus-seeds/$target" -- -max_total_time="$seconds" -rss_limit_mb=4096) >"$log" 2>&1; then
    echo "fuzz $target: $(grep -Eo 'Done [0-9]+ runs in [0-9]+ second' "$log" | tail -n 1)s"
    [ -z "$key" ] || echo "$key" >"$target_dir/fuzz/passed-$target"
  else
    tail -n 60 "$log"
    echo "fuzz target $target failed" >&2
    return 1
  fi
}

# Runs the named builds one after another, each in a subshell of its own, in the background, so
# that `set -e` holds inside it (bash ignores it in a function called as the condition of an
# `if` or `||`); a failed build stops the lane.
lane() {
  local name start
  for name in "$@"; do
    start=$SECONDS
    "$name" >"$jobs/$name.log" 2>&1 &
    if wait "$!"; then
      echo $((SECONDS - start)) >"$jobs/$name.ok"
    else
      touch "$jobs/$name.failed"
      return 1
    fi
  done
}

# Runs a lane (the builds named) 5 points of nice below the plugin and release lanes: the
# release binary heads a warm run's longest chain (end to end, the release artifacts and the
# benchmarks come after it), and the web and cross builds are needed minutes later than they
# are done.
later_lane() {
  renice -n "$(($(nice) + 5))" -p "$BASHPID" >/dev/null
  lane "$@"
}

later_lane wasm_bindgen wasm &
web=$!
later_lane windows apple fuzz &
cross=$!
lane plugin &
plugin_lane=$!
lane release processes benches
wait "$web"
wait "$cross"
wait "$plugin_lane"

#!/usr/bin/env bash
# Which fuzz targets the smoke run of scripts/test.sh runs: those whose inputs changed since
# they last passed on this machine. The key is the git trees of engine-core, engine-native and
# fuzz with the lock file and the run's length, taken only from a clean checkout (a dirty one
# runs every target); a target that passes writes the key to $CARGO_TARGET_DIR/fuzz/passed-<target>.
#
#   scripts/ci/fuzz-targets.sh        the targets to run, one per line
#   scripts/ci/fuzz-targets.sh key    the key (empty for a dirty checkout)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
key=""
if [ -z "$(git status --porcelain -- engine-core engine-native fuzz Cargo.lock)" ]; then
  key="$(git rev-parse HEAD:engine-core HEAD:engine-native HEAD:fuzz HEAD:Cargo.lock | sha256sum | cut -c1-16)-${FUZZ_SECONDS:-20}s"
fi
if [ "${1:-}" = "key" ]; then
  echo "$key"
  exit 0
fi
for target in $(cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz list); do
  if [ -n "$key" ] && [ "$(cat "$target_dir/fuzz/passed-$target" 2>/dev/null)" = "$key" ]; then
    echo "fuzz $target: skipped, its inputs have not changed since it passed ($key)" >&2
  else
    echo "$target"
  fi
done

#!/usr/bin/env bash
# Builds engine-wasm for WebAssembly and regenerates its JS bindings:
#   engine-wasm/pkg/       --target web, wasm-opt'ed; committed, bundled by the plugin
#   engine-wasm/pkg-node/  --target nodejs; for Node tests and benchmarks (not committed)
# The build is reproducible: local paths are remapped, so a fresh clone anywhere builds
# byte-identical files (CI checks the committed pkg/ against a fresh build).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

want="$(grep -A3 '^wasm-bindgen = ' Cargo.toml | head -1 | sed -E 's/.*"=([0-9.]+)".*/\1/')"
have="$(wasm-bindgen --version 2>/dev/null | awk '{print $2}')" || true
if [ "$have" != "$want" ]; then
  echo "build-wasm: wasm-bindgen-cli $want is required (found: ${have:-none})." >&2
  echo "  install it with: cargo install wasm-bindgen-cli --version $want" >&2
  exit 1
fi

cargo_home="${CARGO_HOME:-$HOME/.cargo}"
rustup_home="${RUSTUP_HOME:-$HOME/.rustup}"
export RUSTFLAGS="--remap-path-prefix=$root=/obsidian-tc --remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$rustup_home=/rustup"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}/wasm-build"
cargo build -p engine-wasm --target wasm32-unknown-unknown --profile wasm
wasm="$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm/engine_wasm.wasm"

# Generate into a staging folder and swap it in at the end, so an interrupted build never
# leaves a half-made pkg/ (e.g. bindings written but not yet optimised).
mkdir -p "$root/target"
stage="$(mktemp -d "$root/target/wasm-stage.XXXXXX")"
trap 'rm -rf "$stage"' EXIT
# The bindings of a module are the same files every time (CI checks the committed pkg/ against
# a fresh build), and wasm-opt -O3 (binaryen's npm build, run by node) takes about 17 s a
# target, several times that beside CI's other builds: the last bindings made are kept beside
# the build under the SHA-256 of all they come from (the module, both tools' versions, this
# script) and copied when that matches.
key="$({ sha256sum <"$wasm"; wasm-bindgen --version; node_modules/.bin/wasm-opt --version; sha256sum <"${BASH_SOURCE[0]}"; } | sha256sum | cut -d' ' -f1)"
made="$CARGO_TARGET_DIR/bindings-$key"
if [ -d "$made" ]; then
  cp -R "$made/pkg" "$made/pkg-node" "$stage/"
  echo "build-wasm: the module is unchanged: its bindings are those made before ($made)"
else
  wasm-bindgen --target web --out-dir "$stage/pkg" "$wasm"
  wasm-bindgen --target nodejs --out-dir "$stage/pkg-node" "$wasm"
  for dir in "$stage/pkg" "$stage/pkg-node"; do
    node_modules/.bin/wasm-opt -O3 "$dir/engine_wasm_bg.wasm" -o "$dir/engine_wasm_bg.wasm"
    rm -f "$dir/.gitignore"
  done
  # The repository's package.json says "type": "module"; the nodejs glue is CommonJS.
  echo '{ "type": "commonjs" }' > "$stage/pkg-node/package.json"
  rm -rf "$CARGO_TARGET_DIR"/bindings-*
  mkdir "$made.partial"
  cp -R "$stage/pkg" "$stage/pkg-node" "$made.partial/"
  mv "$made.partial" "$made"
fi
rm -rf engine-wasm/pkg engine-wasm/pkg-node
mv "$stage/pkg" "$stage/pkg-node" engine-wasm/
echo "build-wasm: engine-wasm/pkg ($(wc -c < engine-wasm/pkg/engine_wasm_bg.wasm) bytes of wasm) and engine-wasm/pkg-node are up to date"

#!/usr/bin/env bash
# Type-checks the server for macOS, both architectures (aarch64-apple-darwin, x86_64-apple-darwin),
# with clippy and every warning an error. The C dependencies (bundled SQLite, mimalloc, ring)
# are compiled for the Apple targets by zig (PyPI `ziglang`) through cargo-zigbuild (PyPI
# `cargo-zigbuild`, prebuilt, quicker to install than `cargo install`); both are installed on
# first use into a venv under "$CARGO_TARGET_DIR/tools" and reused from there. The check runs in
# the `cross` profile (Cargo.toml): the C it compiles is never linked, so unoptimised, and in
# CI's cross folder it shares the Windows build's build scripts and procedural macros.
#
# Linking is not tried by default: the binary needs the macOS SDK's Security, CoreFoundation and
# CoreServices frameworks (rustls-platform-verifier, notify's FSEvents), which zig does not ship.
# With SDKROOT naming an unpacked macOS SDK, `--link` also builds the aarch64 binary.
#
#   CARGO_TARGET_DIR=target tests/apple/check.sh [--link]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
tools="$target_dir/tools/zig-venv"
if ! "$tools/bin/python" -m ziglang version >/dev/null 2>&1 || [ ! -x "$tools/bin/cargo-zigbuild" ]; then
  python3 -m venv "$tools"
  "$tools/bin/pip" install --quiet "ziglang==0.17.1" "cargo-zigbuild==0.24.1"
fi
targets=(aarch64-apple-darwin x86_64-apple-darwin)
installed="$(rustup target list --installed)"
for target in "${targets[@]}"; do
  grep -qx "$target" <<<"$installed" || rustup target add "$target"
done
# cargo-zigbuild runs zig as `python3 -m ziglang`: the venv's python3 first on PATH.
export PATH="$tools/bin:$PATH"
for target in "${targets[@]}"; do
  echo "== clippy $target"
  cargo-zigbuild clippy --locked --profile cross -p obsidian-tc --target "$target" -- -D warnings
done
if [ "${1:-}" = "--link" ]; then
  : "${SDKROOT:?--link needs SDKROOT set to a macOS SDK (the frameworks zig does not ship)}"
  echo "== build aarch64-apple-darwin"
  cargo zigbuild --locked --release -p obsidian-tc --bin obsidian-tc --target aarch64-apple-darwin
fi

#!/usr/bin/env bash
# Runs a test script against the Linux aarch64 build under qemu-user: puts a copy of the
# aarch64 binary with ONNX Runtime's aarch64 library next to it (as the release archive has
# it) in a temp folder, and runs the given command with OBSIDIAN_TC_BIN set to a wrapper that
# starts that binary under qemu-aarch64 with Debian's aarch64 libraries. The library comes from
# PyPI's onnxruntime wheel for manylinux_2_28_aarch64, downloaded once into
# $CARGO_TARGET_DIR/tools. QEMU must be 8.1 or newer: older ones show the guest the host's x86
# /proc/cpuinfo, on which ONNX Runtime's CPU detection crashes (SIGSEGV as the library loads);
# when the system's is older (Debian 12 has 7.2), qemu-aarch64 is unpacked, like promtool in
# scripts/test.sh, from Debian's bookworm-backports qemu-user (static) into the same folder.
# The guest CPU is a Neoverse N1 (Armv8.2 with dot product, as AWS Graviton2): on qemu's
# default `max` CPU, which has SVE and SME, ONNX Runtime picks its SME kernels, whose emulation
# is so slow that embedding three short notes had not finished after 5 minutes (22 minutes for
# obsidian-help-en's folders made no progress); with SME off 2 minutes, on Neoverse N1 12 s.
# Needs gcc-aarch64-linux-gnu (its /usr/aarch64-linux-gnu), .venv's pip and a build of
# aarch64-unknown-linux-gnu.
#
#   tests/qemu/run.sh target/aarch64-unknown-linux-gnu/release/obsidian-tc \
#       .venv/bin/python tests/e2e/py_sdk.py
set -euo pipefail
bin="$(realpath "$1")"; shift
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tools="${CARGO_TARGET_DIR:-$root/target}/tools"
qemu="$(command -v qemu-aarch64 || true)"
if [ -z "$qemu" ] || [ "$("$qemu" --version | sed -n '1s/.*version \([0-9]*\.[0-9]*\).*/\1/p' \
    | awk '{ print ($1 >= 8.1) }')" != 1 ]; then
  qemu="$tools/qemu-aarch64"
fi
if [ ! -x "$qemu" ]; then
  # apt-get with a sources list and package lists of its own: the system's are left as they are.
  apt_dir="$tools/qemu-deb"
  rm -rf "$apt_dir" && mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache"
  echo "deb http://deb.debian.org/debian bookworm-backports main" > "$apt_dir/sources.list"
  apt=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o Dir::Etc::SourceParts=-
       -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache")
  apt-get "${apt[@]}" update -qq
  (cd "$apt_dir" && apt-get "${apt[@]}" download -qq qemu-user/bookworm-backports)
  dpkg-deb -x "$apt_dir"/qemu-user_*.deb "$apt_dir/root"
  cp "$apt_dir/root/usr/bin/qemu-aarch64" "$qemu.partial" && mv "$qemu.partial" "$qemu"
  rm -rf "$apt_dir"
fi
ort_version=1.32.0
ort_dir="$tools/onnxruntime-$ort_version-aarch64"
ort_lib="libonnxruntime.so.$ort_version"
if [ ! -f "$ort_dir/$ort_lib" ]; then
  rm -rf "$ort_dir.partial" && mkdir -p "$ort_dir.partial"
  "$root/.venv/bin/python" -m pip download --quiet --no-deps --only-binary=:all: \
    --platform manylinux_2_28_aarch64 -d "$ort_dir.partial" "onnxruntime==$ort_version"
  unzip -q -j "$ort_dir.partial"/*.whl "onnxruntime/capi/$ort_lib" -d "$ort_dir.partial"
  rm "$ort_dir.partial"/*.whl && mv "$ort_dir.partial" "$ort_dir"
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/aarch64"
cp "$bin" "$work/aarch64/obsidian-tc"
cp "$ort_dir/$ort_lib" "$work/aarch64/"
# The host's ONNX Runtime (scripts/test.sh names the x86_64 one) must not be taken. The wrapper
# sits beside the binary, so that "next to the binary" means the same folder to the tests.
cat > "$work/aarch64/obsidian-tc-qemu" <<WRAPPER
#!/bin/sh
unset OBSIDIAN_TC_ONNXRUNTIME ORT_DYLIB_PATH
exec "$qemu" -cpu neoverse-n1 -L /usr/aarch64-linux-gnu "$work/aarch64/obsidian-tc" "\$@"
WRAPPER
chmod +x "$work/aarch64/obsidian-tc-qemu"
OBSIDIAN_TC_BIN="$work/aarch64/obsidian-tc-qemu" "$@"

#!/usr/bin/env bash
# Prints the path of the ONNX Runtime shared library of one release platform, taken from PyPI's
# onnxruntime wheel for that platform (the library `pip install onnxruntime` installs there),
# for scripts/release.sh --ort PLATFORM=PATH. The wheel is downloaded once (pip download, which
# checks PyPI's digest) into a cache and the library unpacked next to it; later calls print
# the cached path without the network.
#
#   scripts/release/onnxruntime.sh PLATFORM        PLATFORM: linux-x64, linux-arm64, win32-x64
#
# The cache is $OBSIDIAN_TC_CACHE, else $XDG_CACHE_HOME/obsidian-tc, else ~/.cache/obsidian-tc.
# Needs python3 with pip. macOS has no entry: PyPI has no Intel macOS wheel of this version,
# so darwin-universal's library is built on the macOS runner (.github/workflows/release.yml).
set -euo pipefail
version=1.32.0
# The CPython version whose wheel is taken (the library inside is the same for every one).
python_version=3.11

case "${1:-}" in
  linux-x64) tag=manylinux_2_28_x86_64 library="libonnxruntime.so.$version" ;;
  linux-arm64) tag=manylinux_2_28_aarch64 library="libonnxruntime.so.$version" ;;
  win32-x64) tag=win_amd64 library=onnxruntime.dll ;;
  *) echo "onnxruntime.sh: PLATFORM is linux-x64, linux-arm64 or win32-x64, not '${1:-}'" >&2; exit 2 ;;
esac
cache="${OBSIDIAN_TC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/obsidian-tc}/onnxruntime-$version/$tag"
if [ ! -f "$cache/$library" ]; then
  mkdir -p "$cache/wheel"
  python3 -m pip download --quiet --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform "$tag" --python-version "$python_version" -d "$cache/wheel" "onnxruntime==$version" >&2
  wheel="$(ls "$cache/wheel"/onnxruntime-"$version"-*.whl)"
  # Unpacked beside, then renamed: an interrupted run leaves no half-written library.
  unzip -o -q -j "$wheel" "onnxruntime/capi/$library" -d "$cache/unpacked"
  mv "$cache/unpacked/$library" "$cache/$library"
fi
echo "$cache/$library"

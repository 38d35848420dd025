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
# Wine's server outlives the last program by seconds and writes the prefix's registry as it
# exits: stopped and waited for before the folder goes, or the removal races its writes.
cleanup() {
  env "${wine_env[@]}" /usr/lib/wine/wineserver -k >/dev/null 2>&1 || true
  env "${wine_env[@]}" /usr/lib/wine/wineserver -w >/dev/null 2>&1 || true
  rm -rf "$work"
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
# The Wine prefix made up front: made by the first server start instead, it delays that
# start by seconds (and the first MCP session with it).
env WINEDEBUG=-all "${wine_env[@]}" /usr/lib/wine/wine64 wineboot --init >/dev/null 2>&1
env "${wine_env[@]}" /usr/lib/wine/wineserver -w
OBSIDIAN_TC_BIN="$work/obsidian-tc" OBSIDIAN_TC_TARGET_OS=windows OBSIDIAN_TC_WINE_HOLD="$work/hold_file" "$@"

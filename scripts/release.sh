#!/usr/bin/env bash
# Builds the release artifacts of obsidian-tc into one folder (dist/ by default), reproducibly
# (the same inputs give the same bytes: fixed modification times, owners and file order):
#
#   obsidian-tc-<version>-<platform>.tar.gz  the binary (+ ONNX Runtime next to it), LICENSE,
#     (.zip for win32-x64)                   README.md
#   obsidian-tc-<platform>-<version>.tgz   the npm package @obsidian-tc/<platform> with the binary
#   obsidian-tc-<version>.tgz              the npm package obsidian-tc (its launcher)
#   obsidian-tc-<version>.mcpb             the Claude Desktop bundle: one binary per OS, the
#                                          first of that OS in the order below; its manifest
#                                          lists exactly those OSes
#   server.json                            the MCP registry entry (npm, mcpb and cargo)
#   obsidian-tc-core-<version>.crate       the crates to publish: the engine, then the server
#   obsidian-tc-<version>.crate            (with the TC Bridge plugin in it, for plugin install)
#   main.js, manifest.json, styles.css     the TC Bridge plugin's release assets
#   SHA256SUMS
#
#   scripts/release.sh [--out DIR] [--binary [PLATFORM=]PATH]... [--ort PLATFORM=PATH]...
#                      [--plugin DIR] [--verify-crates]
#
# --binary takes a prebuilt binary instead of building one. PLATFORM is linux-x64, linux-arm64,
# darwin-universal (a lipo'd arm64 + x86_64 binary) or win32-x64 (the npm package's name,
# scripts/release/manifests.mjs); it defaults to this machine's (linux-x64 or linux-arm64).
# Without --binary, `cargo build --release -p obsidian-tc --bin obsidian-tc` builds it.
# --ort puts an ONNX Runtime shared library next to a platform's binary (the binary looks for
# libonnxruntime.so*/.dylib/onnxruntime.dll there); OBSIDIAN_TC_ONNXRUNTIME is this machine's;
# scripts/release/onnxruntime.sh PLATFORM fetches the library of another from PyPI.
# --plugin takes the built plugin (main.js, manifest.json, styles.css) from DIR; without it,
# `npm run build` builds it at the repository root. Its manifest.json version must be the
# workspace's (the release tag; `npm run release:version -- <x.y.z>` sets both).
# --verify-crates builds each packaged crate from its packaged sources (`cargo package`'s
# verification, a full build); without it the crates are packaged unbuilt.
# Needs node, npm, zip and the repository's npm packages (`npm ci`: the pinned @anthropic-ai/mcpb).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="$root/dist"
declare -A binaries=() libraries=()
plugin=""
verify_crates=(--no-verify)

# Every platform, in the order the .mcpb takes them.
mapfile -t platforms < <(node "$root/scripts/release/manifests.mjs" platforms)
host_platform() {
  case "$(uname -s)-$(uname -m)" in
    Linux-x86_64) echo linux-x64 ;;
    Linux-aarch64) echo linux-arm64 ;;
    *) echo "release.sh: name the platform of --binary (PLATFORM=PATH) on $(uname -s) $(uname -m)" >&2; exit 2 ;;
  esac
}
known_platform() {
  [[ " ${platforms[*]} " == *" $1 "* ]] || { echo "release.sh: unknown platform '$1' (one of: ${platforms[*]})" >&2; exit 2; }
}
add_binary() {
  local platform path
  if [[ "$1" == *=* ]]; then platform="${1%%=*}" path="${1#*=}"; else platform="$(host_platform)" path="$1"; fi
  known_platform "$platform"
  [ -f "$path" ] || { echo "release.sh: --binary $path: no such file" >&2; exit 2; }
  [ -z "${binaries[$platform]:-}" ] || { echo "release.sh: two binaries for $platform" >&2; exit 2; }
  binaries[$platform]="$(cd "$(dirname "$path")" && pwd)/$(basename "$path")"
}
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out="$(mkdir -p "$2" && cd "$2" && pwd)"; shift 2 ;;
    --binary) add_binary "$2"; shift 2 ;;
    --ort) [[ "$2" == *=* ]] || { echo "release.sh: --ort PLATFORM=PATH" >&2; exit 2; }
      known_platform "${2%%=*}"; libraries[${2%%=*}]="${2#*=}"; shift 2 ;;
    --plugin) plugin="$(cd "$2" && pwd)"; shift 2 ;;
    --verify-crates) verify_crates=(); shift ;;
    -h|--help) sed -n "2,33p" "$0"; exit 0 ;;
    *) echo "release.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done
if [ ${#binaries[@]} -eq 0 ]; then
  (cd "$root" && cargo build --release -p obsidian-tc --bin obsidian-tc)
  add_binary "${CARGO_TARGET_DIR:-$root/target}/release/obsidian-tc"
fi
host="$(host_platform 2>/dev/null || true)"
if [ -n "${OBSIDIAN_TC_ONNXRUNTIME:-}" ] && [ -n "$host" ] && [ -z "${libraries[$host]:-}" ]; then
  libraries[$host]="$OBSIDIAN_TC_ONNXRUNTIME"
fi
for platform in "${!libraries[@]}"; do
  [ -n "${binaries[$platform]:-}" ] || { echo "release.sh: --ort for $platform, which has no binary" >&2; exit 2; }
  [ -f "${libraries[$platform]}" ] || { echo "release.sh: ONNX Runtime library ${libraries[$platform]}: no such file" >&2; exit 2; }
done
mcpb="$root/node_modules/.bin/mcpb"
[ -x "$mcpb" ] || { echo "release.sh: $mcpb is missing: run npm ci at the repository root" >&2; exit 2; }

if [ -z "$plugin" ]; then
  (cd "$root" && npm run --silent build)
  plugin="$root"
fi
for file in main.js manifest.json styles.css; do
  [ -f "$plugin/$file" ] || { echo "release.sh: the plugin's $file is missing in $plugin" >&2; exit 2; }
done

version="$(sed -n '/^\[workspace.package\]/,/^\[/s/^version = "\(.*\)"/\1/p' "$root/Cargo.toml")"
[ -n "$version" ] || { echo "release.sh: no [workspace.package] version in Cargo.toml" >&2; exit 1; }
manifests() { node "$root/scripts/release/manifests.mjs" "$@"; }
plugin_version="$(node -p 'require(process.argv[1]).version' "$plugin/manifest.json")"
if [ "$plugin_version" != "$version" ]; then
  echo "release.sh: the plugin's manifest.json is version $plugin_version, the workspace $version (set both: npm run release:version -- <x.y.z>)" >&2
  exit 2
fi

# Reproducibility: UTC, one collation, fixed times (zip cannot store times before 1980, so the
# .mcpb's is 1980-01-01), files written with fixed modes.
export TZ=UTC LC_ALL=C SOURCE_DATE_EPOCH=315532800
umask 022
stage="$(mktemp -d)"
# The plugin copy packaged into the obsidian-tc crate (engine-native/build.rs embeds it).
crate_plugin="$root/engine-native/tc-bridge"
trap 'rm -rf "$stage" "$crate_plugin"' EXIT
# The previous release's artifacts go; anything else in the folder stops the script (it is
# not ours to delete, and SHA256SUMS lists the whole folder).
mkdir -p "$out"
rm -f "$out"/obsidian-tc-*.tar.gz "$out"/obsidian-tc-*.zip "$out"/obsidian-tc-*.tgz "$out"/obsidian-tc-*.mcpb "$out"/obsidian-tc-*.crate \
  "$out/server.json" "$out/SHA256SUMS" "$out/main.js" "$out/manifest.json" "$out/styles.css"
if [ -n "$(ls -A "$out")" ]; then
  echo "release.sh: $out holds other files; give an empty folder with --out" >&2
  exit 2
fi

# put <file> <dir> [mode]: a copy with a fixed mode.
put() { mkdir -p "$2" && install -m "${3:-644}" "$1" "$2/"; }
# The binary of a platform and its ONNX Runtime library, into <dir>.
put_binary() {
  local platform="$1" dir="$2" exe="$3"
  put "${binaries[$platform]}" "$dir" 755
  [ "$(basename "${binaries[$platform]}")" = "$exe" ] || mv "$dir/$(basename "${binaries[$platform]}")" "$dir/$exe"
  if [ -n "${libraries[$platform]:-}" ]; then put "${libraries[$platform]}" "$dir" 755; fi
}
# archive <dir> <name> <extension>: <dir>/<name> packed into $out/<name>.<extension>, files in
# name order, times and owners fixed (zip: no extra attributes, no folder entries). At the
# default level 6, not 9: the Linux archive (binary and ONNX Runtime) is 0.6 % larger (29.41
# against 29.24 MB), and gzip packs the binary in 2.1 s instead of 5.5 (the unoptimised
# Windows build CI packs: 7 s instead of 22). With the packers in the background (below), the
# whole script took CI's two binaries 28 s instead of 66 on two cores.
archive() {
  case "$3" in
    tar.gz) tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C "$1" -cf - "$2" \
      | gzip -n -6 >"$out/$2.$3" ;;
    zip) find "$1/$2" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +
      (cd "$1" && find "$2" -type f | sort | zip -q -X -D -6 "$out/$2.$3" -@) ;;
  esac
}
npm_pack() { (cd "$1" && npm pack --silent --pack-destination "$out" >/dev/null); }
# Packing is compressing (each binary three times: its archive, its npm package and the .mcpb;
# gzip -9 of the Windows binary alone takes about 20 seconds), one core per packer: each runs in
# the background (`packing <command>`) while the script stages the next, and `packed` waits for
# all of them. The bytes do not depend on the order they finish in.
packers=()
packing() { "$@" & packers+=("$!"); }
packed() {
  local pid failed=0
  for pid in "${packers[@]}"; do wait "$pid" || failed=1; done
  packers=()
  [ "$failed" -eq 0 ] || { echo "release.sh: packing an artifact failed (above)" >&2; exit 1; }
}

mcpb_platforms=() mcpb_oses=()
for platform in "${platforms[@]}"; do
  [ -n "${binaries[$platform]:-}" ] || continue
  read -r exe extension os <<<"$(manifests platform "$platform")"
  name="obsidian-tc-$version-$platform"
  echo "==> $platform: $name.$extension, @obsidian-tc/$platform"
  put_binary "$platform" "$stage/archive/$name" "$exe"
  put "$root/LICENSE" "$stage/archive/$name"
  put "$root/README.md" "$stage/archive/$name"
  packing archive "$stage/archive" "$name" "$extension"

  pkg="$stage/npm/$platform"
  put_binary "$platform" "$pkg/bin" "$exe"
  put "$root/LICENSE" "$pkg"
  manifests platform-package "$pkg" "$platform" "$version"
  printf '# @obsidian-tc/%s\n\nThe prebuilt `obsidian-tc` binary for %s, installed by the `obsidian-tc` package (`npx -y obsidian-tc <vault>`).\n' "$platform" "$platform" >"$pkg/README.md"
  packing npm_pack "$pkg"

  # One binary per OS in the .mcpb (its platform_overrides have no architecture key): the
  # first platform of that OS.
  if [[ " ${mcpb_oses[*]:-} " != *" $os "* ]]; then
    put_binary "$platform" "$stage/mcpb/server/$platform" "$exe"
    mcpb_platforms+=("$platform")
    mcpb_oses+=("$os")
  fi
done

echo "==> npm package obsidian-tc"
put "$root/npm/obsidian-tc/bin/obsidian-tc.js" "$stage/npm/main/bin" 755
put "$root/npm/obsidian-tc/README.md" "$stage/npm/main"
put "$root/LICENSE" "$stage/npm/main"
manifests main-package "$stage/npm/main" "$version"
packing npm_pack "$stage/npm/main"

echo "==> obsidian-tc-$version.mcpb"
put "$root/LICENSE" "$stage/mcpb"
manifests mcpb-manifest "$stage/mcpb" "$version" "${mcpb_platforms[@]}"
"$mcpb" validate "$stage/mcpb/manifest.json"
packing env NODE_OPTIONS="--require=$root/scripts/release/fixed-date.cjs" \
  "$mcpb" pack "$stage/mcpb" "$out/obsidian-tc-$version.mcpb" >/dev/null

echo "==> TC Bridge: main.js, manifest.json, styles.css"
for file in main.js manifest.json styles.css; do put "$plugin/$file" "$out"; done

echo "==> crates obsidian-tc-core, obsidian-tc"
rm -rf "$crate_plugin"
for file in main.js manifest.json styles.css; do put "$plugin/$file" "$crate_plugin"; done
# --allow-dirty: the plugin copy is not tracked (and a release from a work tree with changes
# is marked so in the crate's .cargo_vcs_info.json).
(cd "$root" && cargo package --quiet --locked --allow-dirty "${verify_crates[@]}" -p obsidian-tc-core -p obsidian-tc 2>&1 \
  | { grep -v "^warning: ignoring \(test\|example\)" || true; })
for crate in obsidian-tc-core obsidian-tc; do
  install -m 644 "${CARGO_TARGET_DIR:-$root/target}/package/$crate-$version.crate" "$out/"
done
rm -rf "$crate_plugin"
packed

echo "==> server.json, SHA256SUMS"
manifests server-json "$out/server.json" "$version" "$out/obsidian-tc-$version.mcpb"
(cd "$out" && find . -maxdepth 1 -type f ! -name SHA256SUMS -printf '%P\n' | sort | xargs sha256sum >SHA256SUMS)
ls -l "$out"

// Sets the version of everything a release ships, in one command (`npm run release:version --
// <x.y.z> [--min-app-version <x.y.z>]`): the Cargo workspace (and the obsidian-tc-core
// requirement the published obsidian-tc crate carries), Cargo.lock's workspace members,
// package.json and package-lock.json, the npm launcher package, and the TC Bridge plugin's
// manifest.json and versions.json (the new version mapped to the plugin's minimum Obsidian
// version: the one given, else the current one). The release tag is then this version, without
// a "v": Obsidian finds a plugin's release by the tag equal to manifest.json's version.
//
//   node scripts/release/version.mjs <x.y.z> [--min-app-version <x.y.z>] [--root <dir>]
//
// Nothing is written unless every file was read and changed as expected.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SEMVER = /^\d+\.\d+\.\d+$/;

function fail(message) {
	console.error(`version.mjs: ${message}`);
	process.exit(2);
}

function parseArgs(argv) {
	const options = { root: resolve(dirname(fileURLToPath(import.meta.url)), "../..") };
	const rest = [];
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === "--min-app-version") options.minApp = argv[++i];
		else if (argv[i] === "--root") options.root = resolve(argv[++i] ?? "");
		else rest.push(argv[i]);
	}
	if (rest.length !== 1) fail("usage: version.mjs <x.y.z> [--min-app-version <x.y.z>] [--root <dir>]");
	options.version = rest[0];
	for (const [what, value] of [["version", options.version], ["--min-app-version", options.minApp]]) {
		if (value !== undefined && !SEMVER.test(value)) fail(`${what} ${value} is not x.y.z (digits only, as Obsidian requires)`);
	}
	return options;
}

/** `text` with `pattern` replaced, failing when it does not match exactly `count` times. */
function replaceCounted(file, text, pattern, replacement, count) {
	const found = [...text.matchAll(pattern)].length;
	if (found !== count) fail(`${file}: expected ${count} match(es) of ${pattern}, found ${found}`);
	return text.replace(pattern, replacement);
}

const json = (text) => `${JSON.stringify(text, null, "\t")}\n`;

const { root, version, minApp } = parseArgs(process.argv.slice(2));
const read = (file) => readFileSync(join(root, file), "utf8");
const edits = new Map();

let cargo = read("Cargo.toml");
cargo = replaceCounted(
	"Cargo.toml",
	cargo,
	/(\[workspace\.package\]\n(?:[^[].*\n)*?version = ")[^"]+(")/g,
	`$1${version}$2`,
	1,
);
cargo = replaceCounted(
	"Cargo.toml",
	cargo,
	/(obsidian-tc-core = \{ path = "engine-core", version = ")[^"]+(")/g,
	`$1${version}$2`,
	1,
);
edits.set("Cargo.toml", cargo);

// Cargo.lock: the entries without a `source` are the workspace's own packages.
const lock = read("Cargo.lock").replace(
	/\[\[package\]\]\nname = "([^"]+)"\nversion = "[^"]+"\n(?!source = )/g,
	(_, name) => `[[package]]\nname = "${name}"\nversion = "${version}"\n`,
);
edits.set("Cargo.lock", lock);

const pkg = JSON.parse(read("package.json"));
pkg.version = version;
edits.set("package.json", json(pkg));
const pkgLock = JSON.parse(read("package-lock.json"));
pkgLock.version = version;
pkgLock.packages[""].version = version;
edits.set("package-lock.json", json(pkgLock));

const launcher = JSON.parse(read("npm/obsidian-tc/package.json"));
launcher.version = version;
for (const name of Object.keys(launcher.optionalDependencies)) launcher.optionalDependencies[name] = version;
edits.set("npm/obsidian-tc/package.json", json(launcher));

const manifest = JSON.parse(read("manifest.json"));
manifest.version = version;
if (minApp !== undefined) manifest.minAppVersion = minApp;
edits.set("manifest.json", json(manifest));
const versions = JSON.parse(read("versions.json"));
versions[version] = manifest.minAppVersion;
edits.set("versions.json", json(versions));

for (const [file, text] of edits) writeFileSync(join(root, file), text);
console.log(
	`version ${version} (TC Bridge needs Obsidian ${manifest.minAppVersion}) set in ${[...edits.keys()].join(", ")}.\n` +
		`Next: commit, then tag and push the tag: git tag ${version} && git push origin ${version}`,
);

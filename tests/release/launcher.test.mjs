// The npm launcher's choice of platform package (npm/obsidian-tc/bin/obsidian-tc.js): which
// `@obsidian-tc/*` package and binary each `process.platform`/`process.arch` starts, that the
// choice names exactly the packages release.sh builds (scripts/release/manifests.mjs) and the
// launcher's package depends on, and the error, exit code 1, on a platform without a package
// (the launcher run with a stubbed process.platform/arch). Needs no release artifacts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tempFolder } from "../plugin/harness/temp.mjs";
import { PLATFORMS } from "../../scripts/release/manifests.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const LAUNCHER = join(root, "npm/obsidian-tc/bin/obsidian-tc.js");
const { platformPackage } = createRequire(import.meta.url)(LAUNCHER);

test("each supported platform and architecture starts its own package's binary", () => {
	const expected = [
		["linux", "x64", "@obsidian-tc/linux-x64", "obsidian-tc"],
		["linux", "arm64", "@obsidian-tc/linux-arm64", "obsidian-tc"],
		["darwin", "arm64", "@obsidian-tc/darwin-universal", "obsidian-tc"],
		["darwin", "x64", "@obsidian-tc/darwin-universal", "obsidian-tc"],
		["win32", "x64", "@obsidian-tc/win32-x64", "obsidian-tc.exe"],
	];
	for (const [platform, arch, pkg, exe] of expected) {
		assert.deepEqual(platformPackage(platform, arch), { pkg, exe }, `${platform}-${arch}`);
	}
});

test("the launcher's packages are the ones release.sh builds, with matching os, cpu and binary name", () => {
	const optional = Object.keys(JSON.parse(readFileSync(join(root, "npm/obsidian-tc/package.json"), "utf8")).optionalDependencies);
	const built = Object.keys(PLATFORMS).map((name) => `@obsidian-tc/${name}`);
	assert.deepEqual([...optional].sort(), [...built].sort(), "optionalDependencies == the platform packages release.sh builds");
	const chosen = new Set();
	for (const [name, { os, cpu, exe }] of Object.entries(PLATFORMS)) {
		for (const arch of cpu) {
			// npm installs @obsidian-tc/<name> only on `os` and `cpu`: there the launcher must pick it.
			assert.deepEqual(platformPackage(os, arch), { pkg: `@obsidian-tc/${name}`, exe }, `${os}-${arch}`);
			chosen.add(`@obsidian-tc/${name}`);
		}
	}
	assert.deepEqual([...chosen].sort(), [...built].sort());
});

test("a platform without a package: the error names it and the supported ones, and says how to build", () => {
	for (const [platform, arch] of [["win32", "arm64"], ["linux", "ia32"], ["freebsd", "x64"], ["darwin", "ppc64"]]) {
		assert.throws(() => platformPackage(platform, arch), (error) => {
			assert.match(error.message, new RegExp(`^obsidian-tc: no prebuilt binary for ${platform}-${arch} \\(there are binaries for linux-x64, linux-arm64, darwin-x64, darwin-arm64, win32-x64\\)\\.\n`));
			assert.match(error.message, /cargo install obsidian-tc$/);
			return true;
		});
	}
});

test("the launcher on an unsupported platform prints that error and exits 1, starting nothing", () => {
	const dir = tempFolder("obsidian-tc-launcher-");
	const stub = join(dir, "freebsd-arm64.cjs");
	writeFileSync(stub, 'Object.defineProperty(process, "platform", { value: "freebsd" });\nObject.defineProperty(process, "arch", { value: "arm64" });\n');
	const result = spawnSync(process.execPath, ["--require", stub, LAUNCHER, "--version"], { encoding: "utf8" });
	assert.equal(result.status, 1, result.stderr);
	assert.equal(result.stdout, "");
	assert.match(result.stderr, /^obsidian-tc: no prebuilt binary for freebsd-arm64 \(there are binaries for .*win32-x64\)\.\nBuild it from source instead \(needs Rust\): cargo install obsidian-tc\n$/);
});

test("the launcher on win32-x64 looks for @obsidian-tc/win32-x64 (not installed here: its error names it)", () => {
	const dir = tempFolder("obsidian-tc-launcher-");
	const stub = join(dir, "win32-x64.cjs");
	writeFileSync(stub, 'Object.defineProperty(process, "platform", { value: "win32" });\nObject.defineProperty(process, "arch", { value: "x64" });\n');
	const result = spawnSync(process.execPath, ["--require", stub, LAUNCHER, "--version"], { encoding: "utf8", cwd: dir });
	assert.equal(result.status, 1, result.stderr);
	assert.match(result.stderr, /^obsidian-tc: the binary package @obsidian-tc\/win32-x64 for win32-x64 is not installed\./);
});

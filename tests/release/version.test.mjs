// `npm run release:version -- <x.y.z>` (scripts/release/version.mjs) on a copy of the files it
// edits: one command moves every shipped version (Cargo workspace and lock, npm packages, the
// TC Bridge manifest) and adds the version to versions.json; a malformed version changes nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tempFolder } from "../plugin/harness/temp.mjs";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SCRIPT = join(root, "scripts/release/version.mjs");
const FILES = ["Cargo.toml", "Cargo.lock", "package.json", "package-lock.json", "manifest.json", "versions.json", "npm/obsidian-tc/package.json"];

/** A temp folder holding copies of the files the script edits. */
function copy() {
	const dir = tempFolder("obsidian-tc-version-");
	for (const file of FILES) {
		mkdirSync(dirname(join(dir, file)), { recursive: true });
		cpSync(join(root, file), join(dir, file));
	}
	return dir;
}

const setVersion = (dir, ...args) => spawnSync(process.execPath, [SCRIPT, ...args, "--root", dir], { encoding: "utf8" });
const text = (dir, file) => readFileSync(join(dir, file), "utf8");
const json = (dir, file) => JSON.parse(text(dir, file));

test("the current version, set again, changes no byte", () => {
	const dir = copy();
	const result = setVersion(dir, json(root, "manifest.json").version);
	assert.equal(result.status, 0, result.stderr);
	for (const file of FILES) assert.equal(text(dir, file), text(root, file), file);
});

test("a new version reaches every shipped manifest, and versions.json keeps the old entries", () => {
	const dir = copy();
	const before = json(root, "versions.json");
	const result = setVersion(dir, "7.8.9", "--min-app-version", "1.7.2");
	assert.equal(result.status, 0, result.stderr);
	assert.match(result.stdout, /git tag 7\.8\.9 /);
	const cargo = text(dir, "Cargo.toml");
	assert.match(cargo, /\[workspace\.package\]\nversion = "7\.8\.9"/);
	assert.match(cargo, /obsidian-tc-core = \{ path = "engine-core", version = "7\.8\.9" \}/);
	const members = [...text(dir, "Cargo.lock").matchAll(/name = "([^"]+)"\nversion = "7\.8\.9"\n(?!source)/g)].map((m) => m[1]).sort();
	assert.deepEqual(members, ["bench", "engine-wasm", "obsidian-tc", "obsidian-tc-core"]);
	assert.equal(text(dir, "Cargo.lock").split("\n").length, text(root, "Cargo.lock").split("\n").length);
	assert.equal(json(dir, "package.json").version, "7.8.9");
	assert.equal(json(dir, "package-lock.json").packages[""].version, "7.8.9");
	const launcher = json(dir, "npm/obsidian-tc/package.json");
	assert.equal(launcher.version, "7.8.9");
	assert.ok(Object.values(launcher.optionalDependencies).every((v) => v === "7.8.9"));
	assert.deepEqual([json(dir, "manifest.json").version, json(dir, "manifest.json").minAppVersion], ["7.8.9", "1.7.2"]);
	assert.deepEqual(json(dir, "versions.json"), { ...before, "7.8.9": "1.7.2" });
});

test("a version Obsidian would not accept is refused and nothing is written", () => {
	for (const bad of ["1.2", "v1.2.3", "1.2.3-beta.1", "--min-app-version"]) {
		const dir = copy();
		const result = setVersion(dir, ...(bad.startsWith("--") ? ["1.2.3", bad, "x"] : [bad]));
		assert.equal(result.status, 2, `${bad}: ${result.stdout}`);
		assert.match(result.stderr, /version\.mjs: .*(x\.y\.z|usage)/);
		for (const file of FILES) assert.equal(text(dir, file), text(root, file), `${bad} changed ${file}`);
	}
});

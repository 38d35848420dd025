// What the release tests share: the dist/ folder scripts/release.sh wrote (RELEASE_DIST names
// it) and its artifacts by name, commands run without the network, a fresh sample vault, an
// MCP session driven by the TypeScript SDK client, npm tarballs installed offline, and what an
// ELF binary needs of the system (glibc symbol versions, shared libraries).
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, cpSync, existsSync, openSync, readFileSync, readSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { tempFolder } from "../plugin/harness/temp.mjs";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

/** The repository's root folder. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The folder of release artifacts under test. */
export const DIST = resolve(process.env.RELEASE_DIST ?? join(root, "dist"));
/** The workspace's version, which every artifact carries. */
export const VERSION = readFileSync(join(root, "Cargo.toml"), "utf8").match(/\[workspace\.package\][^[]*?\nversion = "([^"]+)"/)[1];

/** The path of artifact `name` in DIST; fails the test when release.sh did not write it. */
export const artifact = (name) => {
	const file = join(DIST, name);
	assert.ok(existsSync(file), `${file} is missing: run scripts/release.sh first`);
	return file;
};

/** Nothing reaches the network: no model download, no registry. */
export const ENV = { ...process.env, HF_HUB_OFFLINE: "1", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };

/** Runs `command args` to completion; its stdout, or fails with its output. */
export function run(command, args, options = {}) {
	const result = spawnSync(command, args, { encoding: "utf8", env: ENV, maxBuffer: 64 << 20, ...options });
	assert.equal(result.status, 0, `${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
	return result.stdout;
}

/** A fresh copy of the sample vault. */
export function freshVault() {
	const dir = tempFolder("obsidian-tc-release-vault-");
	cpSync(join(root, "tests/fixtures/sample-vault"), dir, { recursive: true });
	rmSync(join(dir, ".obsidian-tc"), { recursive: true, force: true });
	return dir;
}

/**
 * A temp project with `tarballs` installed offline (`npm install --offline`), `flags` added
 * (e.g. `--os=win32 --cpu=x64`: npm picks the optional dependencies of that platform) and the
 * project's `overrides` (e.g. a platform package's name to `file:<its tarball>`).
 */
export function installed(tarballs, { flags = [], overrides } = {}) {
	const dir = tempFolder("obsidian-tc-release-npm-");
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "release-check", private: true, overrides }));
	run("npm", ["install", "--offline", "--no-save", ...flags, ...tarballs], { cwd: dir });
	return dir;
}

/**
 * Starts `command args` as an MCP client would, initializes, reads a note and searches; the
 * milliseconds from spawning to the initialize answer. `options.timeout`: how long the first
 * scan may take (20 s).
 */
export async function session(command, args, options = {}) {
	const transport = new StdioClientTransport({ command, args, env: { ...ENV, ...options.env }, cwd: options.cwd, stderr: "inherit" });
	const client = new Client({ name: "obsidian-tc-release-check", version: "1.0.0" });
	const started = performance.now();
	await client.connect(transport);
	const initialized = performance.now() - started;
	try {
		assert.equal(client.getServerVersion()?.name, "obsidian-tc");
		assert.equal(client.getServerVersion()?.version, VERSION);
		const read = await client.callTool({ name: "read_note", arguments: { path: "Recipes.md" } });
		assert.ok(!read.isError, JSON.stringify(read));
		assert.match(read.structuredContent.content, /Tomato soup/);
		// The first scan runs in the background: search until it has indexed the vault.
		const deadline = Date.now() + (options.timeout ?? 20000);
		let found;
		while (!found && Date.now() < deadline) {
			const search = await client.callTool({ name: "search_vault", arguments: { query: "tomato soup", mode: "lexical" } });
			assert.ok(!search.isError, JSON.stringify(search));
			found = search.structuredContent.results.find((hit) => hit.path === "Recipes.md");
			if (!found) await new Promise((done) => setTimeout(done, 100));
		}
		assert.ok(found, "search_vault finds Recipes.md");
	} finally {
		await client.close();
	}
	return initialized;
}

/** The newest GLIBC_x.y[.z] symbol version an ELF file (of any architecture) needs. */
export function newestGlibc(file) {
	const versions = [...run("readelf", ["-W", "--version-info", file]).matchAll(/GLIBC_(\d+)\.(\d+)(?:\.(\d+))?/g)]
		.map((m) => [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)]);
	versions.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
	return versions.at(-1);
}

/** The newest GLIBCXX_3.4.x minor version an ELF file needs (0 when it needs none). */
export function newestGlibcxx(file) {
	return Math.max(0, ...[...run("readelf", ["-W", "--version-info", file]).matchAll(/GLIBCXX_3\.4\.(\d+)/g)].map((m) => Number(m[1])));
}

/** The shared libraries (DT_NEEDED) an ELF file needs. */
export const neededLibraries = (file) => [...run("readelf", ["-d", file]).matchAll(/\(NEEDED\)\s+Shared library: \[([^\]]+)\]/g)].map((m) => m[1]);

/** The first `length` bytes of `file`. */
export function fileHead(file, length) {
	const fd = openSync(file, "r");
	try {
		const buffer = Buffer.alloc(length);
		return buffer.subarray(0, readSync(fd, buffer, 0, length, 0));
	} finally {
		closeSync(fd);
	}
}

/** The e_machine of an ELF file: 62 x86-64, 183 aarch64. */
export function elfMachine(file) {
	const head = fileHead(file, 20);
	assert.equal(head.subarray(0, 4).toString("latin1"), "\x7fELF", `${file} is an ELF file`);
	return head.readUInt16LE(18);
}

/**
 * Checks that the binary and ONNX Runtime library in `dir` need glibc 2.35 or older, GCC 11's
 * libstdc++ or older, and only glibc's and the C++ runtime's libraries (which every glibc
 * system has); `loader` is the name in the dynamic loader's file (x86-64, aarch64).
 */
export function checkGlibcAndLibraries(t, dir, loader) {
	const base = new RegExp(`^(libc|libm|libdl|libpthread|librt|libgcc_s|ld-linux-${loader})\\.so\\.\\d+$`);
	for (const file of ["obsidian-tc", "libonnxruntime.so.1.32.0"]) {
		const glibc = newestGlibc(join(dir, file));
		const libs = neededLibraries(join(dir, file));
		t.diagnostic(`${file} needs GLIBC_${glibc.join(".")} and ${libs.join(", ")}`);
		assert.ok(glibc[0] === 2 && glibc[1] <= 35, `${file}: GLIBC_${glibc.join(".")} is newer than 2.35`);
		assert.ok(libs.every((lib) => base.test(lib) || lib === "libstdc++.so.6"), `${file} needs ${libs.join(", ")}`);
		// GLIBCXX_3.4.29 is GCC 11's libstdc++ (Ubuntu 22.04, RHEL 9).
		const cxx = newestGlibcxx(join(dir, file));
		assert.ok(cxx <= 29, `${file} needs GLIBCXX_3.4.${cxx}`);
	}
}

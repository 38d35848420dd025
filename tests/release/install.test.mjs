// The release artifacts used the way a user uses them, from the dist/ folder only
// (scripts/release.sh; RELEASE_DIST names it): the two npm tarballs installed offline into a
// fresh project, `npx obsidian-tc <vault>` driven by the TypeScript SDK client (initialize,
// read a note, search); the launcher's exit codes, signals and its error without a platform
// package; the .mcpb validated by the official CLI and its Linux entry point serving MCP as
// Claude Desktop would start it; server.json against the registry's rules; the crates to
// publish; the TC Bridge plugin's three assets; SHA256SUMS; the newest glibc symbol version
// and the shared libraries the binary needs. scripts/test.sh runs it with a fresh HOME and no
// Rust toolchain on PATH.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DIST = resolve(process.env.RELEASE_DIST ?? join(root, "dist"));
const TARGET = "x86_64-unknown-linux-gnu";
const VERSION = readFileSync(join(root, "Cargo.toml"), "utf8").match(/\[workspace\.package\][^[]*?\nversion = "([^"]+)"/)[1];
const artifact = (name) => {
	const file = join(DIST, name);
	assert.ok(existsSync(file), `${file} is missing: run scripts/release.sh first`);
	return file;
};
const MAIN_TGZ = artifact(`obsidian-tc-${VERSION}.tgz`);
const PLATFORM_TGZ = artifact(`obsidian-tc-linux-x64-${VERSION}.tgz`);
const MCPB = artifact(`obsidian-tc-${VERSION}.mcpb`);
const ARCHIVE = artifact(`obsidian-tc-${VERSION}-${TARGET}.tar.gz`);

/** Nothing reaches the network: no model download, no registry. */
const ENV = { ...process.env, HF_HUB_OFFLINE: "1", npm_config_audit: "false", npm_config_fund: "false", npm_config_update_notifier: "false" };

function run(command, args, options = {}) {
	const result = spawnSync(command, args, { encoding: "utf8", env: ENV, maxBuffer: 64 << 20, ...options });
	assert.equal(result.status, 0, `${command} ${args.join(" ")} failed:\n${result.stdout}\n${result.stderr}`);
	return result.stdout;
}

/** A fresh copy of the sample vault. */
function freshVault() {
	const dir = mkdtempSync(join(tmpdir(), "obsidian-tc-release-vault-"));
	cpSync(join(root, "tests/fixtures/sample-vault"), dir, { recursive: true });
	rmSync(join(dir, ".obsidian-tc"), { recursive: true, force: true });
	return dir;
}

/** A temp project with the two tarballs installed offline (`npm install --offline`). */
const project = (() => {
	const dir = mkdtempSync(join(tmpdir(), "obsidian-tc-release-npm-"));
	writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "release-check", private: true }));
	run("npm", ["install", "--offline", "--no-save", MAIN_TGZ, PLATFORM_TGZ], { cwd: dir });
	return dir;
})();

/**
 * Starts `command args` as an MCP client would, initializes, reads a note and searches; the
 * milliseconds from spawning to the initialize answer.
 */
async function session(command, args, options = {}) {
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
		const deadline = Date.now() + 20000;
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

test("npx obsidian-tc <vault> from the installed npm tarballs serves an MCP session", { timeout: 60000 }, async (t) => {
	const installed = JSON.parse(readFileSync(join(project, "node_modules/@obsidian-tc/linux-x64/package.json"), "utf8"));
	assert.deepEqual([installed.os, installed.cpu, installed.libc], [["linux"], ["x64"], ["glibc"]]);
	assert.ok(!("scripts" in installed), "no install scripts");
	const bin = join(project, "node_modules/@obsidian-tc/linux-x64/bin/obsidian-tc");
	assert.ok(statSync(bin).mode & 0o111, "the binary is executable");
	assert.ok(existsSync(join(dirname(bin), "libonnxruntime.so.1.32.0")), "ONNX Runtime next to the binary");

	const times = [];
	for (let i = 0; i < 3; i++) {
		times.push(await session("npx", ["--offline", "obsidian-tc", freshVault()], { cwd: project }));
	}
	times.sort((a, b) => a - b);
	t.diagnostic(`npx obsidian-tc <vault> to the initialize answer: ${times.map((ms) => ms.toFixed(0)).join(", ")} ms (median ${times[1].toFixed(0)} ms)`);
});

test("the launcher passes arguments, output and exit codes through", () => {
	const launcher = join(project, "node_modules/obsidian-tc/bin/obsidian-tc.js");
	const version = run(process.execPath, [launcher, "--version"]);
	assert.match(version, new RegExp(`^obsidian-tc ${VERSION.replaceAll(".", "\\.")}\ncommit: [0-9a-f]{40}\nembedding engines: candle, onnx-runtime \\(load-dynamic\\)\n$`));
	const bad = spawnSync(process.execPath, [launcher, "--no-such-flag"], { encoding: "utf8", env: ENV });
	assert.equal(bad.status, 2, bad.stderr);
	assert.match(bad.stderr, /--no-such-flag/);
});

test("a signal to the launcher stops the server, which shuts down cleanly", { timeout: 15000 }, async () => {
	const launcher = join(project, "node_modules/obsidian-tc/bin/obsidian-tc.js");
	const child = spawn(process.execPath, [launcher, freshVault()], { stdio: ["pipe", "pipe", "inherit"], env: ENV });
	child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "1" } } })}\n`);
	await new Promise((done) => child.stdout.once("data", done));
	child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n`);
	child.stdin.write(`${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping" })}\n`);
	await new Promise((done) => child.stdout.once("data", done));
	const exited = new Promise((done) => child.once("exit", (code, signal) => done({ code, signal })));
	child.kill("SIGTERM");
	assert.deepEqual(await exited, { code: 0, signal: null });
});

test("without its platform package the launcher names the platform and exits 1", () => {
	const dir = mkdtempSync(join(tmpdir(), "obsidian-tc-release-bare-"));
	mkdirSync(join(dir, "bin"));
	copyFileSync(join(project, "node_modules/obsidian-tc/bin/obsidian-tc.js"), join(dir, "bin/obsidian-tc.js"));
	const result = spawnSync(process.execPath, [join(dir, "bin/obsidian-tc.js"), "--version"], { encoding: "utf8", env: ENV });
	assert.equal(result.status, 1);
	assert.match(result.stderr, /@obsidian-tc\/linux-x64 for linux-x64 is not installed/);
});

test("the .mcpb passes mcpb validate and its Linux entry point serves an MCP session", { timeout: 60000 }, async () => {
	const dir = mkdtempSync(join(tmpdir(), "obsidian-tc-release-mcpb-"));
	run("unzip", ["-q", MCPB, "-d", dir]);
	run(join(root, "node_modules/.bin/mcpb"), ["validate", join(dir, "manifest.json")]);
	const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
	assert.equal(manifest.manifest_version, "0.3");
	assert.equal(manifest.version, VERSION);
	assert.equal(manifest.server.type, "binary");
	assert.equal(manifest.user_config.vault.type, "directory");
	assert.ok(manifest.compatibility.platforms.includes("linux"));
	// What Claude Desktop does on Linux: the linux override (or the base command), the
	// ${__dirname} and ${user_config.*} substitutions, the defaults of optional settings.
	const config = { ...manifest.server.mcp_config, ...manifest.server.mcp_config.platform_overrides?.linux };
	const vault = freshVault();
	const values = { vault, semantic_search: manifest.user_config.semantic_search.default };
	const fill = (text) => text.replaceAll("${__dirname}", dir).replace(/\$\{user_config\.(\w+)\}/g, (_, key) => values[key]);
	const command = fill(config.command);
	assert.ok(existsSync(command), `${command} is in the bundle`);
	assert.ok(existsSync(join(dir, manifest.server.entry_point)), "entry_point is in the bundle");
	const env = Object.fromEntries(Object.entries(config.env ?? {}).map(([key, value]) => [key, fill(value)]));
	await session(command, (config.args ?? []).map(fill), { env });
});

test("server.json names the npm package, the .mcpb with its SHA-256 and the crate", () => {
	const server = JSON.parse(readFileSync(artifact("server.json"), "utf8"));
	assert.equal(server.$schema, "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json");
	assert.match(server.name, /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
	assert.ok(server.description.length >= 1 && server.description.length <= 100, "description: 1 to 100 characters");
	assert.equal(server.version, VERSION);
	const npmPackage = JSON.parse(readFileSync(join(project, "node_modules/obsidian-tc/package.json"), "utf8"));
	const npm = server.packages.find((p) => p.registryType === "npm");
	assert.equal(npm.identifier, npmPackage.name);
	assert.equal(npmPackage.mcpName, server.name, "the registry's npm ownership check: mcpName == name");
	const mcpb = server.packages.find((p) => p.registryType === "mcpb");
	assert.equal(mcpb.fileSha256, createHash("sha256").update(readFileSync(MCPB)).digest("hex"));
	assert.match(mcpb.identifier, /mcp/);
	// Obsidian finds the plugin's release by the tag equal to manifest.json's version: no "v".
	assert.ok(mcpb.identifier.endsWith(`/releases/download/${VERSION}/obsidian-tc-${VERSION}.mcpb`), mcpb.identifier);
	const cargo = server.packages.find((p) => p.registryType === "cargo");
	assert.equal(cargo.identifier, crateFile(`obsidian-tc-${VERSION}.crate`, "Cargo.toml").match(/^name = "([^"]+)"/m)[1]);
	assert.ok(crateFile(`obsidian-tc-${VERSION}.crate`, "README.md").includes(`mcp-name: ${server.name}`), "the crate's README carries the mcp-name line (the registry's cargo ownership check)");
	for (const p of server.packages) {
		assert.equal(p.version, VERSION);
		assert.equal(p.transport.type, "stdio");
	}
	const readme = readFileSync(join(root, "README.md"), "utf8");
	assert.ok(readme.includes(`mcp-name: ${server.name}`), "the README carries the mcp-name line");
});

/** The text of `file` inside the packaged crate `crate` (a .tar.gz with one top folder). */
function crateFile(crate, file) {
	const top = crate.replace(/\.crate$/, "");
	return run("tar", ["-xzOf", artifact(crate), `${top}/${file}`]);
}

test("the crates to publish: the engine, then the server with the plugin; no path dependency", () => {
	const core = `obsidian-tc-core-${VERSION}.crate`;
	const server = `obsidian-tc-${VERSION}.crate`;
	const manifest = crateFile(server, "Cargo.toml");
	assert.match(manifest, /\[dependencies\.obsidian-tc-core\]\nversion = "([^"]+)"/);
	assert.equal(manifest.match(/\[dependencies\.obsidian-tc-core\]\nversion = "([^"]+)"/)[1], VERSION);
	assert.ok(!/\[(?:dev-|build-)?dependencies\.[^\]]+\]\n(?:[^[\n].*\n)*?path = /.test(manifest), "a published manifest has no path dependency");
	assert.match(crateFile(core, "Cargo.toml"), /\[lib\]\nname = "engine_core"/);
	// build.rs embeds tc-bridge/, so `cargo install obsidian-tc` can `plugin install`.
	for (const name of ["main.js", "manifest.json", "styles.css"]) {
		assert.equal(crateFile(server, `tc-bridge/${name}`), readFileSync(artifact(name), "utf8"), `tc-bridge/${name}`);
	}
	const listed = run("tar", ["-tzf", artifact(server)]).trim().split("\n");
	assert.ok(listed.includes(`obsidian-tc-${VERSION}/Cargo.lock`), "the lock file ships (cargo install --locked)");
	assert.ok(!listed.some((name) => name.includes("/tests/")), "the tests stay in the repository");
	assert.match(JSON.parse(crateFile(server, ".cargo_vcs_info.json")).git.sha1, /^[0-9a-f]{40}$/);
});

test("TC Bridge's release assets: main.js, manifest.json at the release version, styles.css", () => {
	const manifest = JSON.parse(readFileSync(artifact("manifest.json"), "utf8"));
	assert.equal(manifest.id, "tc-bridge");
	assert.equal(manifest.version, VERSION, "tag == manifest.json version == workspace version");
	const versions = JSON.parse(readFileSync(join(root, "versions.json"), "utf8"));
	assert.equal(versions[VERSION], manifest.minAppVersion, "versions.json maps the version to its minAppVersion");
	assert.match(readFileSync(artifact("main.js"), "utf8"), / = class extends import_obsidian\d*\.Plugin \{/);
	assert.match(readFileSync(artifact("styles.css"), "utf8"), /\.tc-bridge-/);
});

test("SHA256SUMS lists every artifact with its digest", () => {
	const lines = readFileSync(artifact("SHA256SUMS"), "utf8").trim().split("\n");
	const listed = lines.map((line) => line.split(/\s+/)[1]).sort();
	assert.deepEqual(listed, readdirSync(DIST).filter((name) => name !== "SHA256SUMS").sort());
	for (const line of lines) {
		const [digest, name] = line.split(/\s+/);
		assert.equal(createHash("sha256").update(readFileSync(join(DIST, name))).digest("hex"), digest, name);
	}
});

test("the archive's binary needs glibc 2.35 or older (the newest versioned symbol it uses)", (t) => {
	const dir = mkdtempSync(join(tmpdir(), "obsidian-tc-release-archive-"));
	run("tar", ["-xzf", ARCHIVE, "-C", dir]);
	const unpacked = join(dir, `obsidian-tc-${VERSION}-${TARGET}`);
	for (const name of ["obsidian-tc", "libonnxruntime.so.1.32.0", "LICENSE", "README.md"]) {
		assert.ok(existsSync(join(unpacked, name)), `${name} in the archive`);
	}
	chmodSync(unpacked, 0o755);
	const newest = (file) => {
		const versions = [...run("objdump", ["-T", file]).matchAll(/GLIBC_(\d+)\.(\d+)(?:\.(\d+))?/g)]
			.map((m) => [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)]);
		versions.sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
		return versions.at(-1);
	};
	const binary = newest(join(unpacked, "obsidian-tc"));
	const ort = newest(join(unpacked, "libonnxruntime.so.1.32.0"));
	t.diagnostic(`obsidian-tc needs GLIBC_${binary.join(".")}; libonnxruntime.so needs GLIBC_${ort.join(".")}`);
	assert.ok(binary[0] === 2 && binary[1] <= 35, `GLIBC_${binary.join(".")} is newer than 2.35`);
	assert.ok(ort[0] === 2 && ort[1] <= 35, `libonnxruntime.so: GLIBC_${ort.join(".")} is newer than 2.35`);
	// Only glibc's own libraries (and libgcc's unwinder), which every glibc system has; the C++
	// runtime's symbol versions too, for the ONNX Runtime library.
	const needed = (file) => [...run("objdump", ["-p", file]).matchAll(/^\s*NEEDED\s+(\S+)$/gm)].map((m) => m[1]);
	const base = /^(libc|libm|libdl|libpthread|librt|libgcc_s|ld-linux-x86-64)\.so\.\d+$/;
	for (const file of ["obsidian-tc", "libonnxruntime.so.1.32.0"]) {
		const libs = needed(join(unpacked, file));
		t.diagnostic(`${file} needs ${libs.join(", ")}`);
		assert.ok(libs.every((lib) => base.test(lib) || lib === "libstdc++.so.6"), `${file} needs ${libs.join(", ")}`);
		const cxx = [...run("objdump", ["-T", join(unpacked, file)]).matchAll(/GLIBCXX_3\.4\.(\d+)/g)].map((m) => Number(m[1]));
		// GLIBCXX_3.4.29 is GCC 11's libstdc++ (Ubuntu 22.04, RHEL 9).
		assert.ok(cxx.every((minor) => minor <= 29), `${file} needs GLIBCXX_3.4.${Math.max(...cxx)}`);
	}
});

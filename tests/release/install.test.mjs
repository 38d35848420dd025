// The release artifacts used the way a user uses them, from the dist/ folder only
// (scripts/release.sh; RELEASE_DIST names it): the two Linux x86_64 npm tarballs installed
// offline into a fresh project, `npx obsidian-tc <vault>` driven by the TypeScript SDK client
// (initialize, read a note, search); the launcher's exit codes, signals and its error without a
// platform package; the .mcpb validated by the official CLI, one binary per OS it lists, and
// its Linux entry point serving MCP as Claude Desktop would start it; server.json against the
// registry's rules; the crates to publish; the TC Bridge plugin's three assets; SHA256SUMS;
// the newest glibc symbol version and the shared libraries the binary needs. The Windows and
// Linux aarch64 artifacts: platforms.test.mjs. scripts/test.sh runs it with a fresh HOME and
// no Rust toolchain on PATH.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { tempFolder } from "../plugin/harness/temp.mjs";
import { PLATFORMS } from "../../scripts/release/manifests.mjs";
import { DIST, ENV, VERSION, artifact, checkGlibcAndLibraries, elfMachine, freshVault, installed, root, run, session } from "./artifacts.mjs";

const TARGET = "linux-x64";
const MAIN_TGZ = artifact(`obsidian-tc-${VERSION}.tgz`);
const PLATFORM_TGZ = artifact(`obsidian-tc-${TARGET}-${VERSION}.tgz`);
const MCPB = artifact(`obsidian-tc-${VERSION}.mcpb`);
const ARCHIVE = artifact(`obsidian-tc-${VERSION}-${TARGET}.tar.gz`);

/** A temp project with the two tarballs installed offline (`npm install --offline`). */
const project = installed([MAIN_TGZ, PLATFORM_TGZ]);

test("npx obsidian-tc <vault> from the installed npm tarballs serves an MCP session", { timeout: 60000 }, async (t) => {
	const pkg = JSON.parse(readFileSync(join(project, "node_modules/@obsidian-tc/linux-x64/package.json"), "utf8"));
	assert.deepEqual([pkg.os, pkg.cpu, pkg.libc], [["linux"], ["x64"], ["glibc"]]);
	assert.ok(!("scripts" in pkg), "no install scripts");
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
	const dir = tempFolder("obsidian-tc-release-bare-");
	mkdirSync(join(dir, "bin"));
	copyFileSync(join(project, "node_modules/obsidian-tc/bin/obsidian-tc.js"), join(dir, "bin/obsidian-tc.js"));
	const result = spawnSync(process.execPath, [join(dir, "bin/obsidian-tc.js"), "--version"], { encoding: "utf8", env: ENV });
	assert.equal(result.status, 1);
	assert.match(result.stderr, /@obsidian-tc\/linux-x64 for linux-x64 is not installed/);
});

test("the .mcpb: mcpb validate passes, each OS it lists runs the binary it carries for that OS", () => {
	const dir = tempFolder("obsidian-tc-release-mcpb-");
	run("unzip", ["-q", MCPB, "-d", dir]);
	run(join(root, "node_modules/.bin/mcpb"), ["validate", join(dir, "manifest.json")]);
	const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
	assert.equal(manifest.manifest_version, "0.3");
	assert.equal(manifest.version, VERSION);
	assert.equal(manifest.server.type, "binary");
	assert.equal(manifest.user_config.vault.type, "directory");
	// server/<platform>/ per binary carried, at most one per OS; the OSes it lists are exactly those.
	const carried = readdirSync(join(dir, "server")).sort();
	for (const name of carried) assert.ok(name in PLATFORMS, `server/${name} is a release platform`);
	const oses = carried.map((name) => PLATFORMS[name].os);
	assert.deepEqual([...manifest.compatibility.platforms].sort(), [...oses].sort(), `compatibility.platforms lists the OSes of ${carried.join(", ")}`);
	assert.equal(new Set(oses).size, oses.length, "one binary per OS");
	const { command, platform_overrides: overrides = {} } = manifest.server.mcp_config;
	assert.ok(Object.keys(overrides).every((os) => oses.includes(os)), `overrides only for carried OSes: ${Object.keys(overrides)}`);
	assert.equal(`\${__dirname}/${manifest.server.entry_point}`, command, "entry_point is the base command");
	const base = carried.filter((name) => !(PLATFORMS[name].os in overrides));
	assert.equal(base.length, 1, `the base command serves exactly one carried OS: ${base}`);
	for (const name of carried) {
		const { os, exe } = PLATFORMS[name];
		const path = `\${__dirname}/server/${name}/${exe}`;
		assert.equal(overrides[os]?.command ?? command, path, `${os} runs server/${name}/${exe}`);
		assert.ok(existsSync(join(dir, "server", name, exe)), `server/${name}/${exe} is in the bundle`);
		assert.ok(statSync(join(dir, "server", name, exe)).mode & 0o111, `server/${name}/${exe} is executable`);
	}
	// This machine's Linux x86_64 and the Windows build are always carried (scripts/test.sh).
	for (const name of ["linux-x64", "win32-x64"]) assert.ok(carried.includes(name), `server/${name}/ in the bundle`);
	assert.ok(existsSync(join(dir, "server/win32-x64/onnxruntime.dll")), "ONNX Runtime next to the Windows binary");
	assert.ok(existsSync(join(dir, "server/linux-x64/libonnxruntime.so.1.32.0")), "ONNX Runtime next to the Linux binary");
});

test("the .mcpb's Linux entry point serves an MCP session as Claude Desktop starts it", { timeout: 60000 }, async () => {
	const dir = tempFolder("obsidian-tc-release-mcpb-");
	run("unzip", ["-q", MCPB, "-d", dir]);
	const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
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
	const dir = tempFolder("obsidian-tc-release-archive-");
	run("tar", ["-xzf", ARCHIVE, "-C", dir]);
	const unpacked = join(dir, `obsidian-tc-${VERSION}-${TARGET}`);
	assert.deepEqual(readdirSync(unpacked).sort(), ["LICENSE", "README.md", "libonnxruntime.so.1.32.0", "obsidian-tc"]);
	chmodSync(unpacked, 0o755);
	assert.equal(elfMachine(join(unpacked, "obsidian-tc")), 62, "an x86-64 binary");
	checkGlibcAndLibraries(t, unpacked, "x86-64");
});

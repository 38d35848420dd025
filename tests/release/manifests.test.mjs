// The .mcpb manifest scripts/release/manifests.mjs writes for a set of platforms, with every
// desktop OS (the macOS binary exists only on the release workflow's runner, so dist/ never
// shows this case): `mcpb validate` (the official CLI) passes, each OS runs the binary under
// server/<platform>/, compatibility.platforms lists exactly the OSes carried, and two binaries
// of one OS are refused. Needs no release artifacts.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { tempFolder } from "../plugin/harness/temp.mjs";
import { root, run } from "./artifacts.mjs";

const MANIFESTS = join(root, "scripts/release/manifests.mjs");

/** The manifest written for `platforms`, after `mcpb validate` passed on it. */
function manifestFor(...platforms) {
	const dir = tempFolder("obsidian-tc-mcpb-manifest-");
	run(process.execPath, [MANIFESTS, "mcpb-manifest", dir, "1.2.3", ...platforms]);
	run(join(root, "node_modules/.bin/mcpb"), ["validate", join(dir, "manifest.json")]);
	return JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
}

test("Linux, macOS and Windows: the base command and one override per other OS", () => {
	const manifest = manifestFor("linux-x64", "darwin-universal", "win32-x64");
	assert.equal(manifest.version, "1.2.3");
	assert.equal(manifest.server.entry_point, "server/linux-x64/obsidian-tc");
	assert.equal(manifest.server.mcp_config.command, "${__dirname}/server/linux-x64/obsidian-tc");
	assert.deepEqual(manifest.server.mcp_config.platform_overrides, {
		darwin: { command: "${__dirname}/server/darwin-universal/obsidian-tc" },
		win32: { command: "${__dirname}/server/win32-x64/obsidian-tc.exe" },
	});
	assert.deepEqual(manifest.compatibility.platforms, ["linux", "darwin", "win32"]);
});

test("without a macOS binary the bundle neither lists macOS nor points at it", () => {
	const manifest = manifestFor("linux-x64", "win32-x64");
	assert.deepEqual(manifest.server.mcp_config.platform_overrides, { win32: { command: "${__dirname}/server/win32-x64/obsidian-tc.exe" } });
	assert.deepEqual(manifest.compatibility.platforms, ["linux", "win32"]);
});

test("two binaries of one OS are refused (platform_overrides has no architecture key)", () => {
	const dir = tempFolder("obsidian-tc-mcpb-manifest-");
	const result = spawnSync(process.execPath, [MANIFESTS, "mcpb-manifest", dir, "1.2.3", "linux-x64", "linux-arm64"], { encoding: "utf8" });
	assert.notEqual(result.status, 0);
	assert.match(result.stderr, /a \.mcpb holds one binary per OS/);
});

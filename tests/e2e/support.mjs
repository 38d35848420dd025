// Helpers of the Node end-to-end tests: the release binary, a fresh vault, an HTTP server
// process, the out-of-band approval, and the scenario's expectations.
import { spawn, spawnSync } from "node:child_process";
import { cpSync, existsSync, readFileSync, rmSync } from "node:fs";
import { createServer, connect } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { removeFolder, tempFolder } from "../plugin/harness/temp.mjs";
import assert from "node:assert/strict";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The binary under test: `OBSIDIAN_TC_BIN`, else the release build. */
export const BIN = process.env.OBSIDIAN_TC_BIN ?? join(root, "target/release/obsidian-tc");

/** The shared scenario every client runs. */
export const SCENARIO = JSON.parse(readFileSync(join(root, "tests/e2e/scenario.json"), "utf8"));

/**
 * A new folder under the system's temporary folder, named `prefix` and random characters; removed
 * when the test `t` ends, passing or failing (after its own finally blocks have stopped the
 * processes that use it).
 */
export function tempDir(t, prefix) {
	const dir = tempFolder(prefix);
	t.after(() => removeFolder(dir));
	return dir;
}

/**
 * A fresh copy of the sample vault (without any cache a local run left in it), removed when the
 * test `t` ends.
 */
export function freshVault(t) {
	assert.ok(existsSync(BIN), `${BIN} is missing: run \`cargo build --release -p obsidian-tc\` first`);
	const dir = tempDir(t, "obsidian-tc-e2e-");
	cpSync(join(root, "tests/fixtures/sample-vault"), dir, { recursive: true });
	rmSync(join(dir, ".obsidian-tc"), { recursive: true, force: true });
	return dir;
}

/** A TCP port that was free a moment ago on loopback. */
export function freePort() {
	return new Promise((done, fail) => {
		const probe = createServer();
		probe.once("error", fail);
		probe.listen(0, "127.0.0.1", () => {
			const { port } = probe.address();
			probe.close(() => done(port));
		});
	});
}

/** Resolves once `port` accepts connections (or fails after `ms`). */
async function waitForPort(port, child, ms = 10000) {
	const deadline = Date.now() + ms;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`obsidian-tc exited with ${child.exitCode} before listening`);
		const open = await new Promise((done) => {
			const socket = connect(port, "127.0.0.1");
			socket.once("connect", () => { socket.destroy(); done(true); });
			socket.once("error", () => done(false));
		});
		if (open) return;
		await new Promise((done) => setTimeout(done, 25));
	}
	throw new Error(`obsidian-tc did not listen on ${port} within ${ms} ms`);
}

/** Starts `obsidian-tc serve --http` on `vault`; resolves to `{url, stop}`. */
export async function startHttpServer(vault) {
	const port = await freePort();
	const child = spawn(BIN, ["serve", "--http", "--port", String(port), vault], {
		stdio: ["ignore", "ignore", "inherit"],
	});
	await waitForPort(port, child);
	const stop = () => new Promise((done) => {
		if (child.exitCode !== null) return done(child.exitCode);
		child.once("exit", (code) => done(code));
		child.kill("SIGTERM");
	});
	return { url: `http://127.0.0.1:${port}/mcp`, stop };
}

/** `obsidian-tc elicit approve <argsHash> <vault>`, which must succeed. */
export function approve(argsHash, vault) {
	const run = spawnSync(BIN, ["elicit", "approve", argsHash, vault], { encoding: "utf8" });
	assert.equal(run.status, 0, `elicit approve failed: ${run.stderr}`);
}

/** The value at a dotted path of `value`. */
function at(value, dotted) {
	return dotted.split(".").reduce((v, key) => (v == null ? undefined : v[key]), value);
}

/** Every key of `expected` is in `actual` with an equal value (objects compared the same way). */
function assertContains(actual, expected, where) {
	for (const [key, want] of Object.entries(expected)) {
		const got = actual?.[key];
		if (want !== null && typeof want === "object" && !Array.isArray(want)) {
			assertContains(got, want, `${where}.${key}`);
		} else {
			assert.deepEqual(got, want, `${where}.${key}`);
		}
	}
}

/**
 * Runs the scenario with `callTool(name, args) -> {isError, structuredContent}` on `vault`.
 * Returns the number of steps run.
 */
export async function runScenario(callTool, vault) {
	const saved = {};
	for (const step of SCENARIO.steps) {
		const label = `step "${step.name}"`;
		if (step.call) {
			const result = await callTool(step.call, step.args);
			const structured = result.structuredContent;
			if (step.expect?.error) {
				assert.equal(result.isError, true, `${label}: expected an error, got ${JSON.stringify(structured)}`);
				assert.equal(structured?.code, step.expect.error, `${label}: error code`);
			} else {
				assert.notEqual(result.isError, true, `${label}: ${JSON.stringify(structured)}`);
				assertContains(structured, step.expect?.structured ?? {}, label);
			}
			for (const [name, path] of Object.entries(step.save ?? {})) {
				saved[name] = at(structured, path);
				assert.ok(saved[name], `${label}: nothing at ${path}`);
			}
		} else if (step.file) {
			const file = join(vault, step.file);
			if (step.content !== undefined) {
				assert.equal(readFileSync(file, "utf8"), step.content, label);
			} else {
				assert.equal(existsSync(file), step.exists, label);
			}
		} else if (step.approve) {
			approve(saved[step.approve], vault);
		} else {
			throw new Error(`${label}: unknown step kind`);
		}
	}
	return SCENARIO.steps.length;
}

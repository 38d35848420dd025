// TC Bridge as a separate process for the bridge end-to-end tests: the PRODUCTION main.js (run
// `npm run build` first) over the fake Obsidian App, on a temporary copy of a vault
// (default ../shared/vaults/obsidian-help-en, else tests/fixtures/sample-vault), on a free port.
//
//   node tests/e2e/plugin_host.mjs [vault folder]
//
// Prints one JSON line when serving: {"port", "token", "vault"}. Then reads commands on stdin,
// one a line, and answers each with one JSON line {"ok": true, ...} or {"ok": false, "error"}:
//   add-tool   registers the tool `added_at_runtime` (echoes its `text` argument)
//   stop       unloads the plugin as Obsidian does on disable (the port closes)
//   start      loads a fresh plugin instance on the same app: same port, same token
//   approve    waits (up to 10 s) for the next approval dialog and presses Approve
//   deny       the same, pressing Deny
// Exits when stdin closes.
//
// Imported, it gives the tests and the bench the driving side: `startPluginHost`, `direct`,
// `waitForIndex`.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { fakeApp } from "../plugin/fakes/app.mjs";
import { addWorkspaces } from "../plugin/fakes/companions.mjs";
import * as obsidian from "../plugin/stubs/obsidian.mjs";
import { loadBundle, manifest, request } from "../plugin/harness/plugin.mjs";

const root = new URL("../../", import.meta.url);
const HELP_VAULT = fileURLToPath(new URL("../shared/vaults/obsidian-help-en", root));
const SAMPLE_VAULT = fileURLToPath(new URL("tests/fixtures/sample-vault", root));
const TOKEN = "bridge-e2e-token-5f0c2a";
/** The tool `add-tool` registers. */
export const ADDED_TOOL = "added_at_runtime";

/** A TCP port that was free a moment ago on loopback. */
function freePort() {
	return new Promise((done, fail) => {
		const probe = createServer();
		probe.once("error", fail);
		probe.listen(0, "127.0.0.1", () => {
			const { port } = probe.address();
			probe.close(() => done(port));
		});
	});
}


/** Starts this script as a child process; resolves to {port, token, command(name), close()}. */
export async function startPluginHost() {
	const child = spawn(process.execPath, [fileURLToPath(import.meta.url)], { stdio: ["pipe", "pipe", "inherit"] });
	const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
	const next = async () => {
		const { value, done } = await lines.next();
		if (done) throw new Error("the plugin host exited");
		return JSON.parse(value);
	};
	const { port, token } = await next();
	return {
		port,
		token,
		/** Sends one command and waits for its answer, which must be ok. */
		async command(name) {
			child.stdin.write(`${name}\n`);
			const answer = await next();
			assert.equal(answer.ok, true, `plugin host ${name}: ${answer.error}`);
		},
		close: () => new Promise((done) => {
			child.once("exit", done);
			child.stdin.end();
		}),
	};
}

/** One Bridge API request straight to the plugin of `host`; resolves to the 200 JSON body. */
export async function direct(host, method, path, payload) {
	const body = payload === undefined ? undefined : JSON.stringify(payload);
	const answer = await request(host.port, { method, path: `/bridge/v1${path}`, body, token: host.token });
	assert.equal(answer.status, 200, `${method} ${path}: ${answer.text}`);
	return answer.json;
}

/** Calls `search` straight on the plugin until its index has read the whole vault. */
export async function waitForIndex(host) {
	for (;;) {
		const answer = await direct(host, "POST", "/tools/search/call", { arguments: { query: "note", limit: 1 } });
		if (!JSON.parse(answer.content[0].text).coverage.scanning) return;
		await new Promise((done) => setTimeout(done, 20));
	}
}

/** Runs the host: serves the plugin and obeys stdin. */
async function main() {
	const source = process.argv[2] ?? (existsSync(HELP_VAULT) ? HELP_VAULT : SAMPLE_VAULT);
	const vault = mkdtempSync(join(tmpdir(), "tc-bridge-host-"));
	cpSync(source, vault, { recursive: true });
	rmSync(join(vault, ".obsidian-tc"), { recursive: true, force: true });
	const port = await freePort();
	const app = fakeApp({ vaultDir: vault, data: { port, token: TOKEN } });
	addWorkspaces(app, ["Writing", "Research"]);
	let plugin = null;

	/** Loads a fresh plugin instance (Obsidian's enable); fails when it does not serve. */
	async function start() {
		if (plugin !== null) throw new Error("already running");
		const Plugin = loadBundle();
		const next = new Plugin(app, manifest);
		await next.onload();
		if (!next.bridge) throw new Error("the bridge did not start");
		plugin = next;
	}

	/** Unloads the plugin (Obsidian's disable) and waits until the port is closed. */
	async function stop() {
		if (plugin === null) throw new Error("not running");
		const bridge = plugin.bridge;
		plugin.onunload();
		plugin.unload();
		plugin = null;
		await bridge?.stop();
	}

	function addTool() {
		if (plugin === null) throw new Error("not running");
		plugin.bridge.registry.register({
			name: ADDED_TOOL,
			description: "Echoes its text; registered while the bridge runs.",
			inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
			run: (args) => ({ content: [{ type: "text", text: `echo: ${args.text}` }] }),
		});
	}

	let answered = 0;
	/** Presses `button` in the next approval dialog, which may open before or after this. */
	async function answerNext(button) {
		const deadline = Date.now() + 10_000;
		while (obsidian.openedModals.length <= answered) {
			if (Date.now() > deadline) throw new Error("no approval dialog opened within 10 s");
			await new Promise((done) => setTimeout(done, 10));
		}
		await obsidian.openedModals[answered++].press(button);
	}

	const commands = {
		start,
		stop,
		"add-tool": addTool,
		approve: () => answerNext("Approve"),
		deny: () => answerNext("Deny"),
	};
	const reply = (value) => process.stdout.write(`${JSON.stringify(value)}\n`);

	await start();
	reply({ port, token: TOKEN, vault });
	const lines = createInterface({ input: process.stdin });
	for await (const line of lines) {
		const command = commands[line.trim()];
		if (command === undefined) {
			reply({ ok: false, error: `unknown command ${JSON.stringify(line)}` });
			continue;
		}
		try {
			await command();
			reply({ ok: true, command: line.trim() });
		} catch (error) {
			reply({ ok: false, error: String(error?.message ?? error) });
		}
	}
	if (plugin !== null) await stop();
	rmSync(vault, { recursive: true, force: true });
	process.exit(0);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();

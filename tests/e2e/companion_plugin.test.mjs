// Issue 8: the native server against the real TC Bridge (the production main.js in its own Node
// process over the fake Obsidian App, tests/e2e/plugin_host.mjs), not a stand-in. The server's
// bridge tools take the arguments the plugin's tools take (one contract, checked tool by tool),
// and calls go through: the probe finds the plugin, list_commands and get_active_note answer,
// open_workspace has Obsidian load a saved layout, and a tool whose Obsidian plugin is absent
// answers the plugin's own plugin_missing. A destructive call is approved (or denied) in the
// plugin's own approval dialog, pressed in the plugin's process.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { direct, startPluginHost } from "./plugin_host.mjs";
import { BIN, freshVault, tempDir } from "./support.mjs";

/** The server's tools TC Bridge carries out, and the arguments only the server takes. */
const COMPANION_TOOLS = [
	"list_commands", "execute_command", "search_dql", "validate_dql", "eval_dataview_field", "tasks_filter",
	"list_templates", "execute_template", "list_quickadd_actions", "trigger_quickadd", "ocr_attachment", "ocr_bulk",
	"read_excalidraw", "create_excalidraw", "update_excalidraw", "makemd_list_spaces", "makemd_query",
	"search_omnisearch", "resolve_daily_note", "get_active_note", "open_note", "open_workspace",
	"remotely_save_status", "remotely_save_trigger", "query_datacore", "read_metadata_fields",
];
const SERVER_ONLY = new Set(["vault", "elicit_token", "idempotency_key", "source"]);

const structured = (result) => result.structuredContent ?? JSON.parse(result.content[0].text);

test("the server's bridge tools talk to the real TC Bridge", async (t) => {
	const host = await startPluginHost();
	const dir = tempDir(t, "tc-companion-e2e-");
	const config = join(dir, "config.json");
	const vault = freshVault(t);
	mkdirSync(join(vault, ".obsidian"), { recursive: true });
	writeFileSync(join(vault, ".obsidian/workspaces.json"), JSON.stringify({ workspaces: { Research: { main: {} } }, active: "" }));
	writeFileSync(config, JSON.stringify({
		vaults: [{ id: "main", path: vault, companion: { url: `http://127.0.0.1:${host.port}`, token: host.token } }],
		toolFacade: { mode: "flat" },
	}));
	const client = new Client({ name: "obsidian-tc-companion-e2e", version: "1.0.0" });
	try {
		await client.connect(new StdioClientTransport({ command: BIN, args: ["--config", config], stderr: "inherit" }));

		// One contract: each bridge tool takes the plugin tool's arguments.
		const plugin = new Map((await direct(host, "GET", "/tools")).tools.map((t) => [t.name, t.inputSchema]));
		const server = new Map((await client.listTools()).tools.map((t) => [t.name, t.inputSchema]));
		for (const name of COMPANION_TOOLS) {
			assert.ok(server.has(name), `the server lists ${name}`);
			assert.ok(plugin.has(name), `the plugin lists ${name}`);
			const theirs = Object.keys(server.get(name).properties ?? {}).filter((k) => !SERVER_ONLY.has(k)).sort();
			const ours = Object.keys(plugin.get(name).properties ?? {}).sort();
			assert.deepEqual(theirs, ours, `${name}: the server's arguments are the plugin's`);
		}

		const refreshed = await client.callTool({ name: "refresh_plugin_capabilities", arguments: {} });
		assert.notEqual(refreshed.isError, true, JSON.stringify(refreshed.content));

		const commands = await client.callTool({ name: "list_commands", arguments: {} });
		assert.notEqual(commands.isError, true, JSON.stringify(commands.content));
		assert.ok(Array.isArray(structured(commands).items), JSON.stringify(structured(commands)));

		const active = await client.callTool({ name: "get_active_note", arguments: {} });
		assert.notEqual(active.isError, true, JSON.stringify(active.content));

		const workspace = await client.callTool({ name: "open_workspace", arguments: { name: "Research" } });
		assert.notEqual(workspace.isError, true, JSON.stringify(workspace.content));
		assert.deepEqual(structured(workspace), { name: "Research", opened: true, active: "Research" });

		const dql = await client.callTool({ name: "search_dql", arguments: { query: "LIST" } });
		assert.equal(dql.isError, true, "Dataview is not installed in the fake Obsidian");
		const error = structured(dql);
		assert.equal(error.code ?? error.error?.code, "plugin_missing", JSON.stringify(error));
		assert.match(JSON.stringify(error), /dataview/);
		const dqlSearch = await client.callTool({ name: "search_vault", arguments: { query: "LIST", mode: "dql" } });
		assert.equal(dqlSearch.isError, true, "search_vault mode dql goes to the same Dataview");
		assert.match(JSON.stringify(structured(dqlSearch)), /plugin_missing[\s\S]*dataview/);
	} finally {
		await client.close();
		await host.close();
	}
});

test("a destructive call is approved, or denied, by the human in Obsidian's dialog", async (t) => {
	const host = await startPluginHost();
	const dir = tempDir(t, "tc-companion-approval-");
	const config = join(dir, "config.json");
	const vault = freshVault(t);
	writeFileSync(join(vault, "Doomed.md"), "# Doomed\n");
	writeFileSync(join(vault, "Kept.md"), "# Kept\n");
	writeFileSync(config, JSON.stringify({
		vaults: [{ id: "main", path: vault, companion: { url: `http://127.0.0.1:${host.port}`, token: host.token, confirmTimeoutMs: 10000 } }],
		toolFacade: { mode: "flat" },
	}));
	const client = new Client({ name: "obsidian-tc-approval-e2e", version: "1.0.0" });
	try {
		await client.connect(new StdioClientTransport({ command: BIN, args: ["--config", config], stderr: "inherit" }));
		await client.callTool({ name: "refresh_plugin_capabilities", arguments: {} });

		// Approved in Obsidian: the note goes to the trash, once.
		const [deleted] = await Promise.all([
			client.callTool({ name: "delete_note", arguments: { path: "Doomed.md" } }),
			host.command("approve"),
		]);
		assert.notEqual(deleted.isError, true, JSON.stringify(deleted.content));
		assert.equal(existsSync(join(vault, "Doomed.md")), false);
		assert.deepEqual(readdirSync(join(vault, ".trash")), ["Doomed.md"]);

		// Denied in Obsidian: the call stays elicit_required and nothing changes.
		const [refused] = await Promise.all([
			client.callTool({ name: "delete_note", arguments: { path: "Kept.md" } }),
			host.command("deny"),
		]);
		assert.equal(refused.isError, true);
		assert.match(JSON.stringify(structured(refused)), /elicit_required/);
		assert.equal(readFileSync(join(vault, "Kept.md"), "utf8"), "# Kept\n");
		assert.deepEqual(readdirSync(join(vault, ".trash")), ["Doomed.md"]);
	} finally {
		await client.close();
		await host.close();
	}
});

// Must-show 1 of issue 8, TypeScript SDK side: the production main.js in its own Node process
// (tests/e2e/plugin_host.mjs, fake Obsidian App over a copy of obsidian-help-en) +
// `obsidian-tc bridge --port P --token T` + the real TypeScript SDK client over stdio: tools
// listed exactly as the plugin lists them, `search` relayed unchanged, a tool added at runtime
// announced by tools/list_changed within 6 s, the plugin stopped (calls answer a retryable
// error at once) and started again on the same port (calls recover, no bridge restart).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { direct, startPluginHost, waitForIndex } from "./plugin_host.mjs";
import { BIN } from "./support.mjs";

/** Resolves once `predicate()` holds, polling every 20 ms; fails after `ms`. */
async function eventually(predicate, ms, what) {
	const deadline = Date.now() + ms;
	for (;;) {
		if (await predicate()) return;
		if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
		await new Promise((done) => setTimeout(done, 20));
	}
}

test("the TypeScript SDK drives TC Bridge through obsidian-tc bridge", async () => {
	const host = await startPluginHost();
	const client = new Client({ name: "obsidian-tc-bridge-e2e-ts", version: "1.0.0" });
	const changes = [];
	client.setNotificationHandler(ToolListChangedNotificationSchema, () => changes.push(Date.now()));
	try {
		await client.connect(
			new StdioClientTransport({
				command: BIN,
				args: ["bridge", "--port", String(host.port), "--token", host.token],
				stderr: "inherit",
			}),
		);
		assert.equal(client.getServerVersion()?.name, "obsidian-tc-bridge");
		assert.ok(client.getServerCapabilities()?.tools?.listChanged, "tools.listChanged advertised");

		// Tools exactly as the plugin lists them.
		const listed = await direct(host, "GET", "/tools");
		const { tools } = await client.listTools();
		assert.deepEqual(
			tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema })),
			listed.tools,
		);
		assert.ok(tools.some((tool) => tool.name === "search"), "search listed");

		// `search`: the content relayed unchanged.
		await waitForIndex(host);
		const args = { query: "project", limit: 5 };
		const viaBridge = await client.callTool({ name: "search", arguments: args });
		const straight = await direct(host, "POST", "/tools/search/call", { arguments: args });
		assert.notEqual(viaBridge.isError, true, JSON.stringify(viaBridge.content));
		assert.deepEqual(viaBridge.content, straight.content);
		assert.ok(JSON.parse(viaBridge.content[0].text).results.length > 0, "search found notes");

		// Bridge errors: missing argument → isError validation_error; unknown tool → -32602.
		const invalid = await client.callTool({ name: "search", arguments: {} });
		assert.equal(invalid.isError, true);
		assert.equal(invalid.structuredContent?.code, "validation_error");
		await assert.rejects(client.callTool({ name: "no_such_tool", arguments: {} }), (error) => error.code === -32602);

		// A tool added at runtime: tools/list_changed within 6 s, then listed and callable.
		const before = changes.length;
		const added = Date.now();
		await host.command("add-tool");
		await eventually(() => changes.length > before, 6000, "tools/list_changed");
		console.log(`# tools/list_changed ${changes.at(-1) - added} ms after the tool was added`);
		assert.ok((await client.listTools()).tools.some((tool) => tool.name === "added_at_runtime"));
		const echoed = await client.callTool({ name: "added_at_runtime", arguments: { text: "hi" } });
		assert.deepEqual(echoed.content, [{ type: "text", text: "echo: hi" }]);

		// Plugin stopped: a clear, retryable error at once, never a hang.
		await host.command("stop");
		for (let i = 0; i < 3; i++) {
			const t0 = Date.now();
			const down = await client.callTool({ name: "search", arguments: args });
			const ms = Date.now() - t0;
			assert.equal(down.isError, true);
			assert.equal(down.structuredContent?.code, "plugin_unreachable");
			assert.equal(down.structuredContent?.retryable, true);
			assert.match(down.structuredContent.message, new RegExp(`127\\.0\\.0\\.1:${host.port}`));
			assert.match(down.structuredContent.message, /is Obsidian running with TC Bridge enabled\?/);
			assert.ok(ms < 1000, `the error took ${ms} ms`);
		}
		assert.ok((await client.listTools()).tools.some((tool) => tool.name === "search"), "last known tools kept");

		// Started again on the same port: calls recover and the tool list is re-announced.
		const beforeRestart = changes.length;
		await host.command("start");
		await eventually(async () => {
			const r = await client.callTool({ name: "search", arguments: args });
			return r.isError !== true;
		}, 10000, "a successful call after the restart");
		await eventually(() => changes.length > beforeRestart, 6000, "tools/list_changed after the restart");
		const names = (await client.listTools()).tools.map((tool) => tool.name);
		assert.ok(names.includes("search"));
		assert.ok(!names.includes("added_at_runtime"), "the restarted plugin's own list");
	} finally {
		await client.close();
		await host.close();
	}
});

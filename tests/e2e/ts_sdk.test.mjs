// The TypeScript SDK client (@modelcontextprotocol/sdk) drives the release binary over stdio
// and Streamable HTTP through the shared scenario (tests/e2e/scenario.json).
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { BIN, SCENARIO, freshVault, runScenario, startHttpServer } from "./support.mjs";

/** Initializes, checks the server and its tools, and runs the scenario. */
async function drive(transport, vault) {
	const client = new Client({ name: "obsidian-tc-e2e-ts", version: "1.0.0" });
	await client.connect(transport);
	try {
		assert.equal(client.getServerVersion()?.name, SCENARIO.serverName);
		assert.ok(client.getServerCapabilities()?.tools, "tools capability");
		const { tools } = await client.listTools();
		const names = tools.map((tool) => tool.name);
		for (const name of SCENARIO.requiredTools) assert.ok(names.includes(name), `${name} listed`);
		const steps = await runScenario((name, args) => client.callTool({ name, arguments: args }), vault);
		assert.equal(steps, SCENARIO.steps.length);
	} finally {
		await client.close();
	}
}

test("TypeScript SDK over stdio", async (t) => {
	const vault = freshVault(t);
	await drive(new StdioClientTransport({ command: BIN, args: [vault], stderr: "inherit" }), vault);
});

test("TypeScript SDK over Streamable HTTP", async (t) => {
	const vault = freshVault(t);
	const server = await startHttpServer(vault);
	try {
		await drive(new StreamableHTTPClientTransport(new URL(server.url)), vault);
	} finally {
		assert.equal(await server.stop(), 0, "graceful shutdown on SIGTERM exits 0");
	}
});

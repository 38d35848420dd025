// Added latency of `obsidian-tc bridge` (issue 8, must-show 4, first half): p50 of a `search`
// call through the bridge (TypeScript SDK client over stdio → bridge → TC Bridge's HTTP route)
// against the same call straight to the plugin's route (`POST /bridge/v1/tools/search/call`),
// on the production main.js over the fake Obsidian App (tests/e2e/plugin_host.mjs, a copy of
// obsidian-help-en), after its index is ready. Calls alternate between the two paths so both
// see the same machine load; the figure is the median over runs of (p50 bridge − p50 direct).
//   node tests/bench/bridge_latency.mjs [--runs N] [--calls N]
// OBSIDIAN_TC_BIN picks the binary (default target/release/obsidian-tc). Run `npm run build` first.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { direct, startPluginHost, waitForIndex } from "../e2e/plugin_host.mjs";
import { BIN } from "../e2e/support.mjs";

const option = (name, fallback) => {
	const at = process.argv.indexOf(name);
	return at === -1 ? fallback : Number(process.argv[at + 1]);
};
const RUNS = option("--runs", 5);
const CALLS = option("--calls", 200);
const WARMUP = 20;
const ARGS = { query: "canvas", limit: 5 };

const median = (values) => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

async function timed(work) {
	const t0 = performance.now();
	await work();
	return performance.now() - t0;
}

/** One run: a fresh bridge process; resolves to {bridge, direct} p50 in ms. */
async function run(host) {
	const client = new Client({ name: "bridge-latency", version: "1.0.0" });
	await client.connect(
		new StdioClientTransport({ command: BIN, args: ["bridge", "--port", String(host.port), "--token", host.token], stderr: "inherit" }),
	);
	try {
		const viaBridge = async () => {
			const r = await client.callTool({ name: "search", arguments: ARGS });
			if (r.isError) throw new Error(`search through the bridge failed: ${JSON.stringify(r.content)}`);
		};
		const straight = () => direct(host, "POST", "/tools/search/call", { arguments: ARGS });
		for (let i = 0; i < WARMUP; i++) {
			await viaBridge();
			await straight();
		}
		const samples = { bridge: [], direct: [] };
		for (let i = 0; i < CALLS; i++) {
			samples.bridge.push(await timed(viaBridge));
			samples.direct.push(await timed(straight));
		}
		return { bridge: median(samples.bridge), direct: median(samples.direct) };
	} finally {
		await client.close();
	}
}

const host = await startPluginHost();
try {
	await waitForIndex(host);
	const runs = [];
	for (let i = 0; i < RUNS; i++) runs.push(await run(host));
	const f = (ms) => `${ms.toFixed(3)} ms`;
	const added = median(runs.map((r) => r.bridge - r.direct));
	console.log(`search "${ARGS.query}" limit ${ARGS.limit}, ${RUNS} runs x ${CALLS} calls (medians over runs)`);
	console.log(`  through obsidian-tc bridge (TS SDK, stdio): p50 ${f(median(runs.map((r) => r.bridge)))}`);
	console.log(`  straight to the plugin's HTTP route:       p50 ${f(median(runs.map((r) => r.direct)))}`);
	console.log(`  added by the bridge:                         ${f(added)}`);
} finally {
	await host.close();
}

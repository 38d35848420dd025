// TC Bridge search figures (issue 7, must-show 4; issue 18, the warm start), and the plugin
// harness the search parity test shares: the production main.js loaded as Obsidian loads it, with
// the obsidian stub, over the fake App on a real vault folder.
//   node tests/bench/plugin_search.mjs [--runs N]
// (a) time from onload to serving (bridge health answering) and until the search index is ready,
//     on obsidian-help-en; (b) onload to search ready on a temporary copy of obsidian-help-all,
//     first start (no saved index: every note read) and second start (from the index the first
//     saved on unload); (c) WASM search latency p50/p95 over the 58 golden queries on
//     obsidian-help-all, with every folder readable and with folder access to `en/` only (the
//     view of the readable notes kept between searches). Medians over N runs (default 5). Run
//     `npm run build` first.
import { cpSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { fakeApp } from "../plugin/fakes/app.mjs";
import { loadBundle, manifest, removeFolder, request, tempFolder } from "../plugin/harness/plugin.mjs";

const root = new URL("../../", import.meta.url);
export const SHARED = fileURLToPath(new URL("../shared/", root));
export const GOLDEN = JSON.parse(readFileSync(`${SHARED}data/obsidian-help-golden/golden-set.json`, "utf8"));
const TOKEN = "bench-token-0123456789abcdef";

/** One bridge API request to the plugin on `port`; resolves to `{status, json}`. */
const bridgeRequest = (port, method, path, body) => request(port, { method, path, body, token: TOKEN });

/**
 * Loads the plugin over `vaultDir` with the bridge on a free port; resolves to
 * `{plugin, app, port, search(args), coverage(), ready, servingMs, readyMs, unload()}`.
 * `servingMs`: onload start to the first health answer; `ready` resolves (with `readyMs`) when the
 * `search` tool's coverage says the first pass over the vault has ended.
 */
export async function startPlugin(vaultDir, settings = {}) {
	const Plugin = loadBundle();
	const app = fakeApp({ vaultDir, data: { port: 0, token: TOKEN, ...settings } });
	const plugin = new Plugin(app, manifest);
	const t0 = performance.now();
	await plugin.onload();
	if (!plugin.bridge) throw new Error("the bridge did not start");
	const port = plugin.bridge.port;
	const health = await bridgeRequest(port, "GET", "/bridge/v1/health");
	if (health.status !== 200) throw new Error(`health answered ${health.status}`);
	const servingMs = performance.now() - t0;
	const search = async (args) => {
		const r = await bridgeRequest(port, "POST", "/bridge/v1/tools/search/call", JSON.stringify({ arguments: args }));
		if (r.status !== 200 || !r.json.success || r.json.isError) throw new Error(`search failed: ${JSON.stringify(r.json)}`);
		return JSON.parse(r.json.content[0].text);
	};
	const started = { plugin, app, port, search, servingMs };
	started.ready = (async () => {
		for (;;) {
			const { coverage } = await search({ query: "note", limit: 1 });
			if (!coverage.scanning) {
				started.readyMs = performance.now() - t0;
				return coverage;
			}
			await new Promise((done) => setTimeout(done, 5));
		}
	})();
	started.unload = async () => {
		plugin.onunload();
		plugin.unload();
		await plugin.searchIndex.flushed();
		await new Promise((done) => setTimeout(done, 10));
	};
	return started;
}

/** A temporary copy of the shared vault `name` (removed at the latest as the bench exits, failing or not). */
function tempCopy(name) {
	const copy = tempFolder(`tc-bench-${name}-`);
	cpSync(`${SHARED}vaults/${name}`, copy, { recursive: true });
	return copy;
}

/** Where the plugin saves its index in `vault`. */
const savedIndex = (vault) => join(vault, ".obsidian/plugins/tc-bridge/search-index.bin");

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const quantile = (xs, q) => {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)];
};

async function main() {
	const runsArg = process.argv.indexOf("--runs");
	const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 5;
	const queries = GOLDEN.map((q) => q.query);

	const serving = [];
	const ready = [];
	// The plugin saves its index into the vault's plugin folder: temporary copies, not the shared
	// vaults.
	const en = tempCopy("obsidian-help-en");
	for (let i = 0; i < runs; i++) {
		rmSync(savedIndex(en), { force: true });
		const p = await startPlugin(en);
		await p.ready;
		serving.push(p.servingMs);
		ready.push(p.readyMs);
		await p.unload();
	}
	removeFolder(en);
	console.log(`obsidian-help-en (${runs} runs, medians, first start): onload to serving ${median(serving).toFixed(1)} ms; onload to search index ready ${median(ready).toFixed(1)} ms`);

	const copy = tempCopy("obsidian-help-all");
	const snapshot = savedIndex(copy);
	const first = [];
	const second = [];
	let notes = 0;
	let bytes = 0;
	for (let i = 0; i < runs; i++) {
		rmSync(snapshot, { force: true });
		const cold = await startPlugin(copy);
		notes = (await cold.ready).notes;
		await cold.unload();
		first.push(cold.readyMs);
		bytes = statSync(snapshot).size;
		const warm = await startPlugin(copy);
		await warm.ready;
		const started = warm.plugin.searchIndex.started;
		if (started.source !== "snapshot" || started.read !== 0) throw new Error(`the second start did not start warm: ${JSON.stringify(started)}`);
		await warm.unload();
		second.push(warm.readyMs);
	}
	console.log(`obsidian-help-all (${notes} notes, ${runs} runs, medians): onload to search ready, first start ${median(first).toFixed(0)} ms (every note read), second start ${median(second).toFixed(0)} ms (from the saved index, ${(bytes / 1e6).toFixed(1)} MB)`);

	for (const [label, settings] of [
		["", {}],
		[", folder access en/ only", { folderAccess: [{ folder: "en", preset: "r" }], unlistedAccess: "none" }],
	]) {
		const p = await startPlugin(copy, settings);
		await p.ready;
		// The tool's own work in process (WASM search, ACL check of each candidate, JSON), no HTTP.
		const tool = p.plugin.bridge.registry.get("search");
		const p50s = [];
		const p95s = [];
		const httpP50s = [];
		for (let run = 0; run < runs; run++) {
			const wasm = [];
			const viaHttp = [];
			for (const q of queries) {
				let t = performance.now();
				await tool.run({ query: q, limit: 10 });
				wasm.push(performance.now() - t);
				t = performance.now();
				await p.search({ query: q, limit: 10 });
				viaHttp.push(performance.now() - t);
			}
			p50s.push(quantile(wasm, 0.5));
			p95s.push(quantile(wasm, 0.95));
			httpP50s.push(quantile(viaHttp, 0.5));
		}
		console.log(`obsidian-help-all WASM search${label}, search tool in process (top 10, ${queries.length} golden queries, ${runs} runs, medians): p50 ${median(p50s).toFixed(3)} ms, p95 ${median(p95s).toFixed(3)} ms`);
		console.log(`obsidian-help-all search tool${label} over the bridge HTTP API: p50 ${median(httpP50s).toFixed(3)} ms`);
		await p.unload();
	}
	removeFolder(copy);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
	await main();
}

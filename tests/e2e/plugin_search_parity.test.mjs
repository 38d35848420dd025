// Must-show 3 of issue 7: the plugin's `search` (production main.js over the fake App, called
// through the bridge HTTP API) and the server's `search_vault` in mode lexical (the release
// binary, driven by the TypeScript SDK over stdio) give the same ranked paths and bit-identical
// f32 scores for the 58 golden queries on a fresh copy of obsidian-help-en, and (issue 22: typo
// tolerance, the title boost, notes with only frontmatter) for the kepano queries of our tuning
// set and misspelt ones on a copy of kepano.
import { test } from "node:test";
import assert from "node:assert/strict";
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { BIN, tempDir } from "./support.mjs";
import { GOLDEN, SHARED, startPlugin } from "../bench/plugin_search.mjs";

const LIMIT = 20;
const TUNING = JSON.parse(readFileSync(new URL("../../bench/tuning/vault-queries.json", import.meta.url), "utf8"));
const KEPANO = [
	...TUNING.filter((q) => q.vault === "kepano").map(({ id, query }) => ({ id, query })),
	...["zelda breth", "evergren notes", "minimal theem", "kyoto coordinates", "BOTW", "recipies"].map((query, i) => ({ id: `typo-${i}`, query })),
];

/** Calls `search_vault` lexical; resolves to its structured result. */
async function serverSearch(client, query) {
	const r = await client.callTool({ name: "search_vault", arguments: { query, mode: "lexical", limit: LIMIT } });
	assert.ok(!r.isError, `search_vault failed: ${JSON.stringify(r.content)}`);
	return r.structuredContent;
}

/**
 * Both sides on a fresh copy of `name` (a vault under shared/vaults) answer `queries` alike; the
 * copy is removed when the test `t` ends.
 */
async function parity(t, name, queries) {
	const vault = tempDir(t, "tc-search-parity-");
	cpSync(join(SHARED, "vaults", name), vault, { recursive: true });
	// Files as Windows editors write them: every 5th note with CRLF line breaks, every 7th with a
	// byte order mark. Both sides must read them as the LF originals.
	const notes = readdirSync(vault, { recursive: true }).filter((p) => p.endsWith(".md")).sort();
	notes.forEach((rel, i) => {
		const text = readFileSync(join(vault, rel), "utf8");
		const crlf = i % 5 === 0 ? text.replace(/\n/g, "\r\n") : text;
		writeFileSync(join(vault, rel), i % 7 === 0 ? `\ufeff${crlf}` : crlf);
	});
	const client = new Client({ name: "tc-search-parity", version: "1.0.0" });
	const plugin = await startPlugin(vault);
	try {
		await client.connect(new StdioClientTransport({ command: BIN, args: [vault], stderr: "inherit" }));
		// Both sides answer while they index; compare only once both have indexed everything.
		while ((await serverSearch(client, "note")).coverage.scanning) await new Promise((done) => setTimeout(done, 20));
		const coverage = await plugin.ready;
		const server = await serverSearch(client, "note");
		assert.equal(coverage.chunks, server.coverage.chunks, "same number of chunks indexed");

		let results = 0;
		let ties = 0;
		for (const { id, query } of queries) {
			const [mine, theirs] = [await plugin.search({ query, limit: LIMIT }), await serverSearch(client, query)];
			assert.deepEqual(
				mine.results.map((r) => r.path),
				theirs.results.map((r) => r.path),
				`${id} "${query}": ranked paths`,
			);
			mine.results.forEach((r, i) => {
				const other = theirs.results[i];
				// The server's score is the f32 widened to f64; the plugin's is the same f32 as a JS
				// number: equal as doubles, and equal once rounded to f32 (Math.fround is exact here).
				assert.equal(r.score, other.score, `${id} #${i + 1} ${r.path}: score`);
				assert.equal(Math.fround(r.score), r.score, `${id} #${i + 1}: the plugin's score is an f32`);
				assert.equal(Math.fround(other.score), r.score, `${id} #${i + 1}: f32 note score`);
				assert.equal(r.heading, other.heading, `${id} #${i + 1} ${r.path}: best chunk's heading`);
				if (i > 0 && mine.results[i - 1].score === r.score) ties++;
			});
			results += mine.results.length;
		}
		console.log(`# plugin search vs server lexical on ${name}: ${queries.length} queries, ${results} results compared (top ${LIMIT}), ${ties} equal-score neighbours, ${coverage.chunks} chunks`);
		return results;
	} finally {
		await client.close();
		await plugin.unload();
	}
}

test("plugin search and server lexical search agree on every golden query", { skip: !existsSync(join(SHARED, "vaults/obsidian-help-en")) && "obsidian-help-en is not present" }, async (t) => {
	assert.equal(GOLDEN.length, 58);
	assert.ok((await parity(t, "obsidian-help-en", GOLDEN)) >= GOLDEN.length * 10, "enough results to mean something");
});

test("they agree on kepano (notes with only frontmatter, aliases) with misspelt queries too", { skip: !existsSync(join(SHARED, "vaults/kepano")) && "kepano is not present" }, async (t) => {
	assert.ok(KEPANO.length >= 20);
	assert.ok((await parity(t, "kepano", KEPANO)) >= KEPANO.length * 3, "enough results to mean something");
});

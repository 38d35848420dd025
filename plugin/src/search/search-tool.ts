// The `search` bridge tool: the native server's `search_vault` in mode lexical, run in Obsidian
// over the WebAssembly index (same ranking, same f32 scores). Only notes the folder access
// settings let agents read are ranked; while the first pass over the vault runs, it answers
// from what is indexed and says so (`coverage.scanning`), as the server does during a scan.
import type { BridgeTool } from "../bridge/registry";
import type { AccessGate } from "../acl/gate";
import { toolError, toolOk } from "../tools/result";
import type { VaultIndex } from "./vault-index";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 100;
const MAX_QUERY = 2000;

/** Parsed arguments, or why they are wrong. */
type SearchArgs = { query: string; limit: number; folder: string | null } | { error: string };

function readArgs(args: Record<string, unknown>): SearchArgs {
	const { query, limit = DEFAULT_LIMIT, folder } = args;
	if (typeof query !== "string" || query.trim() === "" || query.length > MAX_QUERY) {
		return { error: `'query' must be a non-empty string of at most ${MAX_QUERY} characters` };
	}
	if (typeof limit !== "number" || !Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
		return { error: `'limit' must be an integer from 1 to ${MAX_LIMIT}` };
	}
	if (folder !== undefined && (typeof folder !== "string" || folder.trim() === "")) {
		return { error: "'folder' must be a vault-relative folder path, e.g. \"Projects/2024\"" };
	}
	return { query, limit, folder: folder === undefined ? null : `${folder.replace(/^\/+|\/+$/g, "")}/` };
}

/** The `search` tool over `index`; `gate()` gives the access gate of the current settings. */
export function searchTool(index: VaultIndex, gate: () => AccessGate): BridgeTool {
	return {
		name: "search",
		description:
			"Find the notes that best match a query (BM25 over titles, aliases, headings, tags and text, computed in Obsidian), best first, each with its best passage's heading and score. Same ranking and scores as the server's search_vault in mode lexical. folder narrows it.",
		inputSchema: {
			type: "object",
			properties: {
				query: { type: "string", minLength: 1, maxLength: MAX_QUERY, description: "Words to look for." },
				limit: { type: "integer", minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT, description: "The most notes to return." },
				folder: { type: "string", minLength: 1, description: "Only notes under this folder (vault-relative)." },
			},
			required: ["query"],
			additionalProperties: false,
		},
		run(args) {
			const parsed = readArgs(args);
			if ("error" in parsed) return toolError("invalid_input", parsed.error, { arguments: Object.keys(args) });
			let access: AccessGate;
			try {
				access = gate();
			} catch (err) {
				return toolError("invalid_input", `The folder access settings are invalid (${String(err)}); fix them in the TC Bridge settings.`);
			}
			const { folder } = parsed;
			// Null when the folder access reads every folder: the whole index's statistics, with
			// no folder-access decision per note on each search.
			const readable = access.readsEverything() ? null : (path: string) => access.mayRead(path);
			const allowed = (path: string) => (folder === null || path.startsWith(folder)) && (readable === null || readable(path));
			const results = index.search(parsed.query, parsed.limit, readable, allowed, access.viewKey).map((hit) => ({
				path: hit.path,
				heading: hit.headings.join(" > "),
				score: hit.score,
				scores: { lexical: hit.score },
			}));
			// Counts of what the caller may read only, like the server's.
			const coverage = index.coverage();
			const seen = index.readableCoverage(readable, access.viewKey);
			return toolOk({
				mode: "lexical",
				results,
				coverage: { chunks: seen.chunks, notes: seen.notes, scanning: coverage.state !== "ready" },
			});
		},
	};
}

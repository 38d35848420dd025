// Omnisearch: its ranked full-text search (`api.search`), without the notes the caller may not read.
import type { BridgeTool } from "../bridge/registry";
import { mayRead } from "./access";
import { COMPANIONS, companionPlugin } from "./companions";
import type { ToolContext } from "./context";
import { companionCall, defineTool, integerArg, stringArg } from "./define";
import { pluginMissing, toolOk } from "./result";

const OMNISEARCH = COMPANIONS.omnisearch;

/** Omnisearch's `ResultNoteApi` (src/tools/api.ts). */
interface ResultNoteApi {
	score: number;
	vault: string;
	path: string;
	basename: string;
	foundWords: string[];
	matches: { match: string; offset: number }[];
	excerpt: string;
}

interface OmnisearchApi {
	search(query: string): Promise<ResultNoteApi[]>;
}

/** `search_omnisearch`. */
export function omnisearchTools(ctx: ToolContext): BridgeTool[] {
	return [
		defineTool({
			name: "search_omnisearch",
			description: "Ranked full-text search with the Omnisearch plugin (its index includes PDFs and images when Text Extractor is on).",
			inputSchema: {
				type: "object",
				properties: {
					query: { type: "string" },
					limit: { type: "integer", minimum: 1, maximum: 200, default: 20 },
				},
				required: ["query"],
			},
			run: async (args) => {
				const api = (companionPlugin(ctx.app, OMNISEARCH) as { api?: OmnisearchApi } | null)?.api;
				if (api === undefined) return pluginMissing(OMNISEARCH.id, OMNISEARCH.name);
				const query = stringArg(args, "query");
				const limit = integerArg(args, "limit", 20, 1, 200);
				const results = await companionCall(OMNISEARCH.name, () => api.search(query));
				const items = results
					.filter((r) => mayRead(ctx, r.path))
					.slice(0, limit)
					.map((r) => ({ path: r.path, basename: r.basename, score: r.score, found_words: r.foundWords, excerpt: r.excerpt }));
				return toolOk({ items });
			},
		}),
	];
}

// What the "Search vault" modal shows: the native server's hybrid ranking (its lexical ranking,
// the same engine and scores as this plugin's, fused with semantic similarity) when the sidecar
// runs and answers in hybrid mode, and otherwise this plugin's own lexical index, unchanged.
// Each suggestion says which of the two it came from; the lexical answer says why the hybrid
// one was not used.
import type { NativeServer } from "../sidecar/native-server";
import type { VaultIndex } from "./vault-index";

/** How long the modal waits for the native server before it shows the lexical ranking. */
const HYBRID_TIMEOUT_MS = 1_500;

/** One note the modal suggests. */
export interface Suggestion {
	path: string;
	/** The heading breadcrumb of its best passage ("" before the first heading). */
	heading: string;
	source: "hybrid" | "lexical";
}

/** The suggestions for a query and, for lexical ones, why no hybrid ranking was used. */
export interface SearchAnswer {
	source: "hybrid" | "lexical";
	suggestions: Suggestion[];
	why: string | null;
}

/** One result of the server's `search_vault`, as far as the modal reads it. */
interface FoundNote {
	path?: unknown;
	heading?: unknown;
}

/** The hybrid ranking from `server`, or why there is none. */
async function hybrid(server: NativeServer | null, query: string, limit: number): Promise<Suggestion[] | string> {
	if (server === null) return "no native server is set up";
	if (!server.running()) return "the native server is not running";
	try {
		const answer = await server.callTool("search_vault", { query, limit }, HYBRID_TIMEOUT_MS);
		const value = (answer.value ?? {}) as { mode?: unknown; results?: FoundNote[] };
		if (answer.isError) return `the native server's search failed: ${JSON.stringify(answer.value)}`;
		if (value.mode !== "hybrid") return "the native server's semantic search is not ready";
		return (value.results ?? []).flatMap((found) =>
			typeof found.path === "string"
				? [{ path: found.path, heading: typeof found.heading === "string" ? found.heading : "", source: "hybrid" as const }]
				: [],
		);
	} catch (err) {
		return err instanceof Error ? err.message : String(err);
	}
}

/** The best `limit` notes for `query`: hybrid from `server` when it can, else lexical from `index`. */
export async function searchVault(index: VaultIndex, server: NativeServer | null, query: string, limit: number): Promise<SearchAnswer> {
	const fused = await hybrid(server, query, limit);
	if (typeof fused !== "string") return { source: "hybrid", suggestions: fused, why: null };
	const suggestions = index.search(query, limit, () => true).map((hit) => ({
		path: hit.path,
		heading: hit.headings.join(" > "),
		source: "lexical" as const,
	}));
	return { source: "lexical", suggestions, why: fused };
}

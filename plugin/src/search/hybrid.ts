// What the "Search vault" modal shows: the native server's hybrid ranking (its lexical ranking,
// the same engine and scores as this plugin's, fused with semantic similarity) when the sidecar
// runs and answers in hybrid mode, and otherwise (no server, not running, too slow, failing, or
// semantic search not ready) this plugin's own lexical index, unchanged. Each suggestion says
// which of the two it came from.
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

/** One result of the server's `search_vault`, as far as the modal reads it. */
interface FoundNote {
	path?: unknown;
	heading?: unknown;
}

/** The hybrid ranking from `server`; null when there is none to show. */
async function hybrid(server: NativeServer | null, query: string, limit: number): Promise<Suggestion[] | null> {
	if (server === null || !server.running()) return null;
	try {
		const answer = await server.callTool("search_vault", { query, limit }, HYBRID_TIMEOUT_MS);
		const value = (answer.value ?? {}) as { mode?: unknown; results?: FoundNote[] };
		if (answer.isError || value.mode !== "hybrid") return null;
		return (value.results ?? []).flatMap((found) =>
			typeof found.path === "string"
				? [{ path: found.path, heading: typeof found.heading === "string" ? found.heading : "", source: "hybrid" as const }]
				: [],
		);
	} catch {
		// Unreachable, refused, too slow: the plugin's own ranking answers.
		return null;
	}
}

/** The best `limit` notes for `query`: hybrid from `server` when it can, else lexical from `index`. */
export async function searchVault(index: VaultIndex, server: NativeServer | null, query: string, limit: number): Promise<Suggestion[]> {
	const fused = await hybrid(server, query, limit);
	if (fused !== null) return fused;
	return index.search(query, limit, null, () => true).map((hit) => ({
		path: hit.path,
		heading: hit.headings.join(" > "),
		source: "lexical" as const,
	}));
}

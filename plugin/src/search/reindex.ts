// "Reindex now": the native server scans the vault again (`index_vault`: changed notes indexed
// and embedded, deleted ones pruned) when it runs; otherwise the plugin rebuilds its own index
// from every note. A notice says what happened.
import { Notice } from "obsidian";
import type { NativeServer } from "../sidecar/native-server";
import type { VaultIndex } from "./vault-index";

/** How long a scan with embedding may take before the notice gives up waiting. */
const SCAN_TIMEOUT_MS = 30 * 60_000;

/** What a reindex did, in words (also shown as a notice). */
export async function reindexNow(index: VaultIndex, server: NativeServer | null): Promise<string> {
	const done = (text: string) => {
		new Notice(text);
		return text;
	};
	if (server !== null && server.running()) {
		new Notice("Reindexing the vault in the native server…");
		try {
			const answer = await server.callTool("index_vault", {}, SCAN_TIMEOUT_MS);
			const r = (answer.value ?? {}) as Record<string, unknown>;
			if (answer.isError) return done(`The native server could not reindex: ${JSON.stringify(answer.value)}`);
			const n = (key: string) => (typeof r[key] === "number" ? r[key] : 0);
			return done(
				`Native server reindexed ${n("scanned")} notes: ${n("added")} added, ${n("updated")} updated, ${n("removed")} removed, ${n("failed")} failed.`,
			);
		} catch (err) {
			return done(`The native server could not reindex: ${err instanceof Error ? err.message : String(err)}`);
		}
	}
	new Notice("Rebuilding the search index from every note…");
	await index.rebuild();
	const { notes, chunks } = index.coverage();
	return done(`Search index rebuilt: ${notes} notes, ${chunks} chunks.`);
}

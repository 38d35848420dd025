// "Reindex now": the native server scans the vault again (`index_vault`: changed notes indexed
// and embedded, deleted ones pruned) when it runs; otherwise the plugin rebuilds its own index
// from every note. A notice says what happened. A scan the server is already running that
// outlasts the server's own 3 s wait (its start-up scan of a large vault, another process's)
// answers `index_busy`: the reindex waits for it and asks again.
import { Notice } from "obsidian";
import type { ToolAnswer } from "../sidecar/mcp-client";
import type { NativeServer } from "../sidecar/native-server";
import type { VaultIndex } from "./vault-index";

/** How long a scan with embedding may take before the notice gives up waiting. */
const SCAN_TIMEOUT_MS = 30 * 60_000;

/** How long to wait before asking again while another scan holds the server's index. */
const BUSY_RETRY_MS = 500;

/** Whether the server refused because a scan of the vault is already running. */
const indexBusy = (answer: ToolAnswer) =>
	answer.isError && (answer.value as { code?: unknown } | null)?.code === "index_busy";

/** `index_vault`, asked again every {@link BUSY_RETRY_MS} while another scan runs, until `timeoutMs`. */
async function scanWhenIdle(server: NativeServer, timeoutMs: number): Promise<ToolAnswer> {
	const deadline = Date.now() + timeoutMs;
	let waiting = false;
	for (;;) {
		const answer = await server.callTool("index_vault", {}, deadline - Date.now());
		if (!indexBusy(answer) || Date.now() + BUSY_RETRY_MS >= deadline) return answer;
		if (!waiting) new Notice("The native server is already scanning the vault; reindexing once it is done…");
		waiting = true;
		await new Promise((resolve) => window.setTimeout(resolve, BUSY_RETRY_MS));
	}
}

/** What a reindex did, in words (also shown as a notice). */
export async function reindexNow(index: VaultIndex, server: NativeServer | null): Promise<string> {
	const done = (text: string) => {
		new Notice(text);
		return text;
	};
	if (server !== null && server.running()) {
		new Notice("Reindexing the vault in the native server…");
		try {
			const answer = await scanWhenIdle(server, SCAN_TIMEOUT_MS);
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

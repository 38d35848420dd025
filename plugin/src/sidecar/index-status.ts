// What the native server's `get_index_status` says, in words for the settings tab: how far its
// index is, and where semantic search is (off, downloading the model, loading it, embedding the
// chunks, ready, or unavailable and why), with progress and time left.

/** The `embeddings` part of `get_index_status`. */
export interface EmbeddingStatus {
	provider?: string;
	model?: string | null;
	state?: "off" | "downloading" | "loading" | "embedding" | "ready" | "unavailable";
	reason?: string | null;
	download?: { bytes: number; total: number | null } | null;
	embedded?: number;
	total?: number;
	etaSeconds?: number | null;
}

/** `get_index_status`'s result, as far as the tab shows it. */
export interface IndexStatus {
	scanning?: boolean;
	done?: number;
	total?: number;
	chunks?: number;
	embeddings?: EmbeddingStatus | null;
}

const count = (n: number) => n.toLocaleString("en-US");

const megabytes = (bytes: number) => `${(bytes / 1_000_000).toFixed(1)} MB`;

const percent = (part: number, whole: number) => `${Math.floor((100 * part) / Math.max(whole, 1))}%`;

/** "about 3 min left" for an ETA in seconds; empty when unknown. */
function timeLeft(seconds: number | null | undefined): string {
	if (typeof seconds !== "number" || !Number.isFinite(seconds) || seconds < 0) return "";
	if (seconds < 60) return `, about ${Math.ceil(seconds)} s left`;
	if (seconds < 3600) return `, about ${Math.round(seconds / 60)} min left`;
	return `, about ${(seconds / 3600).toFixed(1)} h left`;
}

/** The server's lexical index in words. */
export function describeIndex(status: IndexStatus): string {
	if (status.scanning === true) {
		return `Indexing notes: ${count(status.done ?? 0)} of ${count(status.total ?? 0)}.`;
	}
	return `Index ready: ${count(status.chunks ?? 0)} chunks searchable.`;
}

/** The server's semantic search in words. */
export function describeEmbeddings(status: IndexStatus): string {
	const e = status.embeddings;
	if (e === undefined || e === null) return "This native server does not report embedding progress.";
	const model = typeof e.model === "string" && e.model.length > 0 ? e.model : "the model";
	const why = typeof e.reason === "string" && e.reason.length > 0 ? `: ${e.reason}` : "";
	switch (e.state) {
		case "off":
			return `Semantic search is off${why}. Search is lexical.`;
		case "downloading": {
			const got = e.download?.bytes ?? 0;
			const total = e.download?.total ?? null;
			const progress = total === null ? megabytes(got) : `${percent(got, total)} (${megabytes(got)} of ${megabytes(total)})`;
			return `Downloading ${model}: ${progress}${timeLeft(e.etaSeconds)}. Search is lexical until it is ready.`;
		}
		case "loading":
			return `Loading ${model}. Search is lexical until it is ready.`;
		case "embedding": {
			const done = e.embedded ?? 0;
			const total = e.total ?? 0;
			return `Embedding chunks with ${model}: ${count(done)} of ${count(total)} (${percent(done, total)})${timeLeft(e.etaSeconds)}.`;
		}
		case "ready":
			return `Semantic search ready: ${model}, ${count(e.embedded ?? 0)} chunks embedded.`;
		case "unavailable":
			return `Semantic search is unavailable${why}. Search is lexical.`;
		default:
			return `Semantic search state: ${String(e.state)}.`;
	}
}

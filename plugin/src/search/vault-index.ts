// The vault's lexical index, in WebAssembly: every note read with `cachedRead` and indexed by the
// engine exactly as the native server indexes it (same chunks, fields, ids and scoring), built
// after the layout is ready without holding up the plugin's load, then kept in step with the
// vault's create, modify, delete and rename events.
import { type App, type EventRef, parseYaml, TAbstractFile, TFile } from "obsidian";
import type { Engine, NoteChunk, NoteIndex } from "../engine/engine";

/** The longest the first build works before it lets other work run. */
const BUILD_SLICE_MS = 10;

/** One note found by a search: its best chunk. */
export interface NoteHit {
	path: string;
	/** BM25F score of the best chunk (an `f32`, exactly as the engine computed it). */
	score: number;
	/** Heading breadcrumb of the best chunk, outermost first. */
	headings: string[];
}

/** Where the index is: `building` until the first full pass over the vault ends. */
export type IndexState = "idle" | "building" | "ready";

/** How much of the vault a search covered. */
export interface IndexCoverage {
	state: IndexState;
	/** Notes indexed. */
	notes: number;
	/** Chunks indexed. */
	chunks: number;
	/** Markdown files in the vault when the build started. */
	total: number;
}

/** Whether `file` is a note the index covers (the server's rule: the path ends in `.md`). */
function isNote(file: TAbstractFile): file is TFile {
	return file instanceof TFile && /\.md$/i.test(file.path);
}

/** Frontmatter YAML to properties with Obsidian's own parser (JSON-safe: dates become text). */
function parseProperties(yaml: string): unknown {
	return JSON.parse(JSON.stringify(parseYaml(yaml) ?? null)) as unknown;
}

export class VaultIndex {
	private readonly index: NoteIndex;
	/** Chunks of each indexed note, in order. */
	private readonly notes = new Map<string, NoteChunk[]>();
	/** Per path, the number of the latest read started; an older read that ends later is dropped. */
	private readonly reads = new Map<string, number>();
	private readonly refs: EventRef[] = [];
	private state: IndexState = "idle";
	/** Set by `close`: the WebAssembly index is freed, and nothing may touch it again. */
	private closed = false;
	private total = 0;
	private chunkCount = 0;
	private readyResolvers: Array<() => void> = [];

	constructor(
		private readonly app: App,
		engine: Engine,
	) {
		this.index = engine.noteIndex();
	}

	/** Listens to vault events, then indexes every note; resolves when the first pass ends. */
	async build(): Promise<void> {
		const vault = this.app.vault;
		this.refs.push(
			vault.on("create", (file) => this.onChanged(file)),
			vault.on("modify", (file) => this.onChanged(file)),
			vault.on("delete", (file) => this.forget(file.path)),
			vault.on("rename", (file, oldPath) => {
				this.forget(oldPath);
				this.onChanged(file);
			}),
		);
		this.state = "building";
		const files = vault.getMarkdownFiles().filter(isNote);
		this.total = files.length;
		let slice = performance.now();
		for (const file of files) {
			await this.refresh(file);
			if (this.closed) return;
			// Reads from Obsidian's cache resolve at once: hand the event loop back now and then,
			// so the app and the bridge stay responsive while the index is built.
			if (performance.now() - slice > BUILD_SLICE_MS) {
				await new Promise((resolve) => window.setTimeout(resolve, 0));
				if (this.closed) return;
				slice = performance.now();
			}
		}
		this.state = "ready";
		for (const resolve of this.readyResolvers.splice(0)) resolve();
	}

	/** Resolves once the first pass over the vault has ended. */
	whenReady(): Promise<void> {
		if (this.state === "ready") return Promise.resolve();
		return new Promise((resolve) => this.readyResolvers.push(resolve));
	}

	/**
	 * Stops listening to the vault, stops a build under way and frees the WebAssembly index;
	 * searches then find nothing. Idempotent.
	 */
	close(): void {
		if (this.closed) return;
		this.closed = true;
		for (const ref of this.refs.splice(0)) this.app.vault.offref(ref);
		this.index.free();
		for (const resolve of this.readyResolvers.splice(0)) resolve();
	}

	coverage(): IndexCoverage {
		return { state: this.state, notes: this.notes.size, chunks: this.chunkCount, total: this.total };
	}

	/** The first `limit` notes `allowed` admits for `query`, best first, each by its best chunk. */
	search(query: string, limit: number, allowed: (path: string) => boolean): NoteHit[] {
		if (this.closed) return [];
		return this.index.searchNotes(query, limit, allowed).map((hit) => ({
			path: hit.path,
			score: hit.score,
			headings: this.notes.get(hit.path)?.find((chunk) => chunk.key === hit.key)?.headings ?? [],
		}));
	}

	private onChanged(file: TAbstractFile): void {
		if (isNote(file)) void this.refresh(file);
	}

	/** Reads `file` and puts its current chunks in place of the old ones. */
	private async refresh(file: TFile): Promise<void> {
		const path = file.path;
		const read = (this.reads.get(path) ?? 0) + 1;
		this.reads.set(path, read);
		let text: string;
		try {
			text = await this.app.vault.cachedRead(file);
		} catch (err) {
			console.error(`TC Bridge: could not read ${path} for search`, err);
			return;
		}
		if (this.closed || this.reads.get(path) !== read) return;
		this.drop(path);
		const chunks = this.index.upsertNote(path, text, parseProperties);
		this.notes.set(path, chunks);
		this.chunkCount += chunks.length;
	}

	/** Removes the note at `path` (deleted, or renamed away), cancelling any read under way. */
	private forget(path: string): void {
		if (this.closed) return;
		this.reads.set(path, (this.reads.get(path) ?? 0) + 1);
		this.drop(path);
	}

	private drop(path: string): void {
		const chunks = this.notes.get(path);
		if (chunks === undefined) return;
		for (const chunk of chunks) this.index.remove(chunk.key);
		this.notes.delete(path);
		this.chunkCount -= chunks.length;
	}
}

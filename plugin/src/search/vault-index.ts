// The vault's lexical index, in WebAssembly: every note read with `cachedRead` and indexed by the
// engine exactly as the native server indexes it (same chunks, fields, ids and scoring), built
// after the layout is ready without holding up the plugin's load, then kept in step with the
// vault's create, modify, delete and rename events.
//
// It starts warm: the index is saved (engine-core's checksummed snapshot, with each note's
// modification time and size) and read back on the next start, and only the notes whose stamp
// changed are read again; notes gone since are dropped and new ones added. A snapshot that is
// missing, corrupt or from another build is not used: the index is built from the notes. Saves
// wait until the vault has been quiet for a while, and the last one runs on unload.
import { type App, type Debouncer, type EventRef, debounce, parseYaml, TAbstractFile, TFile } from "obsidian";
import type { Engine, NoteChunk, NoteIndex, SavedNote } from "../engine/engine";

/** The longest the first build works before it lets other work run. */
const BUILD_SLICE_MS = 10;

/** How long the vault must be quiet before the index is saved. */
const SAVE_DELAY_MS = 2_000;

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

/** How the last full pass went: from the saved snapshot, or rebuilt from the notes and why. */
export interface IndexStart {
	source: "snapshot" | "notes";
	/** Why no snapshot was used (`source: "notes"`): none saved, a rebuild was asked, or the engine's error. */
	reason: string | null;
	/** Notes read during the pass. */
	read: number;
	/** Notes of the snapshot that are gone from the vault. */
	dropped: number;
	/** Milliseconds from the start of the pass to ready. */
	ms: number;
}

/** Where the snapshot is kept. */
export interface SnapshotStore {
	/** The saved bytes, or null when there are none. */
	load(): Promise<Uint8Array | null>;
	/** Replaces the saved bytes. */
	save(bytes: Uint8Array): Promise<void>;
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
	private index: NoteIndex;
	/** Each indexed note: its chunks in order, and the stamp of the file it was read from. */
	private readonly notes = new Map<string, SavedNote>();
	/** Per path, the number of the latest read started; an older read that ends later is dropped. */
	private readonly reads = new Map<string, number>();
	private readonly refs: EventRef[] = [];
	private state: IndexState = "idle";
	/** Set by `close`: the WebAssembly index is freed, and nothing may touch it again. */
	private closed = false;
	private total = 0;
	private chunkCount = 0;
	private readyResolvers: Array<() => void> = [];
	/** Whether the index changed since it was last saved (or read). */
	private unsaved = false;
	/** The save under way, if any: saves run one after the other. */
	private saving: Promise<void> = Promise.resolve();
	private readonly saveSoon: Debouncer<[], void>;
	/** The last full pass, once it has ended. */
	started: IndexStart | null = null;

	/**
	 * @param buildId Identifies what produced the index (engine, plugin and app versions): a
	 *   snapshot saved by another build is not read.
	 */
	constructor(
		private readonly app: App,
		private readonly engine: Engine,
		private readonly store: SnapshotStore,
		private readonly buildId: string,
	) {
		this.index = engine.noteIndex();
		this.saveSoon = debounce(() => void this.save(), SAVE_DELAY_MS, true);
	}

	/**
	 * Starts from the saved snapshot when it can be trusted, listens to vault events, then reads
	 * every note the snapshot does not have as it is now; resolves when that first pass ends.
	 */
	async build(): Promise<void> {
		const t0 = performance.now();
		this.state = "building";
		const reason = await this.restore();
		if (this.closed) return;
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
		await this.pass(t0, reason);
	}

	/** Forgets every note and reads them all again (the "Reindex now" command without a native server). */
	async rebuild(): Promise<void> {
		if (this.closed || this.state !== "ready") return this.whenReady();
		const t0 = performance.now();
		this.state = "building";
		this.index.free();
		this.index = this.engine.noteIndex();
		for (const path of this.notes.keys()) this.reads.set(path, (this.reads.get(path) ?? 0) + 1);
		this.notes.clear();
		this.chunkCount = 0;
		this.unsaved = true;
		await this.pass(t0, "a rebuild was asked for");
	}

	/** Resolves once the current full pass over the vault has ended. */
	whenReady(): Promise<void> {
		if (this.state === "ready" || this.closed) return Promise.resolve();
		return new Promise((resolve) => this.readyResolvers.push(resolve));
	}

	/**
	 * Stops listening to the vault, stops a pass under way, saves what changed since the last
	 * save, and frees the WebAssembly index; searches then find nothing. Idempotent.
	 */
	close(): void {
		if (this.closed) return;
		this.saveSoon.cancel();
		const last = this.unsaved ? this.snapshot() : null;
		this.closed = true;
		for (const ref of this.refs.splice(0)) this.app.vault.offref(ref);
		this.index.free();
		for (const resolve of this.readyResolvers.splice(0)) resolve();
		if (last !== null) void this.write(last);
	}

	/** Resolves once every save started so far has ended. */
	flushed(): Promise<void> {
		return this.saving;
	}

	coverage(): IndexCoverage {
		return { state: this.state, notes: this.notes.size, chunks: this.chunkCount, total: this.total };
	}

	/**
	 * The notes and chunks of the notes `readable` admits (null: every note): the coverage a
	 * restricted caller is told. `viewKey` names what `readable` depends on (see `search`).
	 */
	readableCoverage(readable: ((path: string) => boolean) | null, viewKey?: string): { notes: number; chunks: number } {
		if (this.closed) return { notes: 0, chunks: 0 };
		if (readable === null) return { notes: this.notes.size, chunks: this.chunkCount };
		let notes = 0;
		for (const path of this.notes.keys()) if (readable(path)) notes += 1;
		return { notes, chunks: this.index.readableChunks(readable, viewKey) };
	}

	/**
	 * The first `limit` notes `allowed` admits for `query`, best first, each by its best chunk,
	 * scored with the statistics of the notes `readable` admits (null: every note, the whole
	 * index's statistics without a call per note). The view of the readable notes is kept
	 * under `viewKey` (the folder access it comes from) until the index changes.
	 */
	search(query: string, limit: number, readable: ((path: string) => boolean) | null, allowed: (path: string) => boolean, viewKey?: string): NoteHit[] {
		if (this.closed) return [];
		return this.index.searchNotes(query, limit, readable, allowed, viewKey).map((hit) => ({
			path: hit.path,
			score: hit.score,
			headings: this.notes.get(hit.path)?.chunks.find((chunk) => chunk.key === hit.key)?.headings ?? [],
		}));
	}

	/**
	 * Replaces the empty index with the saved one when the snapshot is there and sound; returns
	 * why not otherwise (the engine's error for a snapshot it refused).
	 */
	private async restore(): Promise<string | null> {
		let bytes: Uint8Array | null;
		try {
			bytes = await this.store.load();
		} catch (err) {
			return `the saved index could not be read (${String(err)})`;
		}
		if (bytes === null) return "no saved index";
		if (this.closed) return null;
		try {
			const { index, notes } = this.engine.loadSnapshot(bytes, this.buildId);
			this.index.free();
			this.index = index;
			for (const note of notes) {
				this.notes.set(note.path, note);
				this.chunkCount += note.chunks.length;
			}
			return null;
		} catch (err) {
			console.warn("TC Bridge: the saved search index is not used; it is rebuilt from the notes.", err);
			return err instanceof Error ? err.message : String(err);
		}
	}

	/** Drops the notes that are gone, reads those missing or changed, then is ready. */
	private async pass(t0: number, reason: string | null): Promise<void> {
		const files = this.app.vault.getMarkdownFiles().filter(isNote);
		this.total = files.length;
		const present = new Set(files.map((file) => file.path));
		let dropped = 0;
		for (const path of [...this.notes.keys()]) {
			if (!present.has(path)) {
				this.forget(path);
				dropped++;
			}
		}
		const stale = files.filter((file) => !this.isCurrent(file));
		let slice = performance.now();
		for (const file of stale) {
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
		this.started = {
			source: reason === null ? "snapshot" : "notes",
			reason,
			read: stale.length,
			dropped,
			ms: performance.now() - t0,
		};
		if (this.unsaved) this.saveSoon();
		for (const resolve of this.readyResolvers.splice(0)) resolve();
	}

	/** Whether the note indexed for `file` was read from the file as it is now. */
	private isCurrent(file: TFile): boolean {
		const note = this.notes.get(file.path);
		return note !== undefined && note.mtime === file.stat.mtime && note.size === file.stat.size;
	}

	private onChanged(file: TAbstractFile): void {
		if (isNote(file)) void this.refresh(file);
	}

	/** Reads `file` and puts its current chunks in place of the old ones. */
	private async refresh(file: TFile): Promise<void> {
		const path = file.path;
		const read = (this.reads.get(path) ?? 0) + 1;
		this.reads.set(path, read);
		// The stamp before the read: a change during the read leaves it older than the file, so
		// the next start reads the note again rather than trusting a stale copy.
		const { mtime, size } = file.stat;
		let text: string;
		try {
			text = await this.app.vault.cachedRead(file);
		} catch (err) {
			console.error(`TC Bridge: could not read ${path} for search`, err);
			return;
		}
		if (this.closed || this.reads.get(path) !== read) return;
		this.drop(path);
		const chunks: NoteChunk[] = this.index.upsertNote(path, text, parseProperties);
		this.notes.set(path, { path, mtime, size, chunks });
		this.chunkCount += chunks.length;
		this.changed();
	}

	/** Removes the note at `path` (deleted, or renamed away), cancelling any read under way. */
	private forget(path: string): void {
		if (this.closed) return;
		this.reads.set(path, (this.reads.get(path) ?? 0) + 1);
		if (this.drop(path)) this.changed();
	}

	/** Removes the note's chunks; whether it was indexed. */
	private drop(path: string): boolean {
		const note = this.notes.get(path);
		if (note === undefined) return false;
		for (const chunk of note.chunks) this.index.remove(chunk.key);
		this.notes.delete(path);
		this.chunkCount -= note.chunks.length;
		return true;
	}

	/** Marks the index changed; once the first pass is over, a save follows when the vault is quiet. */
	private changed(): void {
		this.unsaved = true;
		if (this.state === "ready") this.saveSoon();
	}

	/** The snapshot of the index as it is now. */
	private snapshot(): Uint8Array {
		this.unsaved = false;
		return this.index.toSnapshot(this.buildId, [...this.notes.values()]);
	}

	/** Saves the index now (after any save under way). */
	private save(): Promise<void> {
		if (this.closed || !this.unsaved) return this.saving;
		let bytes: Uint8Array;
		try {
			bytes = this.snapshot();
		} catch (err) {
			console.error("TC Bridge: the search index could not be saved", err);
			return this.saving;
		}
		return this.write(bytes);
	}

	private write(bytes: Uint8Array): Promise<void> {
		this.saving = this.saving
			.then(() => this.store.save(bytes))
			.catch((err: unknown) => {
				this.unsaved = true;
				console.error("TC Bridge: the search index could not be saved", err);
			});
		return this.saving;
	}
}

// The engine (engine-wasm, compiled by wasm-bindgen for the web target) behind a typed API: the
// only module of the plugin that touches its generated bindings. It loads from the bytes esbuild
// inlined into main.js: no file is read and no network request is made.
import init, * as wasm from "../../../engine-wasm/pkg/engine_wasm.js";
import wasmBytes from "tc-engine-wasm-bytes";

/** A folder's permission level (engine-core's presets). */
export type FolderPreset = "none" | "r" | "rw" | "rwd";

/** One folder and its preset. */
export interface FolderAccess {
	folder: string;
	preset: FolderPreset;
}

/** An operation on a vault path. */
export type AclOp = "read" | "write" | "delete";

/** A folder ACL as the config file writes it (what `aclFromPresets` builds). */
export interface AclConfig {
	readOnly: boolean;
	readPaths?: string[];
	writePaths?: string[];
	deletePaths?: string[];
	strictReadDefault: boolean;
	defaultScopes: string[];
	rules: Array<{ glob: string; scopes: string[] }>;
}

/** Why the ACL denied an operation. */
export type DenyReason =
	| "path_invalid"
	| "hard_deny"
	| "read_only"
	| "strict_read_default"
	| "not_in_read_paths"
	| "not_in_write_paths"
	| "not_in_delete_paths"
	| "missing_scope";

/** Why a path is not a valid vault-relative path. */
export type PathError =
	| "empty"
	| "too_long"
	| "nul"
	| "control_character"
	| "backslash"
	| "absolute"
	| "drive_letter"
	| "empty_segment"
	| "dot_segment"
	| "dot_dot_segment"
	| "confusable_dot_segment"
	| "segment_too_long"
	| "reserved_name"
	| "trailing_dot_or_space"
	| "reserved_character";

/** One question to the ACL: may a caller holding the scopes `granted` do `op` on `path`? */
export interface AclQuery {
	config: AclConfig;
	path: string;
	op: AclOp;
	granted: string[];
}

/** The ACL's answer and what led to it (engine-core's `Decision`, field names as it writes them). */
export interface AclDecision {
	allowed: boolean;
	/** The first check that failed; null when allowed. */
	denied_by: DenyReason | null;
	op: AclOp;
	/** The validated path (NFC); null when it is invalid. */
	path: string | null;
	path_error: PathError | null;
	path_list_entry: string | null;
	matched_rule: string | null;
	required_scopes: string[];
	missing_scopes: string[];
}

/** A tool as the bridge's tool-list hash reads it. */
export interface HashedTool {
	name: string;
	description?: unknown;
	inputSchema?: unknown;
}

/** One chunk of an indexed note. */
export interface NoteChunk {
	/** Its id in the index. */
	key: string;
	/** Its heading breadcrumb, outermost first. */
	headings: string[];
}

/** One note found by a search, by its best chunk. */
export interface NoteMatch {
	path: string;
	/** The best chunk's key. */
	key: string;
	/** The best chunk's BM25F score (an `f32`, exactly as the engine computed it). */
	score: number;
}

/** A note as a snapshot of the index holds it: the file stamp it was read at, and its chunks. */
export interface SavedNote {
	path: string;
	/** The file's modification time when the note was read. */
	mtime: number;
	/** The file's size in bytes when the note was read. */
	size: number;
	/** Its chunks, as `upsertNote` returned them. */
	chunks: NoteChunk[];
}

/** The engine's lexical index of notes, in WebAssembly memory until `free`. */
export interface NoteIndex {
	/**
	 * Indexes the note at `path` from its full text; `parseYaml` turns its frontmatter into
	 * properties (a throw or a non-object counts as none). Does not remove the note's earlier
	 * chunks: remove them first. Returns its chunks in order.
	 */
	upsertNote(path: string, text: string, parseYaml: (yaml: string) => unknown): NoteChunk[];
	/** Removes a chunk by its key; whether it was indexed. */
	remove(key: string): boolean;
	/**
	 * The first `wanted` notes for `query` that `allowed` admits, best first, scored with the
	 * statistics of the notes `readable` admits (the caller's folder access), as the server
	 * scores, so notes it may not read change no score. A throw counts as no. `readable` null:
	 * every note is readable (the whole index's statistics, no call per note). `viewKey` names
	 * everything `readable` depends on: the view built for it is reused, without asking
	 * `readable` again, until the index changes or another key is given.
	 */
	searchNotes(query: string, wanted: number, readable: ((path: string) => boolean) | null, allowed: (path: string) => boolean, viewKey?: string): NoteMatch[];
	/** How many chunks the notes `readable` admits have (a throw counts as no; null: all; `viewKey` as above). */
	readableChunks(readable: ((path: string) => boolean) | null, viewKey?: string): number;
	/**
	 * The snapshot of this index (engine-core's checksummed format), whose documents are exactly
	 * the chunks of `notes`, stamped with `build`; `invalid_notes` otherwise.
	 */
	toSnapshot(build: string, notes: readonly SavedNote[]): Uint8Array;
	/** Releases the WebAssembly memory; the index must not be used afterwards. */
	free(): void;
}

/** Wraps one engine index. */
function wrapIndex(index: wasm.LexicalIndex): NoteIndex {
	return {
		upsertNote: (path, text, parseYaml) => call(() => index.upsert_note(path, text, parseYaml) as NoteChunk[]),
		remove: (key) => index.remove(key),
		searchNotes: (query, wanted, readable, allowed, viewKey) => call(() => index.search_notes(query, wanted, readable, allowed, viewKey) as NoteMatch[]),
		readableChunks: (readable, viewKey) => call(() => index.readable_chunks(readable, viewKey)),
		toSnapshot: (build, notes) => call(() => index.to_note_snapshot(build, notes)),
		free: () => index.free(),
	};
}

/** The SHA-256 of the engine's WebAssembly, lowercase hex: what identifies its build. */
async function wasmDigest(): Promise<string> {
	const digest = await window.crypto.subtle.digest("SHA-256", wasmBytes);
	return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * A failure the engine reports as `code: message`. `message` is that whole text and `name` stays
 * `Error`, so it reads exactly as the engine's own error did; `code` is the code alone.
 */
export class EngineError extends Error {
	constructor(
		readonly code: string,
		message: string,
	) {
		super(message);
	}
}

/** Runs an engine call, turning its `code: message` errors into `EngineError`s. */
function call<T>(run: () => T): T {
	try {
		return run();
	} catch (err) {
		const code = err instanceof Error ? /^([a-z][a-z0-9_]*): /.exec(err.message)?.[1] : undefined;
		throw code === undefined ? err : new EngineError(code, (err as Error).message);
	}
}

/** The loaded engine. */
export class Engine {
	/**
	 * @param buildId Identifies this engine build (`engine sha256 <digest of its WebAssembly>`): a
	 *   snapshot written by another build may chunk or analyze differently, so it is not read.
	 */
	private constructor(readonly buildId: string) {}

	/** Instantiates the WebAssembly module (once; later calls reuse it). */
	static async load(): Promise<Engine> {
		await init({ module_or_path: wasmBytes });
		return new Engine(`engine sha256 ${await wasmDigest()}`);
	}

	/** The Bridge Protocol v1 tool-list hash of `tools`, in registry order (64 lowercase hex). */
	toolListHash(tools: readonly HashedTool[]): string {
		return call(() => wasm.tool_list_hash({ tools }) as string);
	}

	/** The folder ACL that implements per-folder presets; `invalid_presets` for a bad folder. */
	aclFromPresets(folders: readonly FolderAccess[], unlisted: FolderPreset): AclConfig {
		return call(() => wasm.acl_from_presets({ folders, unlisted }) as AclConfig);
	}

	/** Decides one operation on one path, as the native server does. */
	aclEvaluate(query: AclQuery): AclDecision {
		return call(() => wasm.acl_evaluate(query) as AclDecision);
	}

	/** A new, empty note index with the default analyzer and scoring. */
	noteIndex(): NoteIndex {
		return wrapIndex(call(() => new wasm.LexicalIndex({})));
	}

	/**
	 * The index and notes of a snapshot written by `toSnapshot` with the same `build`. Nothing is
	 * trusted unchecked: an `EngineError` says why the bytes were refused (`not_a_snapshot`,
	 * `truncated`, `checksum_mismatch`, `unsupported_version`, `build_changed`,
	 * `analyzer_mismatch`, `malformed`, ...).
	 */
	loadSnapshot(bytes: Uint8Array, build: string): { index: NoteIndex; notes: SavedNote[] } {
		const { index, notes } = call(() => wasm.LexicalIndex.from_note_snapshot(bytes, build));
		return { index: wrapIndex(index), notes: notes as SavedNote[] };
	}
}

/* tslint:disable */
/* eslint-disable */

/**
 * The lexical index as a JS class, kept in memory by the plugin: documents are upserted
 * and removed as notes change, searched with free text, and persisted with
 * `to_bytes` / `LexicalIndex.from_bytes`.
 */
export class LexicalIndex {
    free(): void;
    [Symbol.dispose](): void;
    /**
     * Whether a document with this id is indexed.
     */
    contains(id: string): boolean;
    /**
     * The analyzer fingerprint stored with the index.
     */
    fingerprint(): string;
    /**
     * Reads bytes written by `to_bytes` (typed `code: message` errors when they are
     * foreign, truncated, corrupt, or from a different analyzer).
     */
    static from_bytes(bytes: Uint8Array | number[]): LexicalIndex;
    /**
     * Reads a snapshot for the host build `build`: `{index, notes}`, a new `LexicalIndex` and
     * its notes as `to_note_snapshot` took them (by path). Typed `code: message` errors when
     * the bytes are foreign, truncated, corrupt, of another format version, of another build
     * (`build_changed`) or of another analyzer.
     */
    static from_note_snapshot(bytes: Uint8Array | number[], build: string): { index: LexicalIndex; notes: unknown[] };
    /**
     * Whether the index holds no document.
     */
    is_empty(): boolean;
    /**
     * Number of documents.
     */
    len(): number;
    /**
     * `new LexicalIndex({analyzer?, params?})`: an empty index (defaults when omitted).
     */
    constructor(options: any);
    /**
     * How many chunks the notes `readable(path)` admits have (a throw or a falsy answer
     * leaves the note out): the `coverage` a caller restricted to them is told; every chunk
     * when `readable` is null. `view_key` as for `search_notes`.
     */
    readable_chunks(readable?: Function | null, view_key?: string | null): number;
    /**
     * Removes a document; returns whether it was indexed.
     */
    remove(id: string): boolean;
    /**
     * The `k` best documents for a free-text query: `[{id, score}]`.
     */
    search(query: string, k: number): any;
    /**
     * The first `wanted` notes for `query` that `allowed(path)` admits, each by its best
     * chunk, best first: `[{path, key, score}]`. Scores use the statistics of the notes
     * `readable(path)` admits (the caller's folder access), as the server's do, so notes it
     * may not read change no score; `allowed` narrows further (a folder). A throw or a falsy
     * answer of either leaves the note out. `readable` null: every note is readable, and the
     * search uses the whole index's statistics without building a view (no call per note).
     * `view_key` names everything `readable` depends on (the folder access): the view built
     * for it is kept and reused, without asking `readable` again, until the index changes or
     * another key is given.
     */
    search_notes(query: string, wanted: number, readable: Function | null | undefined, allowed: Function, view_key?: string | null): any;
    /**
     * Replaces the scoring parameters `{k1?, b?, weights?}` (no re-indexing needed).
     */
    set_params(params: any): void;
    /**
     * The canonical bytes of the index, for the host to persist.
     */
    to_bytes(): Uint8Array;
    /**
     * The snapshot of this index, whose documents are the chunks of `notes`
     * (`[{path, mtime, size, chunks: [{key, headings}]}]`), written by the host build `build`.
     * `invalid_notes` when they are not exactly the index's documents.
     */
    to_note_snapshot(build: string, notes: any): Uint8Array;
    /**
     * Inserts or replaces a document `{title?, aliases?, headings?, tags?, body?}`.
     */
    upsert(id: string, doc: any): void;
    /**
     * Indexes the note at `path` from its full text (as the file holds it: a BOM and CRLF
     * line breaks are read away as the server reads them); `parse_yaml(yaml)` turns the text of
     * its frontmatter (found by engine-core, as the server finds it) into its properties,
     * a plain object (a throw or any other value counts as no properties, as a frontmatter
     * the server cannot parse does). Earlier chunks of the note are not replaced: remove
     * them first by their keys. Returns its chunks, `[{key, headings}]`, in order.
     */
    upsert_note(path: string, text: string, parse_yaml: Function): any;
}

export function acl_evaluate(input: any): any;

export function acl_from_presets(input: any): any;

export function analyze(input: any): any;

export function analyzer_fingerprint(input: any): any;

export function args_hash(input: any): any;

export function bm25_decode(input: any): any;

export function bm25_roundtrip(input: any): any;

export function bm25_search(input: any): any;

export function canonical_json(input: any): any;

export function chunk_markdown(input: any): any;

export function cosine(input: any): any;

export function dot(input: any): any;

export function extract_markdown(input: any): any;

export function fuse_scores(input: any): any;

export function glob_match(input: any): any;

export function jsonlogic_evaluate(input: any): any;

export function lexical_decode(input: any): any;

export function lexical_roundtrip(input: any): any;

export function lexical_search(input: any): any;

export function link_text_after_move(input: any): any;

export function note_snapshot_decode(input: any): any;

export function note_snapshot_roundtrip(input: any): any;

export function parse_scope(input: any): any;

export function resolve_link(input: any): any;

export function resolve_links(input: any): any;

export function rewrite_note_links(input: any): any;

export function rrf(input: any): any;

export function scope_class(input: any): any;

export function scopes_satisfy(input: any): any;

export function sha256_hex(input: any): any;

export function stem(input: any): any;

export function tool_list_hash(input: any): any;

export function validate_path(input: any): any;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly __wbg_lexicalindex_free: (a: number, b: number) => void;
    readonly acl_evaluate: (a: any) => [number, number, number];
    readonly acl_from_presets: (a: any) => [number, number, number];
    readonly analyze: (a: any) => [number, number, number];
    readonly analyzer_fingerprint: (a: any) => [number, number, number];
    readonly args_hash: (a: any) => [number, number, number];
    readonly bm25_decode: (a: any) => [number, number, number];
    readonly bm25_roundtrip: (a: any) => [number, number, number];
    readonly bm25_search: (a: any) => [number, number, number];
    readonly canonical_json: (a: any) => [number, number, number];
    readonly chunk_markdown: (a: any) => [number, number, number];
    readonly cosine: (a: any) => [number, number, number];
    readonly dot: (a: any) => [number, number, number];
    readonly extract_markdown: (a: any) => [number, number, number];
    readonly fuse_scores: (a: any) => [number, number, number];
    readonly glob_match: (a: any) => [number, number, number];
    readonly jsonlogic_evaluate: (a: any) => [number, number, number];
    readonly lexical_decode: (a: any) => [number, number, number];
    readonly lexical_roundtrip: (a: any) => [number, number, number];
    readonly lexical_search: (a: any) => [number, number, number];
    readonly lexicalindex_contains: (a: number, b: number, c: number) => number;
    readonly lexicalindex_fingerprint: (a: number) => [number, number];
    readonly lexicalindex_from_bytes: (a: number, b: number) => [number, number, number];
    readonly lexicalindex_from_note_snapshot: (a: number, b: number, c: number, d: number) => [number, number, number];
    readonly lexicalindex_is_empty: (a: number) => number;
    readonly lexicalindex_len: (a: number) => number;
    readonly lexicalindex_new: (a: any) => [number, number, number];
    readonly lexicalindex_readable_chunks: (a: number, b: number, c: number, d: number) => number;
    readonly lexicalindex_remove: (a: number, b: number, c: number) => number;
    readonly lexicalindex_search: (a: number, b: number, c: number, d: number) => [number, number, number];
    readonly lexicalindex_search_notes: (a: number, b: number, c: number, d: number, e: number, f: any, g: number, h: number) => [number, number, number];
    readonly lexicalindex_set_params: (a: number, b: any) => [number, number];
    readonly lexicalindex_to_bytes: (a: number) => [number, number];
    readonly lexicalindex_to_note_snapshot: (a: number, b: number, c: number, d: any) => [number, number, number, number];
    readonly lexicalindex_upsert: (a: number, b: number, c: number, d: any) => [number, number];
    readonly lexicalindex_upsert_note: (a: number, b: number, c: number, d: number, e: number, f: any) => [number, number, number];
    readonly link_text_after_move: (a: any) => [number, number, number];
    readonly note_snapshot_decode: (a: any) => [number, number, number];
    readonly note_snapshot_roundtrip: (a: any) => [number, number, number];
    readonly parse_scope: (a: any) => [number, number, number];
    readonly resolve_link: (a: any) => [number, number, number];
    readonly resolve_links: (a: any) => [number, number, number];
    readonly rewrite_note_links: (a: any) => [number, number, number];
    readonly rrf: (a: any) => [number, number, number];
    readonly scope_class: (a: any) => [number, number, number];
    readonly scopes_satisfy: (a: any) => [number, number, number];
    readonly sha256_hex: (a: any) => [number, number, number];
    readonly stem: (a: any) => [number, number, number];
    readonly tool_list_hash: (a: any) => [number, number, number];
    readonly validate_path: (a: any) => [number, number, number];
    readonly __wbindgen_malloc: (a: number, b: number) => number;
    readonly __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
    readonly __wbindgen_free: (a: number, b: number, c: number) => void;
    readonly __wbindgen_exn_store: (a: number) => void;
    readonly __externref_table_alloc: () => number;
    readonly __wbindgen_externrefs: WebAssembly.Table;
    readonly __externref_table_dealloc: (a: number) => void;
    readonly __wbindgen_start: () => void;
}

export type SyncInitInput = BufferSource | WebAssembly.Module;

/**
 * Instantiates the given `module`, which can either be bytes or
 * a precompiled `WebAssembly.Module`.
 *
 * @param {{ module: SyncInitInput }} module - Passing `SyncInitInput` directly is deprecated.
 *
 * @returns {InitOutput}
 */
export function initSync(module: { module: SyncInitInput } | SyncInitInput): InitOutput;

/**
 * If `module_or_path` is {RequestInfo} or {URL}, makes a request and
 * for everything else, calls `WebAssembly.instantiate` directly.
 *
 * @param {{ module_or_path: InitInput | Promise<InitInput> }} module_or_path - Passing `InitInput` directly is deprecated.
 *
 * @returns {Promise<InitOutput>}
 */
export default function __wbg_init (module_or_path?: { module_or_path: InitInput | Promise<InitInput> } | InitInput | Promise<InitInput>): Promise<InitOutput>;

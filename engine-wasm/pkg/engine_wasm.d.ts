/* tslint:disable */
/* eslint-disable */

export function acl_evaluate(input: any): any;

export function acl_from_presets(input: any): any;

export function analyze(input: any): any;

export function analyzer_fingerprint(input: any): any;

export function args_hash(input: any): any;

export function canonical_json(input: any): any;

export function glob_match(input: any): any;

export function parse_scope(input: any): any;

export function scope_class(input: any): any;

export function scopes_satisfy(input: any): any;

export function sha256_hex(input: any): any;

export function stem(input: any): any;

export function tool_list_hash(input: any): any;

export function validate_path(input: any): any;

export type InitInput = RequestInfo | URL | Response | BufferSource | WebAssembly.Module;

export interface InitOutput {
    readonly memory: WebAssembly.Memory;
    readonly acl_evaluate: (a: any) => [number, number, number];
    readonly acl_from_presets: (a: any) => [number, number, number];
    readonly analyze: (a: any) => [number, number, number];
    readonly analyzer_fingerprint: (a: any) => [number, number, number];
    readonly args_hash: (a: any) => [number, number, number];
    readonly canonical_json: (a: any) => [number, number, number];
    readonly glob_match: (a: any) => [number, number, number];
    readonly parse_scope: (a: any) => [number, number, number];
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

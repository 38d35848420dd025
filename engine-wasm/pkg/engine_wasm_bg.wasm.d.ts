/* tslint:disable */
/* eslint-disable */
export const memory: WebAssembly.Memory;
export const acl_evaluate: (a: any) => [number, number, number];
export const acl_from_presets: (a: any) => [number, number, number];
export const analyze: (a: any) => [number, number, number];
export const analyzer_fingerprint: (a: any) => [number, number, number];
export const args_hash: (a: any) => [number, number, number];
export const canonical_json: (a: any) => [number, number, number];
export const glob_match: (a: any) => [number, number, number];
export const parse_scope: (a: any) => [number, number, number];
export const scope_class: (a: any) => [number, number, number];
export const scopes_satisfy: (a: any) => [number, number, number];
export const sha256_hex: (a: any) => [number, number, number];
export const stem: (a: any) => [number, number, number];
export const tool_list_hash: (a: any) => [number, number, number];
export const validate_path: (a: any) => [number, number, number];
export const __wbindgen_malloc: (a: number, b: number) => number;
export const __wbindgen_realloc: (a: number, b: number, c: number, d: number) => number;
export const __wbindgen_free: (a: number, b: number, c: number) => void;
export const __wbindgen_exn_store: (a: number) => void;
export const __externref_table_alloc: () => number;
export const __wbindgen_externrefs: WebAssembly.Table;
export const __externref_table_dealloc: (a: number) => void;
export const __wbindgen_start: () => void;

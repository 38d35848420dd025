// Loads the engine (engine-wasm, compiled by wasm-bindgen for the web target) from the bytes
// esbuild inlined into main.js: no file is read and no network request is made.
import init, * as wasm from "../../../engine-wasm/pkg/engine_wasm.js";
import wasmBytes from "tc-engine-wasm-bytes";

/** The engine's exported functions and classes (tool_list_hash, analyze, LexicalIndex, ...). */
export type Engine = typeof wasm;

/** Instantiates the WebAssembly module once; later calls return the same engine. */
export async function loadEngine(): Promise<Engine> {
	await init({ module_or_path: wasmBytes });
	return wasm;
}

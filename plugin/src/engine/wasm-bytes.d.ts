// The engine's WebAssembly binary, inlined into main.js by esbuild's `binary` loader
// (esbuild.config.mjs aliases this module name to engine-wasm/pkg/engine_wasm_bg.wasm).
declare module "tc-engine-wasm-bytes" {
	const bytes: Uint8Array<ArrayBuffer>;
	export default bytes;
}

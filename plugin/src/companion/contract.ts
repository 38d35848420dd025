// The Companion API contract (prefix, API version, endpoints, routes, the plugins routes need,
// error codes), imported from the one file the native server is built from too:
// engine-native/contract/companion-api.json. esbuild bundles the JSON; no cargo is involved.
// tests/plugin/contract.test.mjs checks the plugin serves exactly what it says.
import contract from "../../../engine-native/contract/companion-api.json";

/** The contract as the file has it. */
export const CONTRACT = contract;

/** The codes a route answers with in `{ok:false, code}` (the contract's `error_codes`). */
export type ToolErrorCode = keyof typeof contract.error_codes;

/** The codes the HTTP server refuses a request with before any route (401/403). */
export type AdmissionCode = keyof typeof contract.admission_codes;

/** Every code TC Bridge's Companion API answers with. */
export type CompanionErrorCode = ToolErrorCode | AdmissionCode;

/** The contract's method, checked: "GET" (listing routes, POST accepted too) or "POST". */
export function contractMethod(method: string): "GET" | "POST" {
	if (method !== "GET" && method !== "POST") throw new Error(`companion-api.json: method ${method} is not GET or POST`);
	return method;
}

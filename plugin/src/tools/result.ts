// How every in-Obsidian tool answers: MCP content for the bridge API (a JSON text item, relayed
// as is) plus the same value as `structuredContent`, which the companion API turns into its
// `{ok, result}` / `{ok:false, code, message, details}` envelope.
import type { ToolResult } from "../bridge/registry";
import type { ToolErrorCode } from "../companion/contract";

/**
 * Error codes shared with the native server's taxonomy (docs/architecture.md, seed 000 §3.1): the
 * contract's `error_codes` (engine-native/contract/companion-api.json), each with the server code
 * it becomes.
 */
export type { ToolErrorCode };

/** The structured body of a failed tool call. */
export interface ToolErrorBody {
	code: ToolErrorCode;
	message: string;
	details?: Record<string, unknown>;
}

/** A successful result carrying `value` (any JSON). */
export function toolOk(value: unknown): ToolResult {
	return {
		content: [{ type: "text", text: JSON.stringify(value) }],
		structuredContent: value,
	};
}

/** A tool-level failure (`isError: true`, HTTP 200 on the bridge API). */
export function toolError(code: ToolErrorCode, message: string, details?: Record<string, unknown>): ToolResult {
	const body: ToolErrorBody = details === undefined ? { code, message } : { code, message, details };
	return {
		content: [{ type: "text", text: JSON.stringify(body) }],
		structuredContent: body,
		isError: true,
	};
}

/** `plugin_missing` naming the plugin (its manifest id and display name); `core` for a core plugin. */
export function pluginMissing(pluginId: string, pluginName: string, core = false): ToolResult {
	const where = core ? "Settings → Core plugins" : "Community plugins";
	const action = core ? "Enable" : "Install and enable";
	return toolError(
		"plugin_missing",
		`${pluginName} is not ${core ? "enabled" : "installed or not enabled"} in this vault. ${action} "${pluginName}" in ${where}, then retry.`,
		{ plugin: pluginId },
	);
}

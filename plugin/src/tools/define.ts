// How an in-Obsidian tool is written: a BridgeTool whose `run` may stop early with `fail(...)`
// (a typed tool error that changed nothing), plus readers that type-check each argument.
import type { BridgeTool, InputSchema, ToolResult } from "../bridge/registry";
import { type ToolErrorCode, toolError } from "./result";

/** Thrown by `fail`; `defineTool` turns it into the tool's error result. */
export class ToolFailure extends Error {
	constructor(readonly result: ToolResult) {
		super("tool failure");
	}
}

/** Stops the tool with a typed error (`toolError`). */
export function fail(code: ToolErrorCode, message: string, details?: Record<string, unknown>): never {
	throw new ToolFailure(toolError(code, message, details));
}

/** A BridgeTool whose `run` may `fail(...)`; anything else thrown reaches the bridge (HTTP 500). */
export function defineTool(spec: {
	name: string;
	description: string;
	inputSchema: InputSchema;
	writes?: boolean;
	run(args: Record<string, unknown>): Promise<ToolResult>;
}): BridgeTool {
	return {
		name: spec.name,
		description: spec.description,
		inputSchema: spec.inputSchema,
		writes: spec.writes === true,
		run: async (args) => {
			try {
				return await spec.run(args);
			} catch (err) {
				if (err instanceof ToolFailure) return err.result;
				throw err;
			}
		},
	};
}

/** The message of anything thrown, for error details. */
export function messageOf(err: unknown): string {
	return err instanceof Error ? err.message : String(err);
}

/** Runs a companion plugin's call; what it throws becomes `plugin_error` naming the plugin. */
export async function companionCall<T>(pluginName: string, call: () => Promise<T> | T): Promise<T> {
	try {
		return await call();
	} catch (err) {
		if (err instanceof ToolFailure) throw err;
		return fail("plugin_error", `${pluginName} failed: ${messageOf(err)}`, { plugin: pluginName });
	}
}

function invalid(key: string, expected: string): never {
	return fail("invalid_input", `Argument '${key}' must be ${expected}.`, { argument: key });
}

/** A required non-empty string argument. */
export function stringArg(args: Record<string, unknown>, key: string): string {
	const v = args[key];
	if (typeof v !== "string" || v.trim() === "") invalid(key, "a non-empty string");
	return v;
}

/** An optional string argument (undefined when absent or null). */
export function optionalString(args: Record<string, unknown>, key: string): string | undefined {
	const v = args[key];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== "string") invalid(key, "a string");
	return v;
}

/** An optional boolean argument, `fallback` when absent. */
export function booleanArg(args: Record<string, unknown>, key: string, fallback: boolean): boolean {
	const v = args[key];
	if (v === undefined || v === null) return fallback;
	if (typeof v !== "boolean") invalid(key, "true or false");
	return v;
}

/** An optional integer argument in [min, max], `fallback` when absent. */
export function integerArg(args: Record<string, unknown>, key: string, fallback: number, min: number, max: number): number {
	const v = args[key];
	if (v === undefined || v === null) return fallback;
	if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
		invalid(key, `an integer from ${min} to ${max}`);
	}
	return v;
}

/** An optional array of non-empty strings. */
export function stringListArg(args: Record<string, unknown>, key: string): string[] | undefined {
	const v = args[key];
	if (v === undefined || v === null) return undefined;
	if (!Array.isArray(v) || v.some((s) => typeof s !== "string" || s.trim() === "")) {
		invalid(key, "an array of non-empty strings");
	}
	return v as string[];
}

/** An optional JSON object argument. */
export function objectArg(args: Record<string, unknown>, key: string): Record<string, unknown> | undefined {
	const v = args[key];
	if (v === undefined || v === null) return undefined;
	if (typeof v !== "object" || Array.isArray(v)) invalid(key, "a JSON object");
	return v as Record<string, unknown>;
}

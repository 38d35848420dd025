// The Companion API envelope (seed 000 §3.1): `{ok:true, result}` or
// `{ok:false, code, message, details?}`, from a bridge tool's ToolResult.
import type { Reply } from "../bridge/bridge-api";
import type { ToolResult } from "../bridge/registry";
import type { ToolErrorBody } from "../tools/result";
import type { CompanionErrorCode } from "./contract";

/** `{ok:false, ...}` with an HTTP status and a code of the contract. */
export function failure(status: number, code: CompanionErrorCode, message: string, details?: Record<string, unknown>): Reply {
	return { status, body: details === undefined ? { ok: false, code, message } : { ok: false, code, message, details } };
}

/** `{ok:true, result}` with HTTP 200. */
export function success(result: unknown): Reply {
	return { status: 200, body: { ok: true, result } };
}

function isErrorBody(value: unknown): value is ToolErrorBody {
	const v = value as Partial<ToolErrorBody> | null;
	return typeof v === "object" && v !== null && typeof v.code === "string" && typeof v.message === "string";
}

function contentText(result: ToolResult): string {
	return result.content
		.map((item) => item.text)
		.filter((text): text is string => typeof text === "string")
		.join("\n");
}

/**
 * A tool's answer as the envelope: its `structuredContent` is the `result` (or the error body);
 * a tool that gave only content yields `{content}`. Tool-level errors are HTTP 200, as on the
 * bridge API.
 */
export function envelopeOf(result: ToolResult): Reply {
	if (result.isError === true) {
		const body = result.structuredContent;
		if (isErrorBody(body)) return failure(200, body.code, body.message, body.details);
		return failure(200, "internal_error", contentText(result) || "The tool failed without a message");
	}
	return success(result.structuredContent ?? { content: result.content });
}

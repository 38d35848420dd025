// `POST /obsidian-tc/v1/confirm`: the native server asks the human to approve a gated call.
// Body `{tool, vault, path?, summary | diff, args_hash?, timeout_ms?}`; answer
// `{decision: "approved" | "denied" | "timed_out"}`.
import type { Reply } from "../bridge/bridge-api";
import type { ApprovalPrompt } from "../ui/approval-modal";
import type { ApprovalQueue } from "./approvals";
import { failure, success } from "./envelope";

function optionalString(body: Record<string, unknown>, key: string): string | undefined | null {
	const v = body[key];
	if (v === undefined) return undefined;
	return typeof v === "string" ? v : null;
}

/** The prompt and deadline of a confirm body, or the `invalid_input` reply. */
export function parseConfirm(body: Record<string, unknown>): { prompt: ApprovalPrompt; timeoutMs?: number } | Reply {
	const bad = (message: string) => failure(400, "invalid_input", message);
	if (typeof body.tool !== "string" || body.tool.length === 0) return bad("'tool' must be a non-empty string");
	if (typeof body.vault !== "string" || body.vault.length === 0) return bad("'vault' must be a non-empty string");
	const path = optionalString(body, "path");
	const summary = optionalString(body, "summary");
	const diff = optionalString(body, "diff");
	const argsHash = optionalString(body, "args_hash");
	if (path === null || summary === null || diff === null || argsHash === null) {
		return bad("'path', 'summary', 'diff' and 'args_hash' must be strings when given");
	}
	if (summary === undefined && diff === undefined) return bad("Give 'summary' or 'diff': what the human approves");
	const timeout = body.timeout_ms;
	if (timeout !== undefined && (typeof timeout !== "number" || !Number.isFinite(timeout) || timeout <= 0)) {
		return bad("'timeout_ms' must be a positive number of milliseconds");
	}
	const prompt: ApprovalPrompt = { tool: body.tool, vault: body.vault, path, summary, diff, argsHash };
	return { prompt, timeoutMs: timeout };
}

/** Shows the dialog and answers with the decision; `signal` aborts when the caller hangs up. */
export async function confirm(approvals: ApprovalQueue, body: Record<string, unknown>, signal: AbortSignal): Promise<Reply> {
	const parsed = parseConfirm(body);
	if (!("prompt" in parsed)) return parsed;
	const decision = await approvals.approve(parsed.prompt, { timeoutMs: parsed.timeoutMs, signal });
	return success({ decision });
}

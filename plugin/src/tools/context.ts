// What an in-Obsidian tool gets to do its work: the app, the engine, the access gate, the
// settings, and a way to ask the human for approval.
import type { App } from "obsidian";
import type { AccessGate } from "../acl/gate";
import type { Engine } from "../engine/load";
import type { TcBridgeSettings } from "../settings";

/** What the human is asked to approve (shown in the approval dialog). */
export interface ApprovalRequest {
	tool: string;
	vault: string;
	path?: string;
	/** A diff or a one-paragraph summary of the proposed change. */
	summary: string;
}

/** The human's answer; anything but "approved" means the call must not run. */
export type ApprovalOutcome = "approved" | "denied" | "timed_out";

export interface ToolContext {
	app: App;
	engine: Engine;
	gate: AccessGate;
	settings: TcBridgeSettings;
	/** Shows the approval dialog and resolves with the answer (fails closed). */
	approve(request: ApprovalRequest): Promise<ApprovalOutcome>;
}

/** The approval answer until the approval dialog exists: every request is denied (fail closed). */
export function denyApprovals(): Promise<ApprovalOutcome> {
	return Promise.resolve("denied");
}

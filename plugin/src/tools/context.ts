// What an in-Obsidian tool gets to do its work: the app, the engine, the access gate, the
// settings, and a way to ask the human for approval.
import type { App } from "obsidian";
import type { AccessGate } from "../acl/gate";
import type { Engine } from "../engine/engine";
import type { TcBridgeSettings } from "../settings";
import type { ApprovalPrompt } from "../ui/approval-modal";

/** What the human is asked to approve: what the approval dialog shows. */
export type ApprovalRequest = ApprovalPrompt;

/** The human's answer; anything but "approved" means the call must not run. */
export type ApprovalOutcome = "approved" | "denied" | "timed_out";

export interface ToolContext {
	app: App;
	engine: Engine;
	/** The folder ACL of the current settings (rebuilt when they change). */
	readonly gate: AccessGate;
	/** The current settings. */
	readonly settings: TcBridgeSettings;
	/** Shows the approval dialog and resolves with the answer (fails closed). */
	approve(request: ApprovalRequest): Promise<ApprovalOutcome>;
}


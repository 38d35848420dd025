// Human approval of agent actions, one dialog at a time, failing closed: only an Approve click
// approves; closing the dialog, the timeout, the caller going away and unload all deny (or time
// out). Used by `POST /obsidian-tc/v1/confirm` and by `ToolContext.approve`.
import type { App } from "obsidian";
import type { ActivityMonitor } from "../bridge/activity";
import type { ApprovalOutcome } from "../tools/context";
import { ApprovalModal, type ApprovalPrompt } from "../ui/approval-modal";

/** Per-request options of `approve`. */
export interface ApprovalOptions {
	/** A deadline shorter than the configured one, in ms. */
	timeoutMs?: number;
	/** Aborted when the caller no longer waits (its connection closed): the answer is "denied". */
	signal?: AbortSignal;
}

interface Pending {
	prompt: ApprovalPrompt;
	settle(outcome: ApprovalOutcome): void;
	modal: ApprovalModal | null;
}

export class ApprovalQueue {
	private readonly waiting: Pending[] = [];
	private shown: Pending | null = null;

	constructor(
		private readonly app: App,
		/** The configured deadline (settings.approvalTimeoutSeconds), read at each request. */
		private readonly timeoutSeconds: () => number,
		private readonly activity?: ActivityMonitor,
	) {}

	/**
	 * Asks the human; resolves "approved" only after an Approve click. The deadline counts from
	 * the request, including the time spent queued behind another dialog.
	 */
	readonly approve = (prompt: ApprovalPrompt, options: ApprovalOptions = {}): Promise<ApprovalOutcome> => {
		const configured = Math.max(0, this.timeoutSeconds()) * 1000;
		const timeoutMs =
			options.timeoutMs !== undefined && options.timeoutMs > 0 ? Math.min(options.timeoutMs, configured) : configured;
		return new Promise<ApprovalOutcome>((resolve) => {
			if (options.signal?.aborted === true) {
				resolve("denied");
				return;
			}
			const endActivity = this.activity?.begin("approval");
			let settled = false;
			const onAbort = () => pending.settle("denied");
			const timer = window.setTimeout(() => pending.settle("timed_out"), timeoutMs);
			const pending: Pending = {
				prompt,
				modal: null,
				settle: (outcome) => {
					if (settled) return;
					settled = true;
					window.clearTimeout(timer);
					options.signal?.removeEventListener("abort", onAbort);
					endActivity?.();
					const queued = this.waiting.indexOf(pending);
					if (queued >= 0) this.waiting.splice(queued, 1);
					if (this.shown === pending) {
						this.shown = null;
						pending.modal?.close();
						this.showNext();
					}
					resolve(outcome);
				},
			};
			options.signal?.addEventListener("abort", onAbort);
			this.waiting.push(pending);
			this.showNext();
		});
	};

	/** Denies every request, shown or queued (plugin unload). */
	denyAll(): void {
		for (const pending of [...this.waiting]) pending.settle("denied");
		this.shown?.settle("denied");
	}

	private showNext(): void {
		if (this.shown !== null) return;
		const next = this.waiting.shift();
		if (next === undefined) return;
		this.shown = next;
		next.modal = new ApprovalModal(this.app, next.prompt, (click) => next.settle(click));
		next.modal.open();
	}
}

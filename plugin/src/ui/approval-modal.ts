// The approval dialog: what an agent wants to do (tool, vault, path, the diff or summary) and
// Approve / Deny. Closing it any other way counts as deny. It reports the first answer only;
// its owner (ApprovalQueue) closes it.
import { type App, Modal, Setting } from "obsidian";

/** What the dialog shows. */
export interface ApprovalPrompt {
	tool: string;
	vault: string;
	path?: string;
	/** A one-paragraph summary of the proposed change. */
	summary?: string;
	/** A diff of the proposed change (shown instead of the summary when given). */
	diff?: string;
	/** The caller's hash of the exact arguments, shown so it can be matched in logs. */
	argsHash?: string;
}

/** The human's click; "denied" also when the dialog is closed without one. */
export type ApprovalClick = "approved" | "denied";

/** The dialog of one approval request. */
export class ApprovalModal extends Modal {
	private answered = false;

	constructor(
		app: App,
		private readonly prompt: ApprovalPrompt,
		private readonly onAnswer: (click: ApprovalClick) => void,
	) {
		super(app);
	}

	onOpen(): void {
		const { contentEl, prompt } = this;
		this.titleEl.setText("Approve an agent action?");
		new Setting(contentEl).setName("Tool").setDesc(prompt.tool);
		new Setting(contentEl).setName("Vault").setDesc(prompt.vault);
		if (prompt.path !== undefined) new Setting(contentEl).setName("Path").setDesc(prompt.path);
		if (prompt.argsHash !== undefined) new Setting(contentEl).setName("Arguments hash").setDesc(prompt.argsHash);
		const change = prompt.diff ?? prompt.summary ?? "";
		contentEl.createEl("pre", { cls: "tc-bridge-approval-change", text: change });
		new Setting(contentEl)
			.addButton((button) => button.setButtonText("Deny").onClick(() => this.answer("denied")))
			.addButton((button) => button.setButtonText("Approve").setCta().onClick(() => this.answer("approved")));
	}

	onClose(): void {
		this.contentEl.empty();
		this.answer("denied");
	}

	private answer(click: ApprovalClick): void {
		if (this.answered) return;
		this.answered = true;
		this.onAnswer(click);
	}
}

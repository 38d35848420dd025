// The "Search vault" modal: the vault's WebAssembly index searched as the user types, the chosen
// note opened. It shows every note the user can see (the folder access settings bind agents,
// not the user).
import { type App, SuggestModal, TFile } from "obsidian";
import type { NoteHit, VaultIndex } from "./vault-index";

const SHOWN = 20;

export class SearchModal extends SuggestModal<NoteHit> {
	constructor(
		app: App,
		private readonly index: VaultIndex,
	) {
		super(app);
		this.setPlaceholder("Search notes by words");
	}

	getSuggestions(query: string): NoteHit[] {
		if (query.trim() === "") return [];
		return this.index.search(query, SHOWN, () => true);
	}

	renderSuggestion(hit: NoteHit, el: HTMLElement): void {
		el.createDiv({ text: hit.path.replace(/\.md$/i, "") });
		if (hit.headings.length > 0) el.createEl("small", { text: hit.headings.join(" › ") });
	}

	onChooseSuggestion(hit: NoteHit): void {
		const file = this.app.vault.getAbstractFileByPath(hit.path);
		if (file instanceof TFile) void this.app.workspace.getLeaf().openFile(file);
	}
}

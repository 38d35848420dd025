// The "Search vault" modal: the notes for what the user types, hybrid from the native server
// when it runs with semantic search, else lexical from the vault's WebAssembly index (each
// suggestion labelled with its source); the chosen note is opened. It shows every note the
// user can see (the folder access settings bind agents, not the user).
import { type App, SuggestModal, TFile } from "obsidian";
import type { NativeServer } from "../sidecar/native-server";
import { type Suggestion, searchVault } from "./hybrid";
import type { VaultIndex } from "./vault-index";

const SHOWN = 20;

export class SearchModal extends SuggestModal<Suggestion> {
	constructor(
		app: App,
		private readonly index: VaultIndex,
		private readonly server: () => NativeServer | null,
	) {
		super(app);
		this.setPlaceholder("Search notes by words");
	}

	getSuggestions(query: string): Suggestion[] | Promise<Suggestion[]> {
		if (query.trim() === "") return [];
		return searchVault(this.index, this.server(), query, SHOWN);
	}

	renderSuggestion(suggestion: Suggestion, el: HTMLElement): void {
		el.createDiv({ text: suggestion.path.replace(/\.md$/i, "") });
		if (suggestion.heading.length > 0) el.createEl("small", { text: suggestion.heading });
		el.createEl("small", { text: ` · ${suggestion.source}`, cls: "tc-bridge-search-source" });
	}

	onChooseSuggestion(suggestion: Suggestion): void {
		const file = this.app.vault.getAbstractFileByPath(suggestion.path);
		if (file instanceof TFile) void this.app.workspace.getLeaf().openFile(file);
	}
}

import { Notice, Plugin } from "obsidian";
import { type Engine, loadEngine } from "./engine/load";
import { parseSettings, TcBridgeSettingTab, type TcBridgeSettings } from "./settings";

export default class TcBridgePlugin extends Plugin {
	settings!: TcBridgeSettings;
	/** The WebAssembly engine; null until loaded, or when loading failed. */
	engine: Engine | null = null;

	async onload(): Promise<void> {
		await this.loadSettings();
		this.addSettingTab(new TcBridgeSettingTab(this.app, this));
		try {
			this.engine = await loadEngine();
		} catch (err) {
			console.error("TC Bridge: the WebAssembly engine failed to load", err);
			new Notice("Search engine failed to load; see the developer console.");
		}
	}

	onunload(): void {
		this.engine = null;
	}

	async loadSettings(): Promise<void> {
		this.settings = parseSettings(await this.loadData());
		await this.saveSettings();
	}

	async saveSettings(): Promise<void> {
		await this.saveData(this.settings);
	}
}

import { Notice, Plugin } from "obsidian";
import { type Engine, loadEngine } from "./engine/load";
import { Bridge } from "./server/bridge";
import { registerSearch } from "./search/register";
import { parseSettings, TcBridgeSettingTab, type TcBridgeSettings } from "./settings";

export default class TcBridgePlugin extends Plugin {
	settings!: TcBridgeSettings;
	/** The WebAssembly engine; null until loaded, or when loading failed. */
	engine: Engine | null = null;
	/** The localhost bridge server and its tool registry; null when not serving. */
	bridge: Bridge | null = null;

	async onload(): Promise<void> {
		await this.loadSettings();
		this.addSettingTab(new TcBridgeSettingTab(this.app, this));
		try {
			this.engine = await loadEngine();
		} catch (err) {
			console.error("TC Bridge: the WebAssembly engine failed to load", err);
			new Notice("Search engine failed to load; see the developer console.");
			return;
		}
		const bridge = new Bridge(this.engine, this.settings.port, this.settings.token, this.manifest.version);
		if (await bridge.start()) this.bridge = bridge;
		registerSearch(this, this.engine);
	}

	onunload(): void {
		void this.bridge?.stop();
		this.bridge = null;
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

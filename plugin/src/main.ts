import { Notice, Plugin } from "obsidian";
import { CompanionApi } from "./companion/api";
import { ApprovalQueue } from "./companion/approvals";
import { Engine } from "./engine/engine";
import { ActivityMonitor } from "./server/activity";
import { Bridge } from "./server/bridge";
import { parseSettings, type TcBridgeSettings } from "./settings";
import { type Sidecar } from "./sidecar/supervisor";
import { startSidecar } from "./sidecar/start";
import { TcBridgeSettingTab } from "./ui/settings-tab";
import { serverState, StatusBar } from "./ui/status-bar";
import { vaultBasePath } from "./ui/vault-path";
import { registerObsidianTools, toolContext } from "./tools/index";
import { registerSearch } from "./search/register";

export default class TcBridgePlugin extends Plugin {
	settings!: TcBridgeSettings;
	/** The WebAssembly engine; null until loaded, or when loading failed. */
	engine: Engine | null = null;
	/** The localhost bridge server and its tool registry; null when not serving. */
	bridge: Bridge | null = null;
	/** Tool calls and approvals in flight (the status bar shows them). */
	readonly activity = new ActivityMonitor();
	/** The approval dialog; `approvals.approve` is `ToolContext.approve`. */
	readonly approvals = new ApprovalQueue(this.app, () => this.settings.approvalTimeoutSeconds, this.activity);
	/** The supervised native sidecar, when settings.sidecarPath is set. */
	sidecar: Sidecar | null = null;

	async onload(): Promise<void> {
		await this.loadSettings();
		this.addSettingTab(new TcBridgeSettingTab(this.app, this));
		const status = new StatusBar(this.addStatusBarItem(), this.activity);
		this.register(() => status.dispose());
		this.sidecar = startSidecar(this.settings.sidecarPath, vaultBasePath(this.app));
		try {
			this.engine = await Engine.load();
		} catch (err) {
			console.error("TC Bridge: the WebAssembly engine failed to load", err);
			new Notice("Search engine failed to load; see the developer console.");
			return;
		}
		const companion = new CompanionApi({ app: this.app, approvals: this.approvals, pluginVersion: this.manifest.version });
		const bridge = new Bridge(this.engine, this.settings.port, this.settings.token, this.manifest.version, {
			companion,
			activity: this.activity,
		});
		const tools = toolContext(this.app, this.engine, () => this.settings, this.approvals.approve);
		registerObsidianTools(bridge.registry, tools);
		registerSearch(this, tools, bridge.registry);
		if (await bridge.start()) this.bridge = bridge;
		status.setServer(serverState(bridge, this.settings.port));
		this.register(() => status.setServer({ state: "stopped" }));
	}

	onunload(): void {
		this.approvals.denyAll();
		void this.sidecar?.stop();
		this.sidecar = null;
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

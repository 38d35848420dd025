import { Notice, Plugin } from "obsidian";
import { CompanionApi } from "./companion/api";
import { ApprovalQueue } from "./companion/approvals";
import { Engine } from "./engine/engine";
import { ActivityMonitor } from "./bridge/activity";
import { Bridge } from "./bridge/bridge";
import { parseSettings, type TcBridgeSettings } from "./settings";
import { NativeServer, nativeServerLaunch } from "./sidecar/native-server";
import { TcBridgeSettingTab } from "./ui/settings-tab";
import { serverState, StatusBar } from "./ui/status-bar";
import { vaultBasePath } from "./ui/vault-path";
import { registerObsidianTools, toolContext } from "./tools/index";
import { registerSearch } from "./search/register";
import type { VaultIndex } from "./search/vault-index";

export default class TcBridgePlugin extends Plugin {
	settings!: TcBridgeSettings;
	/** The WebAssembly engine; null until loaded, or when loading failed. */
	engine: Engine | null = null;
	/** The localhost bridge server and its tool registry; null when not serving. */
	bridge: Bridge | null = null;
	/** The vault's search index; null until the engine is loaded. */
	searchIndex: VaultIndex | null = null;
	/** Tool calls and approvals in flight (the status bar shows them). */
	readonly activity = new ActivityMonitor();
	/** The approval dialog; `approvals.approve` is `ToolContext.approve`. */
	readonly approvals = new ApprovalQueue(this.app, () => this.settings.approvalTimeoutSeconds, this.activity);
	/** The supervised native server, when settings.sidecarPath is set. */
	native: NativeServer | null = null;
	/** Set by `onunload`: nothing starts any more. */
	private unloaded = false;
	/** The native server restart under way, if any. */
	private restarting: Promise<void> = Promise.resolve();

	async onload(): Promise<void> {
		await this.loadSettings();
		this.addSettingTab(new TcBridgeSettingTab(this.app, this));
		const status = new StatusBar(this.addStatusBarItem(), this.activity);
		this.register(() => status.dispose());
		try {
			this.engine = await Engine.load();
		} catch (err) {
			console.error("TC Bridge: the WebAssembly engine failed to load", err);
			new Notice("Search engine failed to load; see the developer console.");
			this.startNativeServer();
			return;
		}
		const companion = new CompanionApi({ app: this.app, approvals: this.approvals, pluginVersion: this.manifest.version });
		const bridge = new Bridge(this.engine, this.settings.port, this.settings.token, this.manifest.version, {
			companion,
			activity: this.activity,
		});
		const tools = toolContext(this.app, this.engine, () => this.settings, this.approvals.approve);
		registerObsidianTools(bridge.registry, tools);
		this.searchIndex = registerSearch(this, tools, bridge.registry);
		if (await bridge.start()) this.bridge = bridge;
		status.setServer(serverState(bridge, this.settings.port));
		this.register(() => status.setServer({ state: "stopped" }));
		// After the bridge, so the native server is told the port it really serves on.
		this.startNativeServer();
	}

	onunload(): void {
		this.unloaded = true;
		this.approvals.denyAll();
		void this.native?.stop();
		this.native = null;
		void this.bridge?.stop();
		this.bridge = null;
		this.engine = null;
	}

	/** Starts the native server the settings name (none without a binary), wired to the bridge. */
	private startNativeServer(): void {
		if (this.unloaded) return;
		const launch = nativeServerLaunch(this.settings, vaultBasePath(this.app), this.bridge?.port ?? null);
		this.native =
			launch === null ? null : new NativeServer(launch, this.settings.mcpPort, this.settings.mcpToken, this.manifest.version);
	}

	/**
	 * Stops the native server and starts it with the current settings (a new binary, port or
	 * token); restarts asked for meanwhile run one after the other.
	 */
	restartNativeServer(): Promise<void> {
		this.restarting = this.restarting.then(async () => {
			const running = this.native;
			this.native = null;
			await running?.stop();
			this.startNativeServer();
		});
		return this.restarting;
	}

	async loadSettings(): Promise<void> {
		this.settings = parseSettings(await this.loadData());
		await this.saveSettings();
	}

	async saveSettings(): Promise<void> {
		await this.saveData(this.settings);
	}
}

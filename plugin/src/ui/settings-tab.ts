// The settings tab: server port and token, the native server (see native-section.ts), what
// agents may do (writes, commands, folders), approvals, and ready config blocks for MCP clients.
import { type App, PluginSettingTab, Setting, type TextComponent } from "obsidian";
import type { FolderAccess, FolderPreset } from "../engine/engine";
import type TcBridgePlugin from "../main";
import { isPort, newToken } from "../settings";
import { clientCommand } from "../sidecar/binary";
import { mcpUrl } from "../sidecar/native-server";
import { CLIENTS, type ClientConfigInput, type Transport, clientConfig } from "./client-config";
import { copyText } from "./copy";
import { NativeSection, STATUS_POLL_MS } from "./native-section";
import { vaultBasePath } from "./vault-path";

const PRESET_LABELS: Record<FolderPreset, string> = {
	none: "No access",
	r: "Read",
	rw: "Read and write",
	rwd: "Read, write and delete",
};

const FOLDER_LINE = /^(.+?)\s*:\s*(none|r|rw|rwd)$/;

/** Folder access lines (`folder: preset`, blank lines skipped), or the first bad line. */
export function parseFolderAccess(text: string): { entries: FolderAccess[] } | { badLine: string } {
	const entries: FolderAccess[] = [];
	for (const raw of text.split("\n")) {
		const line = raw.trim();
		if (line.length === 0) continue;
		const m = FOLDER_LINE.exec(line);
		if (m?.[1] === undefined || m[2] === undefined) return { badLine: line };
		entries.push({ folder: m[1].replace(/^\/+|\/+$/g, ""), preset: m[2] as FolderPreset });
	}
	return { entries };
}

/** The TC Bridge settings tab. */
export class TcBridgeSettingTab extends PluginSettingTab {
	private readonly native: NativeSection;
	/** The timer that keeps the native server rows current while the tab is open. */
	private poll: number | null = null;

	constructor(
		app: App,
		private readonly plugin: TcBridgePlugin,
	) {
		super(app, plugin);
		this.native = new NativeSection(plugin);
	}

	hide(): void {
		this.stopPolling();
	}

	private stopPolling(): void {
		if (this.poll !== null) window.clearInterval(this.poll);
		this.poll = null;
	}

	display(): void {
		const { containerEl } = this;
		const settings = this.plugin.settings;
		const save = () => this.plugin.saveSettings();
		containerEl.empty();
		this.stopPolling();
		this.poll = this.plugin.registerInterval(window.setInterval(() => this.native.refresh(), STATUS_POLL_MS));

		new Setting(containerEl)
			.setName("Port")
			.setDesc("Port of the local bridge server on 127.0.0.1. A new port takes effect when the plugin reloads.")
			.addText((text) =>
				text.setValue(String(settings.port)).onChange(async (value) => {
					const port = Number(value);
					if (isPort(port)) {
						settings.port = port;
						await save();
					}
				}),
			);

		let tokenField: TextComponent | null = null;
		new Setting(containerEl)
			.setName("Token")
			.setDesc("Bearer token that local clients must present. Regenerating it disconnects every client until it gets the new one.")
			.addText((text) => {
				tokenField = text.setValue(settings.token).setDisabled(true);
			})
			.addButton((button) => button.setButtonText("Copy").onClick(() => copyText(settings.token, "Token")))
			.addButton((button) =>
				button
					.setButtonText("Regenerate")
					.onClick(async () => {
						settings.token = newToken();
						this.plugin.bridge?.server.setToken(settings.token);
						tokenField?.setValue(settings.token);
						await save();
						// The native server was given the old token for this bridge.
						if (this.plugin.native !== null) await this.plugin.restartNativeServer();
					}),
			);

		this.native.display(containerEl);

		new Setting(containerEl).setName("Agent permissions").setHeading();

		new Setting(containerEl)
			.setName("Allow writes")
			.setDesc("Let tools create or change notes (templates, capture actions, drawings). Each change still asks you first.")
			.addToggle((toggle) =>
				toggle.setValue(settings.allowWrites).onChange(async (value) => {
					settings.allowWrites = value;
					await save();
				}),
			);

		new Setting(containerEl)
			.setName("Allow commands")
			.setDesc("Let agents run commands from the allowlist below. Each run still asks you first.")
			.addToggle((toggle) =>
				toggle.setValue(settings.allowCommands).onChange(async (value) => {
					settings.allowCommands = value;
					await save();
				}),
			);

		new Setting(containerEl)
			.setName("Command allowlist")
			.setDesc("Command ids agents may run, one per line, for example editor:save-file.")
			.addTextArea((area) =>
				area.setValue(settings.commandAllowlist.join("\n")).onChange(async (value) => {
					settings.commandAllowlist = value
						.split("\n")
						.map((id) => id.trim())
						.filter((id) => id.length > 0);
					await save();
				}),
			);

		const folderHelp = "One folder per line as folder: preset, where preset is none, r, rw or rwd. A nested folder overrides its parent.";
		const folders = new Setting(containerEl).setName("Folder access").setDesc(folderHelp);
		folders.addTextArea((area) =>
			area
				.setValue(settings.folderAccess.map((f) => `${f.folder}: ${f.preset}`).join("\n"))
				.onChange(async (value) => {
					const parsed = parseFolderAccess(value);
					if ("badLine" in parsed) {
						folders.setDesc(`Not saved: "${parsed.badLine}" is not folder: preset. ${folderHelp}`);
						return;
					}
					folders.setDesc(folderHelp);
					settings.folderAccess = parsed.entries;
					await save();
				}),
		);

		new Setting(containerEl)
			.setName("Other folders")
			.setDesc("Access to everything no line above covers.")
			.addDropdown((dropdown) =>
				dropdown
					.addOptions(PRESET_LABELS)
					.setValue(settings.unlistedAccess)
					.onChange(async (value) => {
						if (value in PRESET_LABELS) {
							settings.unlistedAccess = value as FolderPreset;
							await save();
						}
					}),
			);

		new Setting(containerEl)
			.setName("Approval timeout")
			.setDesc("Seconds the approval dialog waits for you; no answer in time means the action does not run.")
			.addText((text) =>
				text.setValue(String(settings.approvalTimeoutSeconds)).onChange(async (value) => {
					const seconds = Number(value);
					if (Number.isInteger(seconds) && seconds >= 1 && seconds <= 3600) {
						settings.approvalTimeoutSeconds = seconds;
						await save();
					}
				}),
			);

		new Setting(containerEl).setName("Clients").setHeading();
		const target = this.clientTarget();
		for (const client of CLIENTS) {
			const row = new Setting(containerEl).setName(client.name);
			if (target === null) {
				row.setDesc("This vault has no folder on disk, so there is no config to copy.");
				continue;
			}
			row.setDesc(`Server entry for ${client.file}: over stdio (runs the native server) or over HTTP to the native server run here, with its token.`);
			for (const transport of ["stdio", "http"] as Transport[]) {
				if (clientConfig(client.id, transport, target) === null) continue;
				// Made at the click, so it has the token and port of that moment.
				const copy = async () => {
					const block = clientConfig(client.id, transport, this.clientTarget() ?? target);
					if (block !== null) await copyText(block, `${client.name} config`);
				};
				row.addButton((button) => button.setButtonText(transport === "stdio" ? "Copy stdio" : "Copy HTTP").onClick(copy));
			}
		}
	}

	/** What the client config blocks name, or null without a vault folder on disk. */
	clientTarget(): ClientConfigInput | null {
		const vaultPath = vaultBasePath(this.app);
		if (vaultPath === null) return null;
		const settings = this.plugin.settings;
		return {
			vaultName: this.app.vault.getName(),
			vaultPath,
			binary: clientCommand(settings.sidecarPath, process.platform),
			mcpUrl: mcpUrl(settings.mcpPort),
			mcpToken: settings.mcpToken,
		};
	}
}

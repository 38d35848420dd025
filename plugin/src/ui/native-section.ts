// The settings tab's native server section: the binary, its MCP endpoint's port, URL and token
// (masked, with Show, Copy and Regenerate), what the process is doing, the server's index and
// embedding progress (its `get_index_status`, asked again every 2 s while the tab is open),
// "Reindex now", and the plugin's own search index.
import { Setting, type TextComponent } from "obsidian";
import type TcBridgePlugin from "../main";
import { reindexNow } from "../search/reindex";
import type { IndexStart, VaultIndex } from "../search/vault-index";
import { isPort, newToken } from "../settings";
import { serverBinaryName } from "../sidecar/binary";
import { describeEmbeddings, describeIndex, type IndexStatus } from "../sidecar/index-status";
import { type NativeServer, mcpUrl } from "../sidecar/native-server";
import { copyText } from "./copy";

/** How often the open tab asks the native server for its index status. */
export const STATUS_POLL_MS = 2_000;

const MASK = "•".repeat(24);

/** What the native server process is doing, in words. */
export function serverStateText(native: NativeServer | null, binary: string): string {
	if (native === null) {
		return binary.trim().length > 0
			? "Not started: this vault has no folder on disk."
			: "Not set up: enter the path of the native server binary above.";
	}
	const s = native.status();
	const restarts = `restarted ${s.restarts} ${s.restarts === 1 ? "time" : "times"}`;
	switch (s.state) {
		case "starting":
			return "Starting.";
		case "running":
			return `Running (process ${String(s.pid)}), ${restarts}${s.lastError === null ? "" : `; last stop: ${s.lastError}`}.`;
		case "restarting":
			return `Restarting after: ${s.lastError ?? "it stopped"} (${restarts}).`;
		case "stopped":
			return "Stopped.";
	}
}

/** How the plugin's own index started, in words. */
function startText(start: IndexStart): string {
	const seconds = `${(start.ms / 1000).toFixed(1)} s`;
	return start.source === "snapshot"
		? `started from the saved index in ${seconds} (${start.read} notes read again, ${start.dropped} dropped)`
		: `built from the notes in ${seconds} (${start.reason ?? "no saved index"})`;
}

/** The plugin's own search index, in words. */
export function searchIndexText(index: VaultIndex | null): string {
	if (index === null) return "The search engine did not load.";
	const c = index.coverage();
	if (c.state !== "ready" || index.started === null) return `Building: ${c.notes} of ${c.total} notes read.`;
	return `Ready: ${c.notes} notes, ${c.chunks} chunks; ${startText(index.started)}.`;
}

/** The rows whose text follows the native server; `refresh` updates them. */
export class NativeSection {
	private stateRow: Setting | null = null;
	private statusRow: Setting | null = null;
	private indexRow: Setting | null = null;

	constructor(private readonly plugin: TcBridgePlugin) {}

	/** Adds the section's rows to `el`. */
	display(el: HTMLElement): void {
		const plugin = this.plugin;
		const settings = plugin.settings;
		const save = () => plugin.saveSettings();
		new Setting(el).setName("Native server").setHeading();

		new Setting(el)
			.setName("Native server binary")
			.setDesc(
				`Absolute path of the native server binary (${serverBinaryName(process.platform)}) to run next to this app, restarted if it crashes. Press restart to apply a change; leave empty for none.`,
			)
			.addText((text) =>
				text.setValue(settings.sidecarPath).onChange(async (value) => {
					settings.sidecarPath = value.trim();
					await save();
				}),
			);

		new Setting(el)
			.setName("Server port")
			.setDesc("Port of the native server's HTTP endpoint on 127.0.0.1. Press restart to apply a change.")
			.addText((text) =>
				text.setValue(String(settings.mcpPort)).onChange(async (value) => {
					const port = Number(value);
					if (isPort(port)) {
						settings.mcpPort = port;
						await save();
					}
				}),
			);

		new Setting(el)
			.setName("Server URL")
			.setDesc(mcpUrl(settings.mcpPort))
			.addButton((button) => button.setButtonText("Copy").onClick(() => copyText(mcpUrl(settings.mcpPort), "Server URL")));

		let tokenField: TextComponent | null = null;
		let shown = false;
		new Setting(el)
			.setName("Server token")
			.setDesc("Bearer token that clients of the native server must send. Regenerating it restarts the server; clients need the new one.")
			.addText((text) => {
				tokenField = text.setValue(MASK).setDisabled(true);
			})
			.addButton((button) =>
				button.setButtonText("Show").onClick(() => {
					shown = !shown;
					tokenField?.setValue(shown ? settings.mcpToken : MASK);
					button.setButtonText(shown ? "Hide" : "Show");
				}),
			)
			.addButton((button) => button.setButtonText("Copy").onClick(() => copyText(settings.mcpToken, "Server token")))
			.addButton((button) =>
				button.setButtonText("Regenerate").onClick(async () => {
					settings.mcpToken = newToken();
					if (shown) tokenField?.setValue(settings.mcpToken);
					await save();
					await plugin.restartNativeServer();
					this.refresh();
				}),
			);

		this.stateRow = new Setting(el)
			.setName("Server state")
			.addButton((button) =>
				button.setButtonText("Restart").onClick(async () => {
					await plugin.restartNativeServer();
					this.refresh();
				}),
			);

		this.statusRow = new Setting(el).setName("Index and embeddings");

		new Setting(el)
			.setName("Reindex now")
			.setDesc("Scan the vault again: in the native server when it runs, else rebuild this app's search index from every note.")
			.addButton((button) =>
				button.setButtonText("Reindex").onClick(async () => {
					if (plugin.searchIndex !== null) await reindexNow(plugin.searchIndex, plugin.native);
					this.refresh();
				}),
			);

		this.indexRow = new Setting(el).setName("Search index in this app");
		this.refresh();
	}

	/** Updates the state rows; the index status follows when the server answers. */
	refresh(): void {
		const plugin = this.plugin;
		this.stateRow?.setDesc(serverStateText(plugin.native, plugin.settings.sidecarPath));
		this.indexRow?.setDesc(searchIndexText(plugin.searchIndex));
		void this.refreshStatus();
	}

	/** Asks the native server for its index status and shows it. */
	private async refreshStatus(): Promise<void> {
		const row = this.statusRow;
		const native = this.plugin.native;
		if (row === null) return;
		if (native === null || !native.running()) {
			row.setDesc("The native server is not running.");
			return;
		}
		try {
			const answer = await native.callTool("get_index_status", {}, STATUS_POLL_MS);
			if (answer.isError) throw new Error(JSON.stringify(answer.value));
			const status = (answer.value ?? {}) as IndexStatus;
			row.setDesc(`${describeIndex(status)} ${describeEmbeddings(status)}`);
		} catch (err) {
			row.setDesc(`The native server did not answer: ${err instanceof Error ? err.message : String(err)}`);
		}
	}
}

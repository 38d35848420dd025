// Search in the plugin's lifecycle: the vault index started once the layout is ready (from its
// saved snapshot when it can be trusted; onload does not wait for it, and the bridge serves
// meanwhile), the `search` bridge tool, the "Search vault" and "Reindex now" commands, and the
// index saved and closed on unload.
import { apiVersion, normalizePath } from "obsidian";
import type TcBridgePlugin from "../main";
import type { ToolRegistry } from "../bridge/registry";
import type { ToolContext } from "../tools/context";
import { reindexNow } from "./reindex";
import { SearchModal } from "./search-modal";
import { searchTool } from "./search-tool";
import { SnapshotFile } from "./snapshot-file";
import { VaultIndex } from "./vault-index";

/** The plugin's folder, vault-relative (where Obsidian keeps its main.js and data.json). */
export function pluginFolder(plugin: TcBridgePlugin): string {
	return normalizePath(plugin.manifest.dir ?? `${plugin.app.vault.configDir}/plugins/${plugin.manifest.id}`);
}

/**
 * Adds search to `plugin`: the `search` tool in `registry` (gated by `ctx.gate`, the folder
 * access of the current settings) and the commands. Returns the index (starting in the
 * background).
 */
export function registerSearch(plugin: TcBridgePlugin, ctx: ToolContext, registry: ToolRegistry): VaultIndex {
	// Anything that shapes the index: the engine, and the plugin and app that read the notes.
	const build = `tc-bridge ${plugin.manifest.version}; obsidian ${apiVersion}; ${ctx.engine.buildId}`;
	const store = new SnapshotFile(plugin.app.vault.adapter, pluginFolder(plugin));
	const index = new VaultIndex(plugin.app, ctx.engine, store, build);
	plugin.register(() => index.close());
	plugin.register(registry.register(searchTool(index, () => ctx.gate)));
	plugin.addCommand({
		id: "search-vault",
		name: "Search vault",
		callback: () => new SearchModal(plugin.app, index, () => plugin.native).open(),
	});
	plugin.addCommand({
		id: "reindex-now",
		name: "Reindex now",
		callback: () => void reindexNow(index, plugin.native),
	});
	// Search failing to start must not stop the bridge from serving the other tools.
	const failed = (err: unknown) => console.error("TC Bridge: the search index could not be built", err);
	try {
		plugin.app.workspace.onLayoutReady(() => index.build().catch(failed));
	} catch (err) {
		failed(err);
	}
	return index;
}

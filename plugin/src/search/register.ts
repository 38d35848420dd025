// Search in the plugin's lifecycle: the vault index built once the layout is ready (onload does
// not wait for it, and the bridge serves meanwhile), the `search` bridge tool, the "Search vault"
// command, and the index closed on unload.
import type TcBridgePlugin from "../main";
import type { ToolRegistry } from "../server/registry";
import type { ToolContext } from "../tools/context";
import { SearchModal } from "./search-modal";
import { searchTool } from "./search-tool";
import { VaultIndex } from "./vault-index";

/**
 * Adds search to `plugin`: the `search` tool in `registry` (gated by `ctx.gate`, the folder
 * access of the current settings) and the "Search vault" command. Returns the index (building
 * in the background).
 */
export function registerSearch(plugin: TcBridgePlugin, ctx: ToolContext, registry: ToolRegistry): VaultIndex {
	const index = new VaultIndex(plugin.app, ctx.engine);
	plugin.register(() => index.close());
	plugin.register(registry.register(searchTool(index, () => ctx.gate)));
	plugin.addCommand({
		id: "search-vault",
		name: "Search vault",
		callback: () => new SearchModal(plugin.app, index).open(),
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

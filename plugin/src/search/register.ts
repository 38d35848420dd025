// Search in the plugin's lifecycle: the vault index built once the layout is ready (onload does
// not wait for it, and the bridge serves meanwhile), the `search` bridge tool, the "Search vault"
// command, and the index closed on unload.
import type TcBridgePlugin from "../main";
import { AccessGate } from "../acl/gate";
import type { Engine } from "../engine/load";
import { SearchModal } from "./search-modal";
import { searchTool } from "./search-tool";
import { VaultIndex } from "./vault-index";

/** Adds search to `plugin`, whose engine is loaded; returns the index (building in the background). */
export function registerSearch(plugin: TcBridgePlugin, engine: Engine): VaultIndex {
	const index = new VaultIndex(plugin.app, engine);
	plugin.register(() => index.close());
	const gate = () =>
		new AccessGate(engine, {
			folders: plugin.settings.folderAccess,
			unlisted: plugin.settings.unlistedAccess,
			allowWrites: plugin.settings.allowWrites,
		});
	const unregister = plugin.bridge?.registry.register(searchTool(index, gate));
	if (unregister) plugin.register(unregister);
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

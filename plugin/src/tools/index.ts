// The tools that run inside Obsidian, registered on the bridge's registry with one context.
import type { App } from "obsidian";
import { AccessGate } from "../acl/gate";
import type { Engine } from "../engine/engine";
import type { ToolRegistry } from "../bridge/registry";
import type { TcBridgeSettings } from "../settings";
import { commandTools } from "./commands";
import type { ToolContext } from "./context";
import { dailyNoteTools } from "./daily-note";
import { datacoreTools } from "./datacore";
import { dataviewTools } from "./dataview";
import { excalidrawTools } from "./excalidraw";
import { makemdTools } from "./makemd";
import { metadataMenuTools } from "./metadata-menu";
import { omnisearchTools } from "./omnisearch";
import { quickAddTools } from "./quickadd";
import { remotelySaveTools } from "./remotely-save";
import { tasksTools } from "./tasks";
import { templaterTools } from "./templater";
import { textExtractorTools } from "./text-extractor";
import { workspaceTools } from "./workspace";

/**
 * The tool context over the plugin's live settings: `settings()` is read at each call, and the
 * folder ACL is compiled by the engine again whenever the access settings change.
 */
export function toolContext(
	app: App,
	engine: Engine,
	settings: () => TcBridgeSettings,
	approve: ToolContext["approve"],
): ToolContext {
	let compiled: { key: string; gate: AccessGate } | null = null;
	return {
		app,
		engine,
		approve,
		get settings() {
			return settings();
		},
		get gate() {
			const { folderAccess, unlistedAccess, allowWrites } = settings();
			const key = JSON.stringify([folderAccess, unlistedAccess, allowWrites]);
			if (compiled?.key !== key) {
				compiled = { key, gate: new AccessGate(engine, { folders: folderAccess, unlisted: unlistedAccess, allowWrites }) };
			}
			return compiled.gate;
		},
	};
}

/** Registers every in-Obsidian tool (all but `search`); returns a function that unregisters them. */
export function registerObsidianTools(registry: ToolRegistry, ctx: ToolContext): () => void {
	const tools = [
		...workspaceTools(ctx),
		...commandTools(ctx),
		...dailyNoteTools(ctx),
		...dataviewTools(ctx),
		...tasksTools(ctx),
		...templaterTools(ctx),
		...quickAddTools(ctx),
		...textExtractorTools(ctx),
		...excalidrawTools(ctx),
		...makemdTools(ctx),
		...omnisearchTools(ctx),
		...remotelySaveTools(ctx),
		...datacoreTools(ctx),
		...metadataMenuTools(ctx),
	];
	const unregister = tools.map((tool) => registry.register(tool));
	return () => unregister.forEach((u) => u());
}

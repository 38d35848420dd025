// The tools that run inside Obsidian, registered on the bridge's registry with one context.
import type { App } from "obsidian";
import { AccessGate } from "../acl/gate";
import type { Engine } from "../engine/load";
import type { ToolRegistry } from "../server/registry";
import type { TcBridgeSettings } from "../settings";
import { commandTools } from "./commands";
import type { ToolContext } from "./context";
import { dailyNoteTools } from "./daily-note";
import { dataviewTools } from "./dataview";
import { excalidrawTools } from "./excalidraw";
import { makemdTools } from "./makemd";
import { omnisearchTools } from "./omnisearch";
import { quickAddTools } from "./quickadd";
import { tasksTools } from "./tasks";
import { templaterTools } from "./templater";
import { textExtractorTools } from "./text-extractor";
import { workspaceTools } from "./workspace";

/** The tool context: the folder ACL compiled from `settings` by the engine, and `approve`. */
export function toolContext(app: App, engine: Engine, settings: TcBridgeSettings, approve: ToolContext["approve"]): ToolContext {
	const gate = new AccessGate(engine, {
		folders: settings.folderAccess,
		unlisted: settings.unlistedAccess,
		allowWrites: settings.allowWrites,
	});
	return { app, engine, gate, settings, approve };
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
	];
	const unregister = tools.map((tool) => registry.register(tool));
	return () => unregister.forEach((u) => u());
}

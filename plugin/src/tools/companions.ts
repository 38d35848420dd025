// Where the in-Obsidian tools find the app internals that obsidian.d.ts does not type: the
// community plugin registry (`app.plugins`), the command palette (`app.commands`) and the core
// plugins (`app.internalPlugins`), and the companion plugins the tools drive, by manifest id.
import type { App, Command } from "obsidian";
import { CONTRACT } from "../companion/contract";

/** A plugin the tools drive: its manifest id, the name users know it by, and whether it is a core plugin. */
export interface Companion {
	id: string;
	name: string;
	core?: true;
}

/**
 * The companion plugins, by the manifest ids their authors publish (reference §3): the contract's
 * `plugins`, which the native server checks in the probe before it calls a route.
 */
export const COMPANIONS = {
	dataview: CONTRACT.plugins.dataview,
	tasks: CONTRACT.plugins.tasks,
	templater: CONTRACT.plugins.templater,
	quickadd: CONTRACT.plugins.quickadd,
	textExtractor: CONTRACT.plugins["text-extractor"],
	excalidraw: CONTRACT.plugins.excalidraw,
	makemd: CONTRACT.plugins["make-md"],
	omnisearch: CONTRACT.plugins.omnisearch,
	remotelySave: CONTRACT.plugins["remotely-save"],
	datacore: CONTRACT.plugins.datacore,
	metadataMenu: CONTRACT.plugins["metadata-menu"],
} satisfies Record<string, Companion>;

/** The core Daily notes plugin (an internal plugin, not a community one). */
export const DAILY_NOTES: Companion = { id: "daily-notes", name: "Daily notes", core: true };

/** The core Workspaces plugin, which saves and loads layouts. */
export const WORKSPACES: Companion = { id: "workspaces", name: "Workspaces", core: true };

interface PluginRegistry {
	plugins: Record<string, unknown>;
	enabledPlugins: Set<string>;
	manifests?: Record<string, { version?: string }>;
}

/** The command palette registry (undocumented; shape as in Local REST API's typings). */
export interface CommandRegistry {
	commands: Record<string, Command>;
	listCommands(): Command[];
	findCommand(id: string): Command | undefined;
	executeCommandById(id: string): boolean;
}

interface InternalPlugin {
	enabled: boolean;
	instance?: Record<string, unknown> & { options?: Record<string, unknown> };
}

interface InternalPluginRegistry {
	getPluginById?(id: string): InternalPlugin | null | undefined;
	plugins?: Record<string, InternalPlugin | undefined>;
}

interface AppInternals {
	plugins?: PluginRegistry;
	commands?: CommandRegistry;
	internalPlugins?: InternalPluginRegistry;
}

function internals(app: App): AppInternals {
	return app as unknown as AppInternals;
}

/** The companion's plugin instance when it is installed and enabled, else null. */
export function companionPlugin(app: App, companion: Companion): unknown {
	const registry = internals(app).plugins;
	if (registry === undefined || !registry.enabledPlugins.has(companion.id)) return null;
	return registry.plugins[companion.id] ?? null;
}

/** The companion's installed version (from its manifest), or null. */
export function companionVersion(app: App, companion: Companion): string | null {
	return internals(app).plugins?.manifests?.[companion.id]?.version ?? null;
}

/** The command palette, or null when this Obsidian does not expose it. */
export function commandRegistry(app: App): CommandRegistry | null {
	return internals(app).commands ?? null;
}

/** The instance of an enabled core plugin, else null. */
export function corePlugin(app: App, companion: Companion): Record<string, unknown> | null {
	const registry = internals(app).internalPlugins;
	const plugin = registry?.getPluginById?.(companion.id) ?? registry?.plugins?.[companion.id];
	if (plugin === undefined || plugin === null || !plugin.enabled) return null;
	return plugin.instance ?? {};
}

/** The options of an enabled core plugin (e.g. Daily notes' folder and format), else null. */
export function corePluginOptions(app: App, companion: Companion): Record<string, unknown> | null {
	const instance = corePlugin(app, companion);
	if (instance === null) return null;
	const options = instance.options;
	return typeof options === "object" && options !== null ? (options as Record<string, unknown>) : {};
}

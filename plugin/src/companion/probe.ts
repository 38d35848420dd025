// `GET /obsidian-tc/v1/probe` (seed 000 §6): plugin and Obsidian versions, the Companion API
// version, the vault name, which bridgeable plugins are installed, and the startup self-check of
// the Obsidian internals the plugin duck-types.
import { apiVersion, type App } from "obsidian";
import { CONTRACT } from "./contract";

/** The Companion API major version this plugin speaks (the contract's). */
export const COMPANION_API_VERSION = CONTRACT.api_version;

/** Capability key → manifest id of each bridgeable plugin (the shipped `CAP_IDS`; the contract's `plugins`). */
export const CAPABILITY_IDS: Readonly<Record<string, string>> = Object.fromEntries(
	Object.entries(CONTRACT.plugins).map(([key, plugin]) => [key, plugin.id]),
);

/** One bridgeable plugin: installed (its manifest is known), enabled, and its version. */
export interface Capability {
	installed: boolean;
	enabled?: boolean;
	version?: string;
}

/** The result of the self-check: ok, or what was not shaped as expected. */
export interface ShapeReport {
	shape_ok: boolean;
	shape_warnings: string[];
}

/** The undocumented parts of `App` the plugin reads, all optional until checked. */
interface AppInternals {
	plugins?: {
		plugins?: Record<string, unknown>;
		enabledPlugins?: { has?: unknown };
		manifests?: Record<string, { version?: unknown } | undefined>;
	};
	commands?: { commands?: unknown; executeCommandById?: unknown; listCommands?: unknown };
	internalPlugins?: { getPluginById?: unknown };
	workspace?: { getActiveFile?: unknown; getLeaf?: unknown };
	vault?: { getName?: unknown };
	metadataCache?: { getFirstLinkpathDest?: unknown };
}

function internals(app: App): AppInternals {
	return app;
}

function isObject(v: unknown): boolean {
	return typeof v === "object" && v !== null;
}

/** Each internal and how to tell it has the expected shape. */
const SHAPE_CHECKS: ReadonlyArray<[string, (a: AppInternals) => boolean]> = [
	["app.plugins.plugins", (a) => isObject(a.plugins?.plugins)],
	["app.plugins.enabledPlugins", (a) => typeof a.plugins?.enabledPlugins?.has === "function"],
	["app.plugins.manifests", (a) => isObject(a.plugins?.manifests)],
	["app.commands.commands", (a) => isObject(a.commands?.commands)],
	["app.commands.listCommands", (a) => typeof a.commands?.listCommands === "function"],
	["app.commands.executeCommandById", (a) => typeof a.commands?.executeCommandById === "function"],
	["app.internalPlugins.getPluginById", (a) => typeof a.internalPlugins?.getPluginById === "function"],
	["app.workspace.getActiveFile", (a) => typeof a.workspace?.getActiveFile === "function"],
	["app.workspace.getLeaf", (a) => typeof a.workspace?.getLeaf === "function"],
	["app.vault.getName", (a) => typeof a.vault?.getName === "function"],
	["app.metadataCache.getFirstLinkpathDest", (a) => typeof a.metadataCache?.getFirstLinkpathDest === "function"],
];

/** Checks every duck-typed internal once; a warning names each one that is missing or misshapen. */
export function checkShape(app: App): ShapeReport {
	const a = internals(app);
	const warnings = SHAPE_CHECKS.filter(([, ok]) => !ok(a)).map(
		([name]) => `${name} is missing or not shaped as expected; tools that rely on it will fail`,
	);
	return { shape_ok: warnings.length === 0, shape_warnings: warnings };
}

/** The capability of each bridgeable plugin, from Obsidian's plugin registry. */
export function capabilities(app: App): Record<string, Capability> {
	const plugins = internals(app).plugins;
	const out: Record<string, Capability> = {};
	for (const [key, id] of Object.entries(CAPABILITY_IDS)) {
		const manifest = plugins?.manifests?.[id];
		if (manifest === undefined) {
			out[key] = { installed: false };
			continue;
		}
		const enabledSet = plugins?.enabledPlugins;
		const enabled =
			typeof enabledSet?.has === "function" &&
			Boolean((enabledSet.has as (id: string) => unknown).call(enabledSet, id)) &&
			plugins?.plugins?.[id] !== undefined;
		const capability: Capability = { installed: true, enabled };
		if (typeof manifest.version === "string") capability.version = manifest.version;
		out[key] = capability;
	}
	return out;
}

/** Everything the probe answers with (the `result` of the envelope). */
export function probe(app: App, pluginVersion: string, shape: ShapeReport): Record<string, unknown> {
	const vault = internals(app).vault;
	return {
		plugin_version: pluginVersion,
		obsidian_version: apiVersion,
		obsidianTcApiVersion: COMPANION_API_VERSION,
		vault_path: typeof vault?.getName === "function" ? String(app.vault.getName()) : "",
		capabilities: capabilities(app),
		shape_ok: shape.shape_ok,
		shape_warnings: shape.shape_warnings,
	};
}

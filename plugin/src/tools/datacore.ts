// Datacore: a query in its own language (`@page and #tag`), through the plugin's API
// (`app.plugins.plugins.datacore.api`). Followed: Datacore 0.1.28 (blacksmithgu/datacore, commit
// 31a8b18, 2025-12): `api.tryParseQuery(query)` and `api.tryQuery(query)` answer a Result
// `{successful, value | error}`; `api.core.initialized` says whether the index is ready. Each
// result object (`Indexable`) names its note by `$path` (files) or `$file` (sections, blocks,
// list items); its frontmatter is `$frontmatter[lowercase key] = {key, value, raw}`.
import type { BridgeTool } from "../bridge/registry";
import { mayRead } from "./access";
import { COMPANIONS, companionPlugin } from "./companions";
import type { ToolContext } from "./context";
import { allReadable, type Json, toJson } from "./dataview-values";
import { companionCall, defineTool, fail, integerArg, stringArg } from "./define";
import { pluginMissing, toolOk } from "./result";

const DATACORE = COMPANIONS.datacore;

/** The most rows one call returns. */
export const MAX_ROWS = 500;

type DatacoreResult<T> = { successful: true; value: T } | { successful: false; error: string };

/** The part of Datacore's `DatacoreApi` (src/api/api.ts) the tool calls. */
interface DatacoreApi {
	tryQuery(query: unknown): DatacoreResult<unknown[]>;
	tryParseQuery?(query: string): DatacoreResult<unknown>;
	core?: { initialized?: boolean };
}

/** The fields of a Datacore `Indexable` the tool reads. */
interface Indexable {
	$path?: unknown;
	$file?: unknown;
	$name?: unknown;
	$tags?: unknown;
	$types?: unknown;
	$frontmatter?: Record<string, { key?: unknown; value?: unknown }>;
}

/** One row of the answer. */
interface Item {
	path: string | null;
	name: string | null;
	tags: string[];
	types: string[];
	fields: Record<string, Json>;
}

function strings(value: unknown): string[] {
	return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** A result object as plain JSON: its note, name, tags, types and frontmatter values. */
function item(row: Indexable): Item {
	const path = typeof row.$path === "string" ? row.$path : typeof row.$file === "string" ? row.$file : null;
	const fields: Record<string, Json> = {};
	for (const [lower, entry] of Object.entries(row.$frontmatter ?? {})) {
		fields[typeof entry?.key === "string" ? entry.key : lower] = toJson(entry?.value);
	}
	return { path, name: typeof row.$name === "string" ? row.$name : null, tags: strings(row.$tags), types: strings(row.$types), fields };
}

/** The API once Datacore has indexed the vault; null when Datacore is absent or disabled. */
function readyApi(ctx: ToolContext): DatacoreApi | null {
	const api = (companionPlugin(ctx.app, DATACORE) as { api?: DatacoreApi } | null)?.api;
	if (api === undefined || api === null) return null;
	if (api.core?.initialized === false) {
		fail("plugin_not_ready", "Datacore is still indexing the vault; retry in a few seconds.", { plugin: DATACORE.id });
	}
	return api;
}

/** `query_datacore`. */
export function datacoreTools(ctx: ToolContext): BridgeTool[] {
	const readable = (path: string) => mayRead(ctx, path);
	/** A row may be shown when its note and every note its fields link to are readable; a row of no note only when every note is. */
	const shown = (row: Item) => (row.path === null ? ctx.gate.readsEverything() : readable(row.path)) && allReadable(row.fields, readable);
	return [
		defineTool({
			name: "query_datacore",
			description:
				"Runs a query in Datacore's own language (e.g. `@page and #book`) and returns {items: [{path, name, tags, types, fields}], total, query}: fields are the frontmatter values as JSON. Rows naming notes you may not read are left out (and rows of no note, unless you may read every note).",
			inputSchema: {
				type: "object",
				properties: {
					query: { type: "string", description: 'e.g. @page and #book, or @task and $completed = false' },
					limit: { type: "integer", minimum: 1, maximum: MAX_ROWS, default: MAX_ROWS },
				},
				required: ["query"],
			},
			run: async (args) => {
				const api = readyApi(ctx);
				if (api === null) return pluginMissing(DATACORE.id, DATACORE.name);
				const query = stringArg(args, "query");
				const limit = integerArg(args, "limit", MAX_ROWS, 1, MAX_ROWS);
				const parsed = typeof api.tryParseQuery === "function" ? await companionCall(DATACORE.name, () => api.tryParseQuery?.(query)) : undefined;
				if (parsed !== undefined && !parsed.successful) fail("dql_error", parsed.error, { query });
				const result = await companionCall(DATACORE.name, () => api.tryQuery(parsed === undefined ? query : parsed.value));
				if (!result.successful) fail("dql_error", result.error, { query });
				const rows = (Array.isArray(result.value) ? result.value : []).map((row) => item((row ?? {}) as Indexable)).filter(shown);
				return toolOk({ items: rows.slice(0, limit), total: rows.length, query });
			},
		}),
	];
}

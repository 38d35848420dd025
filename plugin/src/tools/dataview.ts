// Dataview: DQL queries, their validation, and field expressions against one note, through the
// plugin's API (`app.plugins.plugins.dataview.api`). Results are plain JSON; rows that name a
// note the caller may not read are dropped.
import type { BridgeTool } from "../bridge/registry";
import { mayRead, readableFile, requireRead } from "./access";
import { COMPANIONS, companionPlugin } from "./companions";
import type { ToolContext } from "./context";
import { allReadable, type Json, toJson } from "./dataview-values";
import { companionCall, defineTool, fail, optionalString, stringArg } from "./define";
import { pluginMissing, toolOk } from "./result";

type DataviewResult = { successful: true; value: unknown } | { successful: false; error: string };

/** The part of Dataview's `DataviewApi` (src/api/plugin-api.ts) the tools call. */
interface DataviewApi {
	query(source: string, originFile?: string): Promise<DataviewResult>;
	evaluate(expression: string, context?: unknown, originFile?: string): DataviewResult | Promise<DataviewResult>;
	page(path: string, originFile?: string): unknown;
	index?: { initialized?: boolean };
}

const DV = COMPANIONS.dataview;

/** DQL's query types; anything else (dataviewjs, inline JS) is refused. */
const QUERY_TYPE = /^\s*(table|list|task|calendar)\b/i;

function dataviewApi(ctx: ToolContext): DataviewApi | null {
	const plugin = companionPlugin(ctx.app, DV) as { api?: DataviewApi } | null;
	return plugin?.api ?? null;
}

/** The API once Dataview has indexed the vault; null when Dataview is absent or disabled. */
function readyApi(ctx: ToolContext): DataviewApi | null {
	const api = dataviewApi(ctx);
	if (api === null) return null;
	if (api.index?.initialized === false) {
		fail("plugin_not_ready", "Dataview is still indexing the vault; retry in a few seconds.", { plugin: DV.id });
	}
	return api;
}

function dqlSource(args: Record<string, unknown>): string {
	const query = stringArg(args, "query");
	if (!QUERY_TYPE.test(query)) {
		fail("invalid_input", "A DQL query starts with TABLE, LIST, TASK or CALENDAR (DataviewJS is not run).", { argument: "query" });
	}
	return query;
}

/** `search_dql`, `validate_dql` and `eval_dataview_field`. */
export function dataviewTools(ctx: ToolContext): BridgeTool[] {
	const readable = (path: string) => mayRead(ctx, path);
	return [
		defineTool({
			name: "search_dql",
			description:
				"Runs a Dataview DQL query (TABLE, LIST, TASK or CALENDAR) and returns its result as JSON: {type, headers?, values}. Rows naming notes you may not read are left out.",
			inputSchema: {
				type: "object",
				properties: {
					query: { type: "string", description: 'e.g. TABLE file.mtime FROM "Projects" SORT file.mtime DESC' },
					origin: { type: "string", description: "Note the query runs from (for `this` and relative links)." },
				},
				required: ["query"],
			},
			run: async (args) => {
				const api = readyApi(ctx);
				if (api === null) return pluginMissing(DV.id, DV.name);
				const query = dqlSource(args);
				const originArg = optionalString(args, "origin");
				const origin = originArg === undefined ? undefined : requireRead(ctx, originArg);
				const result = await companionCall(DV.name, () => api.query(query, origin));
				if (!result.successful) fail("dql_error", result.error, { query });
				const value = toJson(result.value);
				const body = (value !== null && typeof value === "object" && !Array.isArray(value) ? value : {}) as Record<string, Json>;
				const rows = Array.isArray(body.values) ? body.values : [];
				const kept = rows.filter((row) => allReadable(row, readable));
				const out: Record<string, Json> = { type: body.type ?? null, values: kept };
				if (Array.isArray(body.headers)) out.headers = body.headers;
				return toolOk(out);
			},
		}),
		defineTool({
			name: "validate_dql",
			description:
				"Checks a Dataview DQL query: {valid: true, type} or {valid: false, error} with Dataview's parse error. Dataview's API has no parse-only call, so the query runs read-only and its rows are discarded.",
			inputSchema: {
				type: "object",
				properties: { query: { type: "string" } },
				required: ["query"],
			},
			run: async (args) => {
				const api = readyApi(ctx);
				if (api === null) return pluginMissing(DV.id, DV.name);
				const query = dqlSource(args);
				const result = await companionCall(DV.name, () => api.query(query));
				if (!result.successful) return toolOk({ valid: false, error: result.error });
				const type = (result.value as { type?: unknown } | null)?.type;
				return toolOk({ valid: true, type: typeof type === "string" ? type : null });
			},
		}),
		defineTool({
			name: "eval_dataview_field",
			description:
				"Evaluates a Dataview expression (e.g. `file.mtime`, `length(file.outlinks)`, `due - date(today)`) with one note as its context; returns {path, expression, value}.",
			inputSchema: {
				type: "object",
				properties: {
					path: { type: "string", description: "The note whose fields the expression reads." },
					expression: { type: "string" },
				},
				required: ["path", "expression"],
			},
			run: async (args) => {
				const api = readyApi(ctx);
				if (api === null) return pluginMissing(DV.id, DV.name);
				const file = readableFile(ctx, stringArg(args, "path"));
				const expression = stringArg(args, "expression");
				const page = await companionCall(DV.name, () => api.page(file.path));
				if (page === undefined || page === null) {
					fail("not_found", `Dataview has no page for '${file.path}' (only Markdown notes are indexed).`, { path: file.path });
				}
				const result = await companionCall(DV.name, () => api.evaluate(expression, page, file.path));
				if (!result.successful) fail("dql_error", result.error, { expression });
				const value = toJson(result.value);
				if (!allReadable(value, readable)) {
					fail("acl_denied", "The expression's value names a note you may not read.", { path: file.path });
				}
				return toolOk({ path: file.path, expression, value });
			},
		}),
	];
}

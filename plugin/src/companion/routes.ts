// The Companion API v1 route table (seed 000 §3.1): each path under /obsidian-tc/v1 and the
// bridge tool it runs. Data only; api.ts does the dispatch.

export const COMPANION_PREFIX = "/obsidian-tc/v1";

/**
 * Which tool a route runs: one name, or a choice by a string argument (`by`), whose value picks
 * the tool (`default` when absent). The choosing argument is not passed on to the tool.
 */
export type ToolChoice = string | { by: string; tools: Record<string, string>; default: string };

/**
 * One route. "GET" routes only list things: they also accept POST with a JSON body of arguments
 * (the shipped companion used POST everywhere); "POST" routes accept POST only.
 */
export interface CompanionRoute {
	path: string;
	method: "GET" | "POST";
	tool: ToolChoice;
}

/** Every tool route, in the order of seed 000 §3.1, then the in-Obsidian extras. */
export const COMPANION_ROUTES: readonly CompanionRoute[] = [
	{ path: "/commands/list", method: "GET", tool: "list_commands" },
	{ path: "/commands/execute", method: "POST", tool: "execute_command" },
	{ path: "/dataview/dql", method: "POST", tool: "search_dql" },
	{ path: "/dataview/eval", method: "POST", tool: "eval_dataview_field" },
	{ path: "/dataview/validate", method: "POST", tool: "validate_dql" },
	{ path: "/tasks/filter", method: "POST", tool: "tasks_filter" },
	{ path: "/templater/list", method: "GET", tool: "list_templates" },
	{ path: "/templater/execute", method: "POST", tool: "execute_template" },
	{ path: "/quickadd/actions", method: "GET", tool: "list_quickadd_actions" },
	{ path: "/quickadd/trigger", method: "POST", tool: "trigger_quickadd" },
	{ path: "/ocr/attachment", method: "POST", tool: "ocr_attachment" },
	{ path: "/ocr/bulk", method: "POST", tool: "ocr_bulk" },
	{ path: "/excalidraw/read", method: "POST", tool: "read_excalidraw" },
	{
		path: "/excalidraw/write",
		method: "POST",
		tool: { by: "mode", tools: { create: "create_excalidraw", update: "update_excalidraw" }, default: "create" },
	},
	{ path: "/makemd/spaces", method: "POST", tool: "makemd_list_spaces" },
	{ path: "/makemd/query", method: "POST", tool: "makemd_query" },
	{ path: "/omnisearch/search", method: "POST", tool: "search_omnisearch" },
	{ path: "/daily-notes/resolve", method: "POST", tool: "resolve_daily_note" },
	{ path: "/notes/active", method: "GET", tool: "get_active_note" },
	{ path: "/notes/open", method: "POST", tool: "open_note" },
	{ path: "/workspaces/open", method: "POST", tool: "open_workspace" },
	{ path: "/search", method: "POST", tool: "search" },
];

const BY_PATH = new Map(COMPANION_ROUTES.map((r) => [`${COMPANION_PREFIX}${r.path}`, r]));

/** The route of a full request path, or undefined. */
export function findRoute(path: string): CompanionRoute | undefined {
	return BY_PATH.get(path);
}

/** The methods a route accepts. */
export function allowedMethods(route: CompanionRoute): string[] {
	return route.method === "GET" ? ["GET", "POST"] : ["POST"];
}

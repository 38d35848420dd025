// make.md: its spaces (`superstate.spacesIndex`) and the rows of a space's table
// (`superstate.api.table.select`). make.md has no documented API for other plugins, so both
// are feature-detected and an older or newer shape answers plugin_incompatible.
import type { BridgeTool } from "../bridge/registry";
import { mayRead } from "./access";
import { COMPANIONS, companionPlugin, companionVersion } from "./companions";
import type { ToolContext } from "./context";
import { companionCall, defineTool, fail, optionalString, stringArg } from "./define";
import { pluginMissing, toolOk } from "./result";

const MAKEMD = COMPANIONS.makemd;

/** make.md's `SpaceState` (src/shared/types/PathState.ts), the fields the tools read. */
interface SpaceState {
	name: string;
	path: string;
	type: string;
	contexts?: string[];
}

interface Superstate {
	spacesIndex: Map<string, SpaceState>;
	api?: { table?: { select?(path: string, table: string): Promise<Record<string, string>[] | undefined> } };
}

function superstate(ctx: ToolContext): Superstate | null {
	const plugin = companionPlugin(ctx.app, MAKEMD) as { superstate?: Superstate } | null;
	if (plugin === null) return null;
	const state = plugin.superstate;
	if (state === undefined || !(state.spacesIndex instanceof Map)) {
		const version = companionVersion(ctx.app, MAKEMD);
		fail("plugin_incompatible", `make.md${version === null ? "" : ` ${version}`} does not expose superstate.spacesIndex.`, { plugin: MAKEMD.id });
	}
	return state;
}

/** A folder space is readable when its folder is; tag and other spaces are not vault paths. */
function spaceReadable(ctx: ToolContext, space: SpaceState): boolean {
	return space.type !== "folder" || mayRead(ctx, space.path);
}

/** `makemd_list_spaces` and `makemd_query`. */
export function makemdTools(ctx: ToolContext): BridgeTool[] {
	return [
		defineTool({
			name: "makemd_list_spaces",
			description: "Lists make.md's spaces (folder, tag and other spaces): name, path, type and contexts.",
			inputSchema: { type: "object", properties: {} },
			run: async () => {
				const state = superstate(ctx);
				if (state === null) return pluginMissing(MAKEMD.id, MAKEMD.name);
				const items = [...state.spacesIndex.values()]
					.filter((s) => spaceReadable(ctx, s))
					.map((s) => ({ name: s.name, path: s.path, type: s.type, contexts: s.contexts ?? [] }))
					.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
				return toolOk({ items });
			},
		}),
		defineTool({
			name: "makemd_query",
			description: "Reads the rows of a make.md space's table (default 'files', the space's items). Rows naming notes you may not read are left out.",
			inputSchema: {
				type: "object",
				properties: {
					space: { type: "string", description: "Space path (see makemd_list_spaces)." },
					table: { type: "string", default: "files" },
				},
				required: ["space"],
			},
			run: async (args) => {
				const state = superstate(ctx);
				if (state === null) return pluginMissing(MAKEMD.id, MAKEMD.name);
				const path = stringArg(args, "space");
				const table = optionalString(args, "table") ?? "files";
				const tableApi = state.api?.table;
				if (typeof tableApi?.select !== "function") {
					fail("plugin_incompatible", "This version of make.md does not expose superstate.api.table.select.", { plugin: MAKEMD.id });
				}
				const space = state.spacesIndex.get(path);
				if (space === undefined) fail("not_found", `make.md has no space '${path}' (see makemd_list_spaces).`, { space: path });
				if (!spaceReadable(ctx, space)) fail("acl_denied", `Reading the space '${path}' is not allowed.`, { space: path });
				const rows = (await companionCall(MAKEMD.name, () => tableApi.select?.(path, table))) ?? [];
				const vault = ctx.app.vault;
				const names = (v: string) => vault.getAbstractFileByPath(v) !== null && !mayRead(ctx, v);
				const items = rows.filter((row) => !Object.values(row).some((v) => typeof v === "string" && names(v)));
				return toolOk({ space: path, table, items });
			},
		}),
	];
}

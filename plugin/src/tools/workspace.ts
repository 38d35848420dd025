// The editor's tools: which note is active, opening a note for the human, and switching to a
// saved workspace layout (the core Workspaces plugin).
import type { BridgeTool } from "../bridge/registry";
import { readableFile, requireRead } from "./access";
import { corePlugin, WORKSPACES } from "./companions";
import type { ToolContext } from "./context";
import { booleanArg, companionCall, defineTool, fail, stringArg } from "./define";
import { pluginMissing, toolOk } from "./result";

/** The part of the Workspaces plugin's instance `open_workspace` uses (not typed by obsidian.d.ts). */
interface WorkspacesInstance {
	workspaces?: Record<string, unknown>;
	activeWorkspace?: string;
	loadWorkspace?(name: string): unknown;
}

/** `get_active_note`, `open_note` and `open_workspace`. */
export function workspaceTools(ctx: ToolContext): BridgeTool[] {
	return [
		defineTool({
			name: "get_active_note",
			description:
				"The note open in the active editor: its path, frontmatter and (unless include_content is false) its text. Answers {note: null} when no note is active.",
			inputSchema: {
				type: "object",
				properties: {
					include_content: { type: "boolean", default: true, description: "Include the note's text." },
				},
			},
			run: async (args) => {
				const includeContent = booleanArg(args, "include_content", true);
				const file = ctx.app.workspace.getActiveFile();
				if (file === null) return toolOk({ note: null });
				const path = requireRead(ctx, file.path);
				const frontmatter = ctx.app.metadataCache.getFileCache(file)?.frontmatter ?? null;
				const note: Record<string, unknown> = {
					path,
					name: file.basename,
					extension: file.extension,
					frontmatter,
					mtime: file.stat.mtime,
					size: file.stat.size,
				};
				if (includeContent) note.content = await ctx.app.vault.cachedRead(file);
				return toolOk({ note });
			},
		}),
		defineTool({
			name: "open_note",
			description: "Opens a note (or any vault file) in Obsidian for the human, in the active tab or a new one.",
			inputSchema: {
				type: "object",
				properties: {
					path: { type: "string", description: "Vault-relative path; '.md' may be left off." },
					new_tab: { type: "boolean", default: false, description: "Open in a new tab." },
				},
				required: ["path"],
			},
			run: async (args) => {
				const file = readableFile(ctx, stringArg(args, "path"));
				const newTab = booleanArg(args, "new_tab", false);
				await ctx.app.workspace.getLeaf(newTab).openFile(file);
				return toolOk({ path: file.path, opened: true });
			},
		}),
		defineTool({
			name: "open_workspace",
			description:
				"Switches Obsidian to a workspace layout saved with the core Workspaces plugin (its panes, splits, sidebars and tabs). Answers the layout now active.",
			inputSchema: {
				type: "object",
				properties: {
					name: { type: "string", description: "The saved workspace's name, as list_workspaces gives it." },
				},
				required: ["name"],
			},
			run: async (args) => {
				const name = stringArg(args, "name");
				const instance = corePlugin(ctx.app, WORKSPACES) as WorkspacesInstance | null;
				if (instance === null || typeof instance.loadWorkspace !== "function") {
					return pluginMissing(WORKSPACES.id, WORKSPACES.name, true);
				}
				const saved = instance.workspaces ?? {};
				if (!Object.prototype.hasOwnProperty.call(saved, name)) {
					fail("not_found", `No saved workspace is named '${name}'.`, { workspace: name, saved: Object.keys(saved).sort() });
				}
				await companionCall(WORKSPACES.name, () => instance.loadWorkspace?.(name));
				return toolOk({ name, opened: true, active: instance.activeWorkspace ?? name });
			},
		}),
	];
}

// The editor's tools: which note is active, and opening a note for the human.
import type { BridgeTool } from "../server/registry";
import { readableFile, requireRead } from "./access";
import type { ToolContext } from "./context";
import { booleanArg, defineTool, stringArg } from "./define";
import { toolOk } from "./result";

/** `get_active_note` and `open_note`. */
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
	];
}

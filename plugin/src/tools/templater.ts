// Templater: listing the templates in its template folder, and creating a note from one
// (templates can run JavaScript, so this needs writes on and the human's approval).
import { normalizePath, TFile } from "obsidian";
import type { BridgeTool } from "../bridge/registry";
import { readableFile, readableFiles, requireApproval, requireWrite } from "./access";
import { COMPANIONS, companionPlugin } from "./companions";
import type { ToolContext } from "./context";
import { companionCall, defineTool, fail, stringArg } from "./define";
import { pluginMissing, toolOk } from "./result";

const TEMPLATER = COMPANIONS.templater;

/** What Templater's plugin instance exposes (src/main.ts, src/core/Templater.ts). */
interface TemplaterPlugin {
	settings: { templates_folder: string };
	templater: {
		create_new_note_from_template(template: TFile, folder?: string, filename?: string, openNewNote?: boolean): Promise<TFile | undefined>;
	};
}

function templaterPlugin(ctx: ToolContext): TemplaterPlugin | null {
	return companionPlugin(ctx.app, TEMPLATER) as TemplaterPlugin | null;
}

function templatesFolder(plugin: TemplaterPlugin): string {
	const folder = (plugin.settings?.templates_folder ?? "").trim();
	if (folder === "" || folder === "/") {
		fail("not_found", "Templater has no template folder; set \"Template folder location\" in Templater's settings.");
	}
	return normalizePath(folder);
}

/** `list_templates` and `execute_template`. */
export function templaterTools(ctx: ToolContext): BridgeTool[] {
	return [
		defineTool({
			name: "list_templates",
			description: "Lists the Templater templates (the Markdown files in Templater's template folder) with their frontmatter.",
			inputSchema: { type: "object", properties: {} },
			run: async () => {
				const plugin = templaterPlugin(ctx);
				if (plugin === null) return pluginMissing(TEMPLATER.id, TEMPLATER.name);
				const folder = templatesFolder(plugin);
				const items = readableFiles(ctx, folder)
					.filter((f) => f.extension === "md")
					.map((f) => ({
						path: f.path,
						name: f.basename,
						frontmatter: ctx.app.metadataCache.getFileCache(f)?.frontmatter ?? null,
					}));
				return toolOk({ folder, items });
			},
		}),
		defineTool({
			name: "execute_template",
			writes: true,
			description:
				"Creates a new note at `target` from a Templater template (Templater runs the template, including its JavaScript). Needs writes on; the human approves each run. Never overwrites.",
			inputSchema: {
				type: "object",
				properties: {
					template: { type: "string", description: "Template path (see list_templates)." },
					target: { type: "string", description: "Path of the new note, e.g. 'Meetings/2026-05-01.md'." },
				},
				required: ["template", "target"],
			},
			run: async (args) => {
				const plugin = templaterPlugin(ctx);
				if (plugin === null) return pluginMissing(TEMPLATER.id, TEMPLATER.name);
				const templateFile = readableFile(ctx, stringArg(args, "template"));
				const targetArg = stringArg(args, "target");
				const target = requireWrite(ctx, "execute_template", targetArg.endsWith(".md") ? targetArg : `${targetArg}.md`);
				if (ctx.app.vault.getAbstractFileByPath(target) !== null) {
					fail("note_exists", `'${target}' already exists; choose another target.`, { path: target });
				}
				const slash = target.lastIndexOf("/");
				const folder = slash < 0 ? "" : target.slice(0, slash);
				const basename = target.slice(slash + 1, -".md".length);
				await requireApproval(ctx, {
					tool: "execute_template",
					path: target,
					summary: `Create '${target}' from the Templater template '${templateFile.path}' (the template's code runs).`,
				});
				const created = await companionCall(TEMPLATER.name, () =>
					plugin.templater.create_new_note_from_template(templateFile, folder, basename, false),
				);
				if (!(created instanceof TFile)) {
					fail("plugin_error", "Templater did not create the note; the template failed (see Templater's notice in Obsidian).", { plugin: TEMPLATER.id });
				}
				return toolOk({ path: created.path, template: templateFile.path, created: true });
			},
		}),
	];
}

// `resolve_daily_note`: the path of the daily note for a date, from the core Daily notes
// plugin's settings (folder, moment.js format, template), as Obsidian itself names it.
import { moment, normalizePath } from "obsidian";
import type { BridgeTool } from "../bridge/registry";
import { fileAt, requireRead } from "./access";
import { corePluginOptions, DAILY_NOTES } from "./companions";
import type { ToolContext } from "./context";
import { defineTool, fail, optionalString } from "./define";
import { pluginMissing, toolOk } from "./result";

/** Daily notes' own default when its format setting is empty. */
const DEFAULT_FORMAT = "YYYY-MM-DD";

function option(options: Record<string, unknown>, key: string): string {
	const v = options[key];
	return typeof v === "string" ? v.trim() : "";
}

/** `resolve_daily_note`. */
export function dailyNoteTools(ctx: ToolContext): BridgeTool[] {
	return [
		defineTool({
			name: "resolve_daily_note",
			description:
				"Resolves the daily note for a date (default today) with the core Daily notes plugin's folder and date format: its path, whether it exists, and the template new daily notes use.",
			inputSchema: {
				type: "object",
				properties: {
					date: { type: "string", description: "YYYY-MM-DD, or 'today', 'yesterday', 'tomorrow' (default today)." },
				},
			},
			run: async (args) => {
				const options = corePluginOptions(ctx.app, DAILY_NOTES);
				if (options === null) return pluginMissing(DAILY_NOTES.id, DAILY_NOTES.name, true);
				const asked = optionalString(args, "date") ?? "today";
				const offsets: Record<string, number> = { today: 0, yesterday: -1, tomorrow: 1 };
				const offset = offsets[asked];
				const date = offset !== undefined ? moment().startOf("day").add(offset, "days") : moment(asked, "YYYY-MM-DD", true);
				if (!date.isValid()) {
					fail("invalid_input", `Argument 'date' must be YYYY-MM-DD, 'today', 'yesterday' or 'tomorrow', not '${asked}'.`, { argument: "date" });
				}
				const format = option(options, "format") || DEFAULT_FORMAT;
				const folder = option(options, "folder");
				const template = option(options, "template");
				const path = requireRead(ctx, normalizePath(`${folder}/${date.format(format)}.md`));
				return toolOk({
					date: date.format("YYYY-MM-DD"),
					path,
					exists: fileAt(ctx, path) !== null,
					folder,
					format,
					template: template === "" ? null : normalizePath(template.endsWith(".md") ? template : `${template}.md`),
				});
			},
		}),
	];
}

// Metadata Menu: a note's typed fields through the plugin's API (`app.plugins.plugins
// ["metadata-menu"].api`). Followed: Metadata Menu 0.8.10 (mdelobelle/metadatamenu, commit
// b00f2cc, 2025-10): `api.namedFileFields(fileOrPath)` resolves to a record keyed by each
// field's name (dotted for nested fields) of `IFieldInfo` {name, type, value, isValid,
// sourceType: "fileClass" | "settings", fileClassName, ...} (src/commands/fileFields.ts).
import type { BridgeTool } from "../bridge/registry";
import { readableFile } from "./access";
import { COMPANIONS, companionPlugin } from "./companions";
import type { ToolContext } from "./context";
import { type Json, toJson } from "./dataview-values";
import { companionCall, defineTool, fail, stringArg } from "./define";
import { pluginMissing, toolOk } from "./result";

const METADATA_MENU = COMPANIONS.metadataMenu;

/** The fields of Metadata Menu's `IFieldInfo` the tool returns. */
interface FieldInfo {
	type?: unknown;
	value?: unknown;
	isValid?: unknown;
	sourceType?: unknown;
	fileClassName?: unknown;
}

interface MetadataMenuApi {
	namedFileFields(fileOrPath: unknown): Promise<Record<string, FieldInfo>>;
}

/** One field as the tool answers it. */
function field(info: FieldInfo): Record<string, Json> {
	return {
		value: toJson(info.value),
		type: typeof info.type === "string" ? info.type : null,
		is_valid: typeof info.isValid === "boolean" ? info.isValid : null,
		source_type: typeof info.sourceType === "string" ? info.sourceType : null,
		file_class: typeof info.fileClassName === "string" ? info.fileClassName : null,
	};
}

/** `read_metadata_fields`. */
export function metadataMenuTools(ctx: ToolContext): BridgeTool[] {
	return [
		defineTool({
			name: "read_metadata_fields",
			description:
				"A note's fields as Metadata Menu types them: {path, fields: {<name>: {value, type, is_valid, source_type, file_class}}, total}; source_type is 'fileClass' or 'settings' (where the field is defined).",
			inputSchema: {
				type: "object",
				properties: { path: { type: "string", description: "The note (`.md` may be left off)." } },
				required: ["path"],
			},
			run: async (args) => {
				const api = (companionPlugin(ctx.app, METADATA_MENU) as { api?: MetadataMenuApi } | null)?.api;
				if (api === undefined || api === null) return pluginMissing(METADATA_MENU.id, METADATA_MENU.name);
				const file = readableFile(ctx, stringArg(args, "path"));
				if (file.extension !== "md") {
					fail("invalid_input", `Metadata Menu reads the fields of Markdown notes; '${file.path}' is not one.`, { path: file.path });
				}
				const infos = (await companionCall(METADATA_MENU.name, () => api.namedFileFields(file))) ?? {};
				const fields = Object.fromEntries(Object.entries(infos).map(([name, info]) => [name, field(info ?? {})]));
				return toolOk({ path: file.path, fields, total: Object.keys(fields).length });
			},
		}),
	];
}

// Text Extractor: the text of images (OCR), PDFs and Office files, through its `api`
// (extractText / canFileBeExtracted / isInCache). Reading only; a batch of more than
// BULK_APPROVAL_THRESHOLD files is expensive, so the human approves it.
import type { TFile } from "obsidian";
import type { BridgeTool } from "../bridge/registry";
import { readableFile, readableFiles, requireApproval } from "./access";
import { COMPANIONS, companionPlugin } from "./companions";
import type { ToolContext } from "./context";
import { companionCall, defineTool, fail, integerArg, messageOf, optionalString, stringArg, stringListArg } from "./define";
import { pluginMissing, toolOk } from "./result";

const EXTRACTOR = COMPANIONS.textExtractor;

/** Batches above this many files ask the human first. */
const BULK_APPROVAL_THRESHOLD = 20;

/** Text Extractor's public `TextExtractorApi`. */
interface TextExtractorApi {
	extractText(file: TFile): Promise<string>;
	canFileBeExtracted(filePath: string): boolean;
	isInCache(file: TFile): Promise<boolean>;
}

function extractorApi(ctx: ToolContext): TextExtractorApi | null {
	return (companionPlugin(ctx.app, EXTRACTOR) as { api?: TextExtractorApi } | null)?.api ?? null;
}

/** `ocr_attachment` and `ocr_bulk`. */
export function textExtractorTools(ctx: ToolContext): BridgeTool[] {
	return [
		defineTool({
			name: "ocr_attachment",
			description: "Extracts the text of one attachment (image OCR, PDF, Office file) with Text Extractor; cached after the first run.",
			inputSchema: {
				type: "object",
				properties: { path: { type: "string", description: "Vault path of the attachment." } },
				required: ["path"],
			},
			run: async (args) => {
				const api = extractorApi(ctx);
				if (api === null) return pluginMissing(EXTRACTOR.id, EXTRACTOR.name);
				const file = readableFile(ctx, stringArg(args, "path"));
				if (!api.canFileBeExtracted(file.path)) {
					fail("invalid_input", `Text Extractor cannot read '${file.extension}' files.`, { path: file.path });
				}
				const cached = await companionCall(EXTRACTOR.name, () => api.isInCache(file));
				const text = await companionCall(EXTRACTOR.name, () => api.extractText(file));
				return toolOk({ path: file.path, text, cached });
			},
		}),
		defineTool({
			name: "ocr_bulk",
			description: `Extracts the text of several attachments: the given paths, or every supported file under a folder (default the whole vault), up to limit. More than ${BULK_APPROVAL_THRESHOLD} files needs the human's approval. A file that fails carries its own error.`,
			inputSchema: {
				type: "object",
				properties: {
					paths: { type: "array", items: { type: "string" } },
					folder: { type: "string", description: "Used when paths is not given." },
					limit: { type: "integer", minimum: 1, maximum: 500, default: BULK_APPROVAL_THRESHOLD },
				},
			},
			run: async (args) => {
				const api = extractorApi(ctx);
				if (api === null) return pluginMissing(EXTRACTOR.id, EXTRACTOR.name);
				const paths = stringListArg(args, "paths");
				const folder = optionalString(args, "folder");
				const limit = integerArg(args, "limit", BULK_APPROVAL_THRESHOLD, 1, 500);
				const candidates =
					paths !== undefined
						? paths.map((p) => readableFile(ctx, p))
						: readableFiles(ctx, folder).filter((f) => f.extension !== "md" && api.canFileBeExtracted(f.path));
				const files = candidates.slice(0, limit);
				if (files.length > BULK_APPROVAL_THRESHOLD) {
					await requireApproval(ctx, { tool: "ocr_bulk", summary: `Extract the text of ${files.length} attachments with Text Extractor.` });
				}
				const items = [];
				for (const file of files) {
					if (!api.canFileBeExtracted(file.path)) {
						items.push({ path: file.path, error: { code: "invalid_input", message: `Text Extractor cannot read '${file.extension}' files.` } });
						continue;
					}
					try {
						items.push({ path: file.path, text: await api.extractText(file) });
					} catch (err) {
						items.push({ path: file.path, error: { code: "plugin_error", message: messageOf(err) } });
					}
				}
				return toolOk({ items, total_count: candidates.length });
			},
		}),
	];
}

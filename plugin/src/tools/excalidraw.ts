// Excalidraw through ExcalidrawAutomate (`window.ExcalidrawAutomate.getAPI()`, destroyed after
// each call): reading a drawing's scene, creating a drawing, and adding or removing elements.
// All three need the plugin (reference §3.6); the native server reads drawing files headless.
// Writes need writes on and the human's approval; an update opens the drawing in the active
// tab, because ExcalidrawAutomate edits only a drawing shown in a view.
import type { TFile } from "obsidian";
import type { BridgeTool } from "../bridge/registry";
import { readableFile, requireApproval, requireWrite } from "./access";
import { COMPANIONS, companionPlugin } from "./companions";
import type { ToolContext } from "./context";
import { companionCall, defineTool, fail, stringArg, stringListArg } from "./define";
import { pluginMissing, toolOk } from "./result";

const EXCALIDRAW = COMPANIONS.excalidraw;

/** An Excalidraw scene element (the fields the tools read). */
interface SceneElement {
	id: string;
	type: string;
	text?: string;
	[key: string]: unknown;
}

/** The ExcalidrawAutomate methods the tools call (src/shared/ExcalidrawAutomate.ts). */
interface ExcalidrawAutomate {
	getAPI(): ExcalidrawAutomate;
	destroy(): void;
	reset(): void;
	isExcalidrawFile(file: TFile): boolean;
	getSceneFromFile(file: TFile): Promise<{ elements: SceneElement[]; appState: unknown }>;
	addRect(topX: number, topY: number, width: number, height: number): string;
	addText(topX: number, topY: number, text: string): string;
	addArrow(points: [number, number][]): string;
	addLine(points: [number, number][]): string;
	create(params: { filename: string; foldername: string; onNewPane: boolean; silent: boolean }): Promise<string>;
	setView(view: "active"): { file?: TFile | null } | null | undefined;
	getViewElements(): SceneElement[];
	deleteViewElements(elements: SceneElement[]): boolean;
	addElementsToView(repositionToCursor: boolean, save: boolean, newElementsOnTop: boolean): Promise<boolean>;
}

/** The element kinds the tools can add, and their JSON Schema. */
const ELEMENT_SCHEMA = {
	type: "array",
	items: {
		type: "object",
		properties: {
			type: { type: "string", enum: ["rectangle", "text", "arrow", "line"] },
			x: { type: "number" },
			y: { type: "number" },
			width: { type: "number", default: 160 },
			height: { type: "number", default: 80 },
			text: { type: "string", description: "For text." },
			points: { type: "array", items: { type: "array", items: { type: "number" } }, description: "For arrow and line: [[x, y], ...]." },
		},
		required: ["type"],
	},
};

/** A fresh ExcalidrawAutomate instance, or null when Excalidraw is absent or disabled. */
function automate(ctx: ToolContext): ExcalidrawAutomate | null {
	if (companionPlugin(ctx.app, EXCALIDRAW) === null) return null;
	const global = (window as unknown as { ExcalidrawAutomate?: ExcalidrawAutomate }).ExcalidrawAutomate;
	if (global === undefined) fail("plugin_incompatible", "Excalidraw is enabled but ExcalidrawAutomate is not available.", { plugin: EXCALIDRAW.id });
	return global.getAPI();
}

function num(v: unknown, fallback: number): number {
	return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

function points(spec: Record<string, unknown>, index: number): [number, number][] {
	const p = spec.points;
	const ok = Array.isArray(p) && p.length >= 2 && p.every((q) => Array.isArray(q) && q.length === 2 && q.every((n) => typeof n === "number"));
	if (!ok) fail("invalid_input", `Element ${index}: an arrow or line needs 'points' as at least two [x, y] pairs.`, { argument: "elements" });
	return p as [number, number][];
}

/** Adds the element specs to `ea` (after checking them all); returns the new ids. */
function addElements(ea: ExcalidrawAutomate, specs: unknown): string[] {
	if (specs === undefined || specs === null) return [];
	if (!Array.isArray(specs)) fail("invalid_input", "Argument 'elements' must be an array.", { argument: "elements" });
	const builders = specs.map((raw: unknown, i) => {
		const spec = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
		const x = num(spec.x, 0);
		const y = num(spec.y, 0);
		switch (spec.type) {
			case "rectangle":
				return () => ea.addRect(x, y, num(spec.width, 160), num(spec.height, 80));
			case "text": {
				if (typeof spec.text !== "string") fail("invalid_input", `Element ${i}: text needs 'text'.`, { argument: "elements" });
				const text = spec.text;
				return () => ea.addText(x, y, text);
			}
			case "arrow": {
				const p = points(spec, i);
				return () => ea.addArrow(p);
			}
			case "line": {
				const p = points(spec, i);
				return () => ea.addLine(p);
			}
			default:
				return fail("invalid_input", `Element ${i}: type must be rectangle, text, arrow or line.`, { argument: "elements" });
		}
	});
	return builders.map((build) => build());
}

async function drawing(ctx: ToolContext, ea: ExcalidrawAutomate, path: string): Promise<{ file: TFile; elements: SceneElement[] }> {
	const file = readableFile(ctx, path);
	if (!ea.isExcalidrawFile(file)) fail("invalid_input", `'${file.path}' is not an Excalidraw drawing.`, { path: file.path });
	const scene = await companionCall(EXCALIDRAW.name, () => ea.getSceneFromFile(file));
	return { file, elements: scene.elements };
}

/** Runs `work` with a fresh ExcalidrawAutomate, destroyed afterwards. */
async function withAutomate(ctx: ToolContext, work: (ea: ExcalidrawAutomate) => Promise<ReturnType<typeof toolOk>>) {
	const ea = automate(ctx);
	if (ea === null) return pluginMissing(EXCALIDRAW.id, EXCALIDRAW.name);
	try {
		return await work(ea);
	} finally {
		ea.destroy();
	}
}

/** `read_excalidraw`, `create_excalidraw` and `update_excalidraw`. */
export function excalidrawTools(ctx: ToolContext): BridgeTool[] {
	return [
		defineTool({
			name: "read_excalidraw",
			description: "Reads an Excalidraw drawing: its elements and the text of its text elements.",
			inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] },
			run: (args) =>
				withAutomate(ctx, async (ea) => {
					const { file, elements } = await drawing(ctx, ea, stringArg(args, "path"));
					const texts = elements.filter((e) => e.type === "text" && typeof e.text === "string").map((e) => e.text);
					return toolOk({ path: file.path, elements, texts });
				}),
		}),
		defineTool({
			name: "create_excalidraw",
			writes: true,
			description:
				"Creates a new Excalidraw drawing at `path` (ending .excalidraw.md) with the given elements. Needs writes on; the human approves. Never overwrites.",
			inputSchema: {
				type: "object",
				properties: { path: { type: "string", description: "e.g. 'Drawings/Plan.excalidraw.md'." }, elements: ELEMENT_SCHEMA },
				required: ["path"],
			},
			run: (args) =>
				withAutomate(ctx, async (ea) => {
					const asked = stringArg(args, "path");
					const path = requireWrite(ctx, "create_excalidraw", asked.endsWith(".excalidraw.md") ? asked : `${asked.replace(/\.md$/, "")}.excalidraw.md`);
					if (ctx.app.vault.getAbstractFileByPath(path) !== null) fail("note_exists", `'${path}' already exists.`, { path });
					ea.reset();
					const ids = addElements(ea, args.elements);
					await requireApproval(ctx, { tool: "create_excalidraw", path, summary: `Create the drawing '${path}' with ${ids.length} element(s).` });
					const slash = path.lastIndexOf("/");
					const created = await companionCall(EXCALIDRAW.name, () =>
						ea.create({ filename: path.slice(slash + 1), foldername: slash < 0 ? "/" : path.slice(0, slash), onNewPane: false, silent: true }),
					);
					return toolOk({ path: created, elements: ids });
				}),
		}),
		defineTool({
			name: "update_excalidraw",
			writes: true,
			description:
				"Adds elements to and removes elements (by id) from an Excalidraw drawing. Opens the drawing in the active tab, as Excalidraw edits only shown drawings. Needs writes on; the human approves.",
			inputSchema: {
				type: "object",
				properties: {
					path: { type: "string" },
					add: ELEMENT_SCHEMA,
					remove: { type: "array", items: { type: "string" }, description: "Element ids (see read_excalidraw)." },
				},
				required: ["path"],
			},
			run: (args) =>
				withAutomate(ctx, async (ea) => {
					const path = requireWrite(ctx, "update_excalidraw", stringArg(args, "path"));
					const { file, elements } = await drawing(ctx, ea, path);
					const remove = stringListArg(args, "remove") ?? [];
					const unknown = remove.filter((id) => !elements.some((e) => e.id === id));
					if (unknown.length > 0) fail("not_found", `No element(s) ${unknown.join(", ")} in '${file.path}'.`, { path: file.path, ids: unknown });
					ea.reset();
					const added = addElements(ea, args.add);
					if (added.length === 0 && remove.length === 0) fail("invalid_input", "Nothing to do: give 'add' or 'remove'.");
					await requireApproval(ctx, {
						tool: "update_excalidraw",
						path: file.path,
						summary: `In '${file.path}': add ${added.length} element(s), remove ${remove.length} (${remove.join(", ") || "none"}).`,
					});
					await ctx.app.workspace.getLeaf(false).openFile(file);
					const view = ea.setView("active");
					if (view?.file?.path !== file.path) fail("plugin_error", `Excalidraw did not open '${file.path}' in a drawing view.`, { plugin: EXCALIDRAW.id });
					if (remove.length > 0) {
						const gone = ea.getViewElements().filter((e) => remove.includes(e.id));
						if (!ea.deleteViewElements(gone)) fail("plugin_error", "Excalidraw refused to delete the elements.", { plugin: EXCALIDRAW.id });
					}
					if (added.length > 0 && !(await companionCall(EXCALIDRAW.name, () => ea.addElementsToView(false, true, true)))) {
						fail("plugin_error", "Excalidraw refused to add the elements.", { plugin: EXCALIDRAW.id });
					}
					return toolOk({ path: file.path, added, removed: remove });
				}),
		}),
	];
}

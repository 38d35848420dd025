// `tasks_filter`: the Tasks plugin has no query API (its apiV1 only opens modals and toggles a
// line), and its query language (the `Query` class) is not exported. So the tool reads the
// tasks Tasks itself has parsed — `plugin.getTasks()`, the same cache its query blocks run on,
// with its status types, dates and priorities — and filters them with a small structured filter.
import { moment } from "obsidian";
import type { BridgeTool } from "../bridge/registry";
import { mayRead } from "./access";
import { COMPANIONS, companionPlugin } from "./companions";
import type { ToolContext } from "./context";
import { booleanArg, companionCall, defineTool, fail, integerArg, optionalString } from "./define";
import { pluginMissing, toolOk } from "./result";

const TASKS = COMPANIONS.tasks;

/** A date field of a Tasks `Task`: a moment, or null. */
interface MomentLike {
	format(f: string): string;
	isValid(): boolean;
}

/** The fields of Tasks' `Task` class (src/Task/Task.ts) the tool reads. */
interface TasksTask {
	status: { type: string; symbol?: string; name?: string };
	description: string;
	path: string;
	lineNumber?: number;
	priority: string;
	tags: string[];
	dueDate: MomentLike | null;
	scheduledDate: MomentLike | null;
	startDate: MomentLike | null;
	doneDate: MomentLike | null;
	originalMarkdown?: string;
}

interface TasksPlugin {
	getTasks(): TasksTask[];
	getState?(): string;
}

/** Tasks' `Priority` values ('0' highest … '5' lowest, '3' none). */
const PRIORITY_NAMES: Record<string, string> = { "0": "highest", "1": "high", "2": "medium", "3": "none", "4": "low", "5": "lowest" };

/** Status filter → Tasks' `StatusType` values. */
const STATUS_TYPES: Record<string, string[] | null> = {
	open: ["TODO", "IN_PROGRESS"],
	todo: ["TODO"],
	in_progress: ["IN_PROGRESS"],
	done: ["DONE"],
	cancelled: ["CANCELLED"],
	any: null,
};

function day(m: MomentLike | null): string | null {
	return m !== null && m.isValid() ? m.format("YYYY-MM-DD") : null;
}

function dateArg(args: Record<string, unknown>, key: string): string | undefined {
	const v = optionalString(args, key);
	if (v !== undefined && !moment(v, "YYYY-MM-DD", true).isValid()) {
		fail("invalid_input", `Argument '${key}' must be a date as YYYY-MM-DD.`, { argument: key });
	}
	return v;
}

/** `tasks_filter`. */
export function tasksTools(ctx: ToolContext): BridgeTool[] {
	return [
		defineTool({
			name: "tasks_filter",
			description:
				"Lists the tasks the Tasks plugin has parsed, filtered by status, due date, path, description, tag and priority (all optional, combined with AND). Each task: path, line, status, description, priority, tags, dates (YYYY-MM-DD).",
			inputSchema: {
				type: "object",
				properties: {
					status: { type: "string", enum: Object.keys(STATUS_TYPES), default: "open" },
					due_before: { type: "string", description: "Due strictly before this YYYY-MM-DD." },
					due_after: { type: "string", description: "Due strictly after this YYYY-MM-DD." },
					due_on: { type: "string", description: "Due on this YYYY-MM-DD." },
					has_due_date: { type: "boolean" },
					path_includes: { type: "string" },
					description_includes: { type: "string", description: "Case-insensitive." },
					tag: { type: "string", description: "A tag such as #work (nested tags match too)." },
					priority: { type: "string", enum: Object.values(PRIORITY_NAMES) },
					limit: { type: "integer", minimum: 1, maximum: 1000, default: 100 },
				},
			},
			run: async (args) => {
				const plugin = companionPlugin(ctx.app, TASKS) as TasksPlugin | null;
				if (plugin === null) return pluginMissing(TASKS.id, TASKS.name);
				if (typeof plugin.getTasks !== "function") {
					fail("plugin_incompatible", "This version of Tasks does not expose getTasks().", { plugin: TASKS.id });
				}
				const statusName = optionalString(args, "status") ?? "open";
				if (!(statusName in STATUS_TYPES)) {
					fail("invalid_input", `Argument 'status' must be one of ${Object.keys(STATUS_TYPES).join(", ")}.`, { argument: "status" });
				}
				const statuses = STATUS_TYPES[statusName] ?? null;
				const dueBefore = dateArg(args, "due_before");
				const dueAfter = dateArg(args, "due_after");
				const dueOn = dateArg(args, "due_on");
				const hasDue = args.has_due_date === undefined ? undefined : booleanArg(args, "has_due_date", false);
				const pathIncludes = optionalString(args, "path_includes");
				const text = optionalString(args, "description_includes")?.toLowerCase();
				const tagArg = optionalString(args, "tag");
				const tag = tagArg === undefined ? undefined : (tagArg.startsWith("#") ? tagArg : `#${tagArg}`).toLowerCase();
				const priority = optionalString(args, "priority");
				if (priority !== undefined && !Object.values(PRIORITY_NAMES).includes(priority)) {
					fail("invalid_input", `Argument 'priority' must be one of ${Object.values(PRIORITY_NAMES).join(", ")}.`, { argument: "priority" });
				}
				const limit = integerArg(args, "limit", 100, 1, 1000);

				if (plugin.getState !== undefined && plugin.getState() !== "Warm") {
					fail("plugin_not_ready", "Tasks is still loading its task cache; retry in a few seconds.", { plugin: TASKS.id });
				}
				const all = await companionCall(TASKS.name, () => plugin.getTasks());
				const matching = all.filter((t) => {
					if (!mayRead(ctx, t.path)) return false;
					if (statuses !== null && !statuses.includes(t.status.type)) return false;
					const due = day(t.dueDate);
					if (hasDue !== undefined && hasDue !== (due !== null)) return false;
					if (dueBefore !== undefined && (due === null || due >= dueBefore)) return false;
					if (dueAfter !== undefined && (due === null || due <= dueAfter)) return false;
					if (dueOn !== undefined && due !== dueOn) return false;
					if (pathIncludes !== undefined && !t.path.includes(pathIncludes)) return false;
					if (text !== undefined && !t.description.toLowerCase().includes(text)) return false;
					if (tag !== undefined && !t.tags.some((x) => x.toLowerCase() === tag || x.toLowerCase().startsWith(`${tag}/`))) return false;
					if (priority !== undefined && PRIORITY_NAMES[t.priority] !== priority) return false;
					return true;
				});
				const items = matching.slice(0, limit).map((t) => ({
					path: t.path,
					line: t.lineNumber ?? null,
					status: t.status.type.toLowerCase(),
					description: t.description,
					priority: PRIORITY_NAMES[t.priority] ?? "none",
					tags: t.tags,
					due: day(t.dueDate),
					scheduled: day(t.scheduledDate),
					start: day(t.startDate),
					done: day(t.doneDate),
				}));
				return toolOk({ items, total_count: matching.length });
			},
		}),
	];
}

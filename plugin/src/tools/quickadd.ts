// QuickAdd: listing its choices, and running one by name through `api.executeChoice` (with a
// timeout, since a choice can wait on a prompt in Obsidian). Choices create and change notes,
// so running one needs writes on and the human's approval.
import type { BridgeTool } from "../bridge/registry";
import { requireApproval, requireWritesOn } from "./access";
import { COMPANIONS, companionPlugin } from "./companions";
import type { ToolContext } from "./context";
import { companionCall, defineTool, fail, integerArg, objectArg, stringArg } from "./define";
import { pluginMissing, toolOk } from "./result";

const QUICKADD = COMPANIONS.quickadd;

/** QuickAdd's `IChoice` (Multi choices nest theirs in `choices`). */
interface Choice {
	id: string;
	name: string;
	type: string;
	choices?: Choice[];
}

interface QuickAddPlugin {
	settings: { choices: Choice[] };
	api: { executeChoice(choiceName: string, variables?: Record<string, unknown>): Promise<void> };
}

/** Every runnable choice, Multi folders flattened; `group` names the enclosing Multis. */
function flatten(choices: Choice[], group: string[] = []): { id: string; name: string; type: string; group: string[] }[] {
	return choices.flatMap((c) =>
		c.type === "Multi" ? flatten(c.choices ?? [], [...group, c.name]) : [{ id: c.id, name: c.name, type: c.type, group }],
	);
}

function quickAdd(ctx: ToolContext): QuickAddPlugin | null {
	return companionPlugin(ctx.app, QUICKADD) as QuickAddPlugin | null;
}

/** Resolves with `work`, or with "timeout" after `seconds`. */
function withTimeout(work: Promise<void>, seconds: number): Promise<"done" | "timeout"> {
	let timer = 0;
	const timeout = new Promise<"timeout">((resolve) => {
		timer = window.setTimeout(() => resolve("timeout"), seconds * 1000);
	});
	return Promise.race([work.then(() => "done" as const), timeout]).finally(() => window.clearTimeout(timer));
}

/** `list_quickadd_actions` and `trigger_quickadd`. */
export function quickAddTools(ctx: ToolContext): BridgeTool[] {
	return [
		defineTool({
			name: "list_quickadd_actions",
			description: "Lists QuickAdd's choices (Template, Capture, Macro), with the Multi groups they sit in.",
			inputSchema: { type: "object", properties: {} },
			run: async () => {
				const plugin = quickAdd(ctx);
				if (plugin === null) return pluginMissing(QUICKADD.id, QUICKADD.name);
				return toolOk({ items: flatten(plugin.settings?.choices ?? []) });
			},
		}),
		defineTool({
			name: "trigger_quickadd",
			writes: true,
			description:
				"Runs a QuickAdd choice by name, with optional variables for its format syntax. Needs writes on; the human approves each run. Fails with operation_timeout if the choice has not finished in timeout_seconds (it may be waiting for input in Obsidian).",
			inputSchema: {
				type: "object",
				properties: {
					name: { type: "string", description: "Choice name (see list_quickadd_actions)." },
					variables: { type: "object", description: "Values for {{VALUE:name}} placeholders." },
					timeout_seconds: { type: "integer", minimum: 1, maximum: 600, default: 30 },
				},
				required: ["name"],
			},
			run: async (args) => {
				const plugin = quickAdd(ctx);
				if (plugin === null) return pluginMissing(QUICKADD.id, QUICKADD.name);
				const name = stringArg(args, "name");
				const variables = objectArg(args, "variables");
				const seconds = integerArg(args, "timeout_seconds", 30, 1, 600);
				requireWritesOn(ctx, "trigger_quickadd");
				const choice = flatten(plugin.settings?.choices ?? []).find((c) => c.name === name);
				if (choice === undefined) fail("not_found", `QuickAdd has no choice named '${name}' (see list_quickadd_actions).`, { name });
				await requireApproval(ctx, {
					tool: "trigger_quickadd",
					summary: `Run the QuickAdd ${choice.type} choice "${name}"${variables === undefined ? "" : ` with ${JSON.stringify(variables)}`}.`,
				});
				const outcome = await companionCall(QUICKADD.name, () => withTimeout(plugin.api.executeChoice(name, variables), seconds));
				if (outcome === "timeout") {
					fail("operation_timeout", `QuickAdd's "${name}" did not finish within ${seconds} s; it may be waiting for input in Obsidian.`, { name });
				}
				return toolOk({ name, type: choice.type, completed: true });
			},
		}),
	];
}

// The command palette: listing commands, and running one the user allowlisted, after the human
// approves it.
import type { BridgeTool } from "../bridge/registry";
import { requireApproval } from "./access";
import { commandRegistry, type CommandRegistry } from "./companions";
import type { ToolContext } from "./context";
import { defineTool, fail, integerArg, messageOf, optionalString, stringArg } from "./define";
import { toolOk } from "./result";

function registry(ctx: ToolContext): CommandRegistry {
	return commandRegistry(ctx.app) ?? fail("internal_error", "This version of Obsidian does not expose its command palette.");
}

/** `list_commands` and `execute_command`. */
export function commandTools(ctx: ToolContext): BridgeTool[] {
	const allowed = (id: string) => ctx.settings.allowCommands && ctx.settings.commandAllowlist.includes(id);
	return [
		defineTool({
			name: "list_commands",
			description:
				"Lists Obsidian's commands (id and name), optionally only those whose id or name contains `query`. `allowed` tells which ones execute_command may run.",
			inputSchema: {
				type: "object",
				properties: {
					query: { type: "string", description: "Case-insensitive filter on id and name." },
					limit: { type: "integer", minimum: 1, maximum: 1000, default: 200 },
				},
			},
			run: async (args) => {
				const query = optionalString(args, "query")?.toLowerCase() ?? "";
				const limit = integerArg(args, "limit", 200, 1, 1000);
				const matching = registry(ctx)
					.listCommands()
					.filter((c) => query === "" || c.id.toLowerCase().includes(query) || c.name.toLowerCase().includes(query))
					.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
				const items = matching.slice(0, limit).map((c) => ({ id: c.id, name: c.name, allowed: allowed(c.id) }));
				return toolOk({ items, total_count: matching.length });
			},
		}),
		defineTool({
			name: "execute_command",
			writes: true,
			description:
				"Runs an Obsidian command by id. Needs \"Allow commands\" on and the id in the command allowlist of the TC Bridge settings; the human approves each run.",
			inputSchema: {
				type: "object",
				properties: { id: { type: "string", description: "Command id, e.g. 'editor:toggle-bold' (see list_commands)." } },
				required: ["id"],
			},
			run: async (args) => {
				const id = stringArg(args, "id");
				if (!ctx.settings.allowCommands) {
					fail("commands_disabled", 'Running commands is turned off. Turn on "Allow commands" in the TC Bridge settings.');
				}
				if (!ctx.settings.commandAllowlist.includes(id)) {
					fail("command_not_allowed", `The command '${id}' is not in the command allowlist of the TC Bridge settings.`, { id });
				}
				const commands = registry(ctx);
				const command = commands.findCommand(id);
				if (command === undefined) fail("not_found", `No command '${id}' in this Obsidian (its plugin may be disabled).`, { id });
				await requireApproval(ctx, { tool: "execute_command", summary: `Run the command "${command.name}" (${id}).` });
				let ran: boolean;
				try {
					ran = commands.executeCommandById(id);
				} catch (err) {
					return fail("command_failed", `The command '${id}' failed: ${messageOf(err)}`, { id });
				}
				if (!ran) {
					fail("command_failed", `The command '${id}' did not run; editor commands need an open Markdown editor.`, { id });
				}
				return toolOk({ id, name: command.name, executed: true });
			},
		}),
	];
}

// Remotely Save: its sync state, and starting a sync run. Remotely Save has no API for other
// plugins, so both read the plugin instance and run its command. The shapes followed, from
// remotely-save/remotely-save: 0.3.x (2022-2023) keeps `syncStatus` (a string) and
// `settings.lastSuccessSync` (ms); 0.3.x-0.4.x keep `syncStatus` and the last success in its
// local database; 0.5.x (0.5.25, commit 34db181, 2024-11) has `isSyncing` (a boolean) and the
// last success at `${vaultRandomID}-lastSuccessSyncMillis` of `db.simpleKVForMiscTbl`
// (localforage). The command `remotely-save:start-sync` is the same in all of them.
import type { BridgeTool } from "../bridge/registry";
import { requireWritesOn } from "./access";
import { COMPANIONS, commandRegistry, companionPlugin } from "./companions";
import type { ToolContext } from "./context";
import { companionCall, defineTool, fail, messageOf } from "./define";
import { pluginMissing, toolOk } from "./result";

const REMOTELY_SAVE = COMPANIONS.remotelySave;

/** The command that starts a sync run, as the command palette shows it. */
export const START_SYNC = "remotely-save:start-sync";

/** The fields of Remotely Save's plugin instance the tools read (all optional: they changed by version). */
interface RemotelySavePlugin {
	syncStatus?: unknown;
	isSyncing?: unknown;
	settings?: { lastSuccessSync?: unknown };
	vaultRandomID?: unknown;
	db?: { simpleKVForMiscTbl?: { getItem?(key: string): Promise<unknown> } };
}

/** The sync state: `syncStatus` (≤ 0.4), else `isSyncing` (0.5), else "unknown". */
function syncStatus(plugin: RemotelySavePlugin): string {
	if (typeof plugin.syncStatus === "string") return plugin.syncStatus;
	if (typeof plugin.isSyncing === "boolean") return plugin.isSyncing ? "syncing" : "idle";
	return "unknown";
}

function millis(value: unknown): number | null {
	return typeof value === "number" && Number.isFinite(value) && value > 0 ? value : null;
}

/** When the last sync succeeded (ms since the epoch): the setting (0.3.x), else the local database (≥ 0.3.3x). */
async function lastSuccessSync(plugin: RemotelySavePlugin): Promise<number | null> {
	const setting = millis(plugin.settings?.lastSuccessSync);
	if (setting !== null) return setting;
	const table = plugin.db?.simpleKVForMiscTbl;
	if (typeof plugin.vaultRandomID !== "string" || typeof table?.getItem !== "function") return null;
	const key = `${plugin.vaultRandomID}-lastSuccessSyncMillis`;
	return millis(await companionCall(REMOTELY_SAVE.name, () => table.getItem?.(key)));
}

/** `remotely_save_status` and `remotely_save_trigger`. */
export function remotelySaveTools(ctx: ToolContext): BridgeTool[] {
	const plugin = () => companionPlugin(ctx.app, REMOTELY_SAVE) as RemotelySavePlugin | null;
	return [
		defineTool({
			name: "remotely_save_status",
			description:
				"Remotely Save's sync state: {sync_status, last_success_sync} (ms since the epoch, null before the first success); sync_status is 'unknown' when this version does not say.",
			inputSchema: { type: "object", properties: {} },
			run: async () => {
				const instance = plugin();
				if (instance === null) return pluginMissing(REMOTELY_SAVE.id, REMOTELY_SAVE.name);
				return toolOk({ sync_status: syncStatus(instance), last_success_sync: await lastSuccessSync(instance) });
			},
		}),
		defineTool({
			name: "remotely_save_trigger",
			writes: true,
			description:
				"Starts a Remotely Save sync run (its command remotely-save:start-sync) and returns at once: {triggered: true, fired_at} (ms). Poll remotely_save_status until last_success_sync passes fired_at. Needs writes on.",
			inputSchema: { type: "object", properties: {} },
			run: async () => {
				if (plugin() === null) return pluginMissing(REMOTELY_SAVE.id, REMOTELY_SAVE.name);
				requireWritesOn(ctx, "remotely_save_trigger");
				const commands = commandRegistry(ctx.app);
				if (commands?.findCommand(START_SYNC) === undefined) {
					fail("plugin_incompatible", `This version of Remotely Save has no command '${START_SYNC}'.`, { plugin: REMOTELY_SAVE.id });
				}
				const firedAt = Date.now();
				let ran: boolean;
				try {
					ran = commands.executeCommandById(START_SYNC);
				} catch (err) {
					return fail("command_failed", `Remotely Save's sync did not start: ${messageOf(err)}`, { id: START_SYNC });
				}
				if (!ran) fail("command_failed", "Remotely Save's sync did not start.", { id: START_SYNC });
				return toolOk({ triggered: true, fired_at: firedAt });
			},
		}),
	];
}

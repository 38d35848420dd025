import type { FolderAccess, FolderPreset } from "./engine/engine";

export interface TcBridgeSettings {
	/** Port of the localhost bridge server (127.0.0.1 only). */
	port: number;
	/** Bearer token the stdio bridge and the native server present; generated on first load. */
	token: string;
	/** Whether tools may create or change notes (Templater, QuickAdd, Excalidraw, ...). */
	allowWrites: boolean;
	/** Whether `execute_command` may run commands at all. */
	allowCommands: boolean;
	/** Command ids `execute_command` may run (each still asks the human). */
	commandAllowlist: string[];
	/** Per-folder access for agents; a nested folder overrides its parent. */
	folderAccess: FolderAccess[];
	/** Access to everything no listed folder covers. */
	unlistedAccess: FolderPreset;
	/** Seconds the approval dialog waits before answering "timed out". */
	approvalTimeoutSeconds: number;
	/** Absolute path of a native `obsidian-tc` binary to run as a supervised sidecar ("" = none). */
	sidecarPath: string;
	/** Port of the sidecar's MCP endpoint, `http://127.0.0.1:<mcpPort>/mcp`. */
	mcpPort: number;
	/** Bearer token the sidecar's MCP endpoint requires; generated on first load. */
	mcpToken: string;
}

/** Default port: clear of Local REST API (27123/27124) and the usual 3000/3001. */
export const DEFAULT_PORT = 27190;

/** Default port of the sidecar's MCP endpoint: next to the bridge's. */
export const DEFAULT_MCP_PORT = 27191;

export const DEFAULT_SETTINGS: TcBridgeSettings = {
	port: DEFAULT_PORT,
	token: "",
	allowWrites: false,
	allowCommands: false,
	commandAllowlist: [],
	folderAccess: [],
	unlistedAccess: "rw",
	approvalTimeoutSeconds: 60,
	sidecarPath: "",
	mcpPort: DEFAULT_MCP_PORT,
	mcpToken: "",
};

const PRESETS: readonly FolderPreset[] = ["none", "r", "rw", "rwd"];

function isPreset(value: unknown): value is FolderPreset {
	return typeof value === "string" && (PRESETS as readonly string[]).includes(value);
}

function folderAccessList(value: unknown): FolderAccess[] {
	if (!Array.isArray(value)) return [];
	return value.flatMap((entry: unknown) => {
		const e = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
		return typeof e.folder === "string" && isPreset(e.preset) ? [{ folder: e.folder, preset: e.preset }] : [];
	});
}

/** 32 random bytes as lowercase hex. */
export function newToken(): string {
	const bytes = new Uint8Array(32);
	window.crypto.getRandomValues(bytes);
	return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** A token as saved: any non-empty text (the generated ones are 64 hex characters). */
function isToken(value: unknown): value is string {
	return typeof value === "string" && value.length > 0;
}

/** A TCP port number, 1-65535. */
export function isPort(value: unknown): value is number {
	return typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 65535;
}

/** Typed settings from whatever `loadData()` returned (null, partial or malformed). */
export function parseSettings(data: unknown): TcBridgeSettings {
	const raw = (typeof data === "object" && data !== null ? data : {}) as Record<string, unknown>;
	return {
		// 0 (any free port) is accepted from data.json for tests; the settings tab asks for 1-65535.
		port: isPort(raw.port) || raw.port === 0 ? raw.port : DEFAULT_SETTINGS.port,
		token: isToken(raw.token) ? raw.token : newToken(),
		allowWrites: typeof raw.allowWrites === "boolean" ? raw.allowWrites : DEFAULT_SETTINGS.allowWrites,
		allowCommands: typeof raw.allowCommands === "boolean" ? raw.allowCommands : DEFAULT_SETTINGS.allowCommands,
		commandAllowlist: Array.isArray(raw.commandAllowlist)
			? raw.commandAllowlist.filter((id): id is string => typeof id === "string")
			: [],
		folderAccess: folderAccessList(raw.folderAccess),
		unlistedAccess: isPreset(raw.unlistedAccess) ? raw.unlistedAccess : DEFAULT_SETTINGS.unlistedAccess,
		approvalTimeoutSeconds:
			typeof raw.approvalTimeoutSeconds === "number" && raw.approvalTimeoutSeconds > 0
				? raw.approvalTimeoutSeconds
				: DEFAULT_SETTINGS.approvalTimeoutSeconds,
		sidecarPath: typeof raw.sidecarPath === "string" ? raw.sidecarPath : "",
		mcpPort: isPort(raw.mcpPort) ? raw.mcpPort : DEFAULT_SETTINGS.mcpPort,
		mcpToken: isToken(raw.mcpToken) ? raw.mcpToken : newToken(),
	};
}

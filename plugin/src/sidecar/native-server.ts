// The native server the plugin runs next to Obsidian (settings.sidecarPath), wired both ways:
// `<binary> serve --http --port <mcpPort> <vault folder>`, told where this plugin's bridge is
// and its token (OBSIDIAN_TC_COMPANION_URL, OBSIDIAN_TC_COMPANION_TOKEN), so its bridge tools
// and approvals reach Obsidian, and given the bearer token its MCP endpoint requires
// (OBSIDIAN_TC_HTTP_TOKEN = settings.mcpToken), which the plugin's own MCP client presents.
import type { TcBridgeSettings } from "../settings";
import { McpHttpClient, type ToolAnswer } from "./mcp-client";
import { Sidecar, type SidecarOptions, type SidecarStatus } from "./supervisor";

/** The MCP endpoint of a native server listening on `port` of the loopback interface. */
export function mcpUrl(port: number): string {
	return `http://127.0.0.1:${port}/mcp`;
}

/**
 * How to run the native server on `vaultPath`, with this plugin's bridge on `bridgePort` (null
 * when the bridge is not serving: the server then runs without a companion); null without a
 * binary or a vault folder.
 */
export function nativeServerLaunch(
	settings: TcBridgeSettings,
	vaultPath: string | null,
	bridgePort: number | null,
): SidecarOptions | null {
	const binary = settings.sidecarPath.trim();
	if (binary.length === 0 || vaultPath === null) return null;
	const env: Record<string, string> = { OBSIDIAN_TC_HTTP_TOKEN: settings.mcpToken };
	if (bridgePort !== null) {
		env.OBSIDIAN_TC_COMPANION_URL = `http://127.0.0.1:${bridgePort}`;
		env.OBSIDIAN_TC_COMPANION_TOKEN = settings.token;
	}
	return { binary, args: ["serve", "--http", "--port", String(settings.mcpPort), vaultPath], env };
}

/** A running native server: its supervised process and an MCP client with its token. */
export class NativeServer {
	readonly sidecar: Sidecar;
	readonly client: McpHttpClient;

	/** Starts the process of `launch`; `mcpPort` and `mcpToken` are where and how to reach it. */
	constructor(launch: SidecarOptions, mcpPort: number, mcpToken: string, pluginVersion: string) {
		this.sidecar = new Sidecar(launch);
		this.client = new McpHttpClient(mcpUrl(mcpPort), mcpToken, pluginVersion);
		this.sidecar.start();
	}

	/** What the process is doing. */
	status(): SidecarStatus {
		return this.sidecar.status();
	}

	/** Whether the process runs (its endpoint may still be starting). */
	running(): boolean {
		return this.sidecar.status().state === "running";
	}

	/** Calls one of the server's tools over MCP. */
	callTool(name: string, args: Record<string, unknown>, timeoutMs: number): Promise<ToolAnswer> {
		return this.client.callTool(name, args, timeoutMs);
	}

	/** Stops the process for good. */
	stop(): Promise<void> {
		return this.sidecar.stop();
	}
}

// Wiring for main.ts: one BridgeServer over a ToolRegistry, the engine's tool-list hash, the
// Companion API and the activity monitor, and a Notice when the port is taken.
import { Notice } from "obsidian";
import type { CompanionApi } from "../companion/api";
import type { Engine } from "../engine/engine";
import type { ActivityMonitor } from "./activity";
import { BridgeServer } from "./http-server";
import type { ToolListing } from "./registry";
import { ToolRegistry } from "./registry";

/** What else the server serves: the Companion API, and who hears about tool calls. */
export interface BridgeExtras {
	companion?: CompanionApi;
	activity?: ActivityMonitor;
}

/** Why the server is not serving, after a failed `start`. */
export type StartFailure = "port_in_use" | "failed";

/** The localhost server, its registry and its start-up outcome. */
export class Bridge {
	readonly registry = new ToolRegistry();
	readonly server: BridgeServer;
	/** Why the last `start` failed; null while serving or before starting. */
	startFailure: StartFailure | null = null;

	constructor(
		engine: Engine,
		private readonly configuredPort: number,
		token: string,
		version: string,
		extras: BridgeExtras = {},
	) {
		this.server = new BridgeServer({
			registry: this.registry,
			hashTools: (tools: ToolListing[]) => engine.toolListHash(tools),
			port: configuredPort,
			token,
			version,
			companion: extras.companion,
			activity: extras.activity,
		});
	}

	get port(): number {
		return this.server.port;
	}

	/** Starts listening; false (after a Notice naming the port and the setting) when it cannot. */
	async start(): Promise<boolean> {
		try {
			await this.server.start();
			this.startFailure = null;
			return true;
		} catch (err) {
			const code = (err as { code?: unknown }).code;
			this.startFailure = code === "EADDRINUSE" ? "port_in_use" : "failed";
			if (code === "EADDRINUSE") {
				new Notice(
					`TC Bridge: port ${this.configuredPort} is already in use. Change "Port" in the TC Bridge settings, then reload the plugin.`,
				);
			} else {
				console.error("TC Bridge: the local server failed to start", err);
				new Notice("The local bridge server failed to start; see the developer console.");
			}
			return false;
		}
	}

	stop(): Promise<void> {
		return this.server.stop();
	}
}

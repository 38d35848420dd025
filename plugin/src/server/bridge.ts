// Wiring for main.ts: one BridgeServer over a ToolRegistry, the engine's tool-list hash, and a
// Notice when the port is taken.
import { Notice } from "obsidian";
import type { Engine } from "../engine/load";
import { BridgeServer } from "./http-server";
import type { ToolListing } from "./registry";
import { ToolRegistry } from "./registry";

export class Bridge {
	readonly registry = new ToolRegistry();
	readonly server: BridgeServer;

	constructor(
		engine: Engine,
		private readonly configuredPort: number,
		token: string,
		version: string,
	) {
		this.server = new BridgeServer({
			registry: this.registry,
			hashTools: (tools: ToolListing[]) => String(engine.tool_list_hash({ tools })),
			port: configuredPort,
			token,
			version,
		});
	}

	get port(): number {
		return this.server.port;
	}

	/** Starts listening; false (after a Notice naming the port and the setting) when it cannot. */
	async start(): Promise<boolean> {
		try {
			await this.server.start();
			return true;
		} catch (err) {
			const code = (err as { code?: unknown }).code;
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

// The status-bar item: whether the bridge server is serving (and on which port), and what agents
// are doing right now (reading, writing, waiting for approval), updated on every change.
import type { ActivityKind, ActivityMonitor } from "../bridge/activity";
import type { Bridge } from "../bridge/bridge";

/** The server's state as the status bar shows it. */
export type ServerState =
	| { state: "serving"; port: number }
	| { state: "stopped" }
	| { state: "port_in_use"; port: number };

const ACTIVITY_TEXT: Record<ActivityKind, string> = {
	reading: "reading",
	writing: "writing",
	approval: "waiting for approval",
};

/** The state of a bridge after `start`: serving on its bound port, the port taken, or stopped. */
export function serverState(bridge: Bridge, configuredPort: number): ServerState {
	if (bridge.startFailure === "port_in_use") return { state: "port_in_use", port: configuredPort };
	if (bridge.startFailure === null && bridge.port > 0) return { state: "serving", port: bridge.port };
	return { state: "stopped" };
}

function serverText(server: ServerState): string {
	switch (server.state) {
		case "serving":
			return `serving on port ${server.port}`;
		case "port_in_use":
			return `port ${server.port} in use`;
		case "stopped":
			return "stopped";
	}
}

/** Keeps one status-bar element in step with the server state and the activity monitor. */
export class StatusBar {
	private server: ServerState = { state: "stopped" };
	private readonly unsubscribe: () => void;

	constructor(
		private readonly el: HTMLElement,
		private readonly activity: ActivityMonitor,
	) {
		this.unsubscribe = activity.subscribe(() => this.render());
		this.render();
	}

	/** Records the server's new state and redraws. */
	setServer(server: ServerState): void {
		this.server = server;
		this.render();
	}

	/** What the item shows now. */
	text(): string {
		const now = this.activity.current();
		const base = `TC Bridge: ${serverText(this.server)}`;
		return now === null ? base : `${base} · ${ACTIVITY_TEXT[now]}`;
	}

	/** Stops listening to the activity monitor. */
	dispose(): void {
		this.unsubscribe();
	}

	private render(): void {
		this.el.setText(this.text());
	}
}

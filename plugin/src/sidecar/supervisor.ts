// A supervised sidecar: the native `obsidian-tc` binary run next to Obsidian (desktop only),
// restarted with exponential backoff when it exits on its own, stopped on unload.
import { type ChildProcess, spawn } from "child_process";

/** How a sidecar runs and restarts. */
export interface SidecarOptions {
	/** Absolute path of the executable. */
	binary: string;
	args: string[];
	/** First restart delay, ms; doubles after each crash up to `maxBackoffMs`. */
	initialBackoffMs?: number;
	maxBackoffMs?: number;
	/** A run that lasted this long (ms) resets the backoff. */
	stableAfterMs?: number;
	/** Grace period after SIGTERM before SIGKILL on stop, ms. */
	killAfterMs?: number;
}

/** Runs one child process and keeps it running until `stop`. */
export class Sidecar {
	private child: ChildProcess | null = null;
	private restartTimer: number | null = null;
	private stopped = false;
	private crashes = 0;
	/** How many times the process was started again after it exited. */
	restarts = 0;

	constructor(private readonly options: SidecarOptions) {}

	/** The running process's id, if one is running. */
	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** Starts the process (once; later calls do nothing while it runs). */
	start(): void {
		if (this.stopped || this.child !== null) return;
		const startedAt = Date.now();
		const child = spawn(this.options.binary, this.options.args, { stdio: "ignore", windowsHide: true });
		this.child = child;
		let exited = false;
		const onExit = (why: string) => {
			if (exited) return;
			exited = true;
			if (this.child === child) this.child = null;
			if (this.stopped) return;
			if (Date.now() - startedAt >= (this.options.stableAfterMs ?? 60_000)) this.crashes = 0;
			const initial = this.options.initialBackoffMs ?? 1_000;
			const delay = Math.min(initial * 2 ** this.crashes, this.options.maxBackoffMs ?? 60_000);
			this.crashes++;
			console.warn(`TC Bridge: sidecar ${this.options.binary} ${why}; restarting in ${delay} ms`);
			this.restartTimer = window.setTimeout(() => {
				this.restartTimer = null;
				this.restarts++;
				this.start();
			}, delay);
		};
		child.on("error", (err) => onExit(`failed (${err.message})`));
		child.on("exit", (code, signal) => onExit(`exited (${signal ?? `code ${String(code)}`})`));
	}

	/** Stops for good: no more restarts; SIGTERM, then SIGKILL after the grace period. */
	stop(): Promise<void> {
		this.stopped = true;
		if (this.restartTimer !== null) window.clearTimeout(this.restartTimer);
		this.restartTimer = null;
		const child = this.child;
		this.child = null;
		if (child === null || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
		return new Promise((resolve) => {
			const kill = window.setTimeout(() => {
				child.kill("SIGKILL");
				resolve();
			}, this.options.killAfterMs ?? 3_000);
			const done = () => {
				window.clearTimeout(kill);
				resolve();
			};
			child.once("exit", done);
			child.once("error", done);
			child.kill("SIGTERM");
		});
	}
}

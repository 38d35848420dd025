// A supervised sidecar: the native `obsidian-tc` binary run next to Obsidian (desktop only),
// restarted with exponential backoff when it exits on its own, stopped on unload. It keeps the
// last lines the process wrote to stderr, so its state can say why it stopped.
import { type ChildProcess, spawn } from "child_process";
import { env as processEnv } from "process";

/** How a sidecar runs and restarts. */
export interface SidecarOptions {
	/** Absolute path of the executable. */
	binary: string;
	args: string[];
	/** Variables added to the plugin's environment for the process. */
	env?: Record<string, string>;
	/** First restart delay, ms; doubles after each crash up to `maxBackoffMs`. */
	initialBackoffMs?: number;
	maxBackoffMs?: number;
	/** A run that lasted this long (ms) resets the backoff. */
	stableAfterMs?: number;
	/** Grace period after SIGTERM before SIGKILL on stop, ms. */
	killAfterMs?: number;
}

/** What a sidecar is doing. */
export interface SidecarStatus {
	/** `starting` until the process is spawned; `restarting` while waiting out a backoff. */
	state: "starting" | "running" | "restarting" | "stopped";
	/** The running process's id. */
	pid: number | null;
	/** How many times the process was started again after it exited. */
	restarts: number;
	/** Why the last run ended (exit code or signal, and its last line on stderr), if one did. */
	lastError: string | null;
}

/** The most of the process's stderr kept, characters. */
const STDERR_KEPT = 4_000;

/** The last non-empty line of `text`, if any. */
function lastLine(text: string): string | null {
	const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
	return lines.at(-1) ?? null;
}

/** Runs one child process and keeps it running until `stop`. */
export class Sidecar {
	private child: ChildProcess | null = null;
	private spawned = false;
	private restartTimer: number | null = null;
	private stopped = false;
	private crashes = 0;
	private stderr = "";
	private lastError: string | null = null;
	/** How many times the process was started again after it exited. */
	restarts = 0;

	constructor(private readonly options: SidecarOptions) {}

	/** The running process's id, if one is running. */
	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** What the sidecar is doing now. */
	status(): SidecarStatus {
		const state = this.stopped
			? "stopped"
			: this.child === null
				? "restarting"
				: this.spawned
					? "running"
					: "starting";
		return { state, pid: this.child?.pid ?? null, restarts: this.restarts, lastError: this.lastError };
	}

	/** Starts the process (once; later calls do nothing while it runs). */
	start(): void {
		if (this.stopped || this.child !== null) return;
		const startedAt = Date.now();
		const child = spawn(this.options.binary, this.options.args, {
			stdio: ["ignore", "ignore", "pipe"],
			windowsHide: true,
			env: { ...processEnv, ...this.options.env },
		});
		this.child = child;
		this.spawned = false;
		this.stderr = "";
		child.stderr?.setEncoding("utf8");
		child.stderr?.on("data", (text: string) => {
			this.stderr = (this.stderr + text).slice(-STDERR_KEPT);
		});
		child.on("spawn", () => {
			if (this.child === child) this.spawned = true;
		});
		let exited = false;
		const onExit = (why: string) => {
			if (exited) return;
			exited = true;
			if (this.child === child) this.child = null;
			if (this.stopped) return;
			const said = lastLine(this.stderr);
			this.lastError = said === null ? why : `${why}: ${said}`;
			if (Date.now() - startedAt >= (this.options.stableAfterMs ?? 60_000)) this.crashes = 0;
			const initial = this.options.initialBackoffMs ?? 1_000;
			const delay = Math.min(initial * 2 ** this.crashes, this.options.maxBackoffMs ?? 60_000);
			this.crashes++;
			console.warn(`TC Bridge: sidecar ${this.options.binary} ${this.lastError}; restarting in ${delay} ms`);
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

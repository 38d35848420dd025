// Live agent activity: every tool call and every pending approval is counted while it runs, and
// listeners (the status bar) hear each change.

/** What an agent is doing right now. */
export type ActivityKind = "reading" | "writing" | "approval";

/** Whether a call of `tool` reads or writes (its `writes` flag). */
export function activityOf(tool: { writes?: boolean }): ActivityKind {
	return tool.writes === true ? "writing" : "reading";
}

/** Counts what is in flight, by kind, and tells listeners after each change. */
export class ActivityMonitor {
	private readonly counts: Record<ActivityKind, number> = { reading: 0, writing: 0, approval: 0 };
	private readonly listeners = new Set<() => void>();

	/** Marks one activity as started; the returned function ends it (once). */
	begin(kind: ActivityKind): () => void {
		this.counts[kind]++;
		this.notify();
		let ended = false;
		return () => {
			if (ended) return;
			ended = true;
			this.counts[kind]--;
			this.notify();
		};
	}

	/** Runs `work` counted as `kind`. */
	async track<T>(kind: ActivityKind, work: () => Promise<T> | T): Promise<T> {
		const end = this.begin(kind);
		try {
			return await work();
		} finally {
			end();
		}
	}

	/** The most notable activity in flight (approval, then writing, then reading), or null. */
	current(): ActivityKind | null {
		if (this.counts.approval > 0) return "approval";
		if (this.counts.writing > 0) return "writing";
		if (this.counts.reading > 0) return "reading";
		return null;
	}

	/** Calls `listener` after every change; returns the unsubscribe function. */
	subscribe(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private notify(): void {
		for (const listener of this.listeners) listener();
	}
}

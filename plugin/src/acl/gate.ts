// The folder ACL of the in-Obsidian tools: the user's per-folder presets compiled by the
// WebAssembly engine (`aclFromPresets`) and every path decided by the same evaluator the
// native server runs (`aclEvaluate`), plus the write toggle of the settings.
import type { AclConfig, AclOp, Engine, FolderAccess, FolderPreset } from "../engine/engine";

/** The outcome of one check: allowed, or why not (the engine's reason, or the write toggle). */
export type AccessDecision = { allowed: true; path: string } | { allowed: false; reason: string };

export interface AccessPolicy {
	folders: FolderAccess[];
	unlisted: FolderPreset;
	/** When false every write and delete is refused, whatever the folder presets say. */
	allowWrites: boolean;
}

export class AccessGate {
	private readonly config: AclConfig;
	/** Read decisions made so far, by path. */
	private readonly reads = new Map<string, boolean>();
	/** Names the folder access: gates with equal keys read the same notes (the search index keeps its view of them under it). */
	readonly viewKey: string;

	/** Compiles `policy`; throws the engine's `invalid_presets: …` error for a bad folder. */
	constructor(
		private readonly engine: Engine,
		private readonly policy: AccessPolicy,
	) {
		this.config = engine.aclFromPresets(policy.folders, policy.unlisted);
		this.viewKey = JSON.stringify([policy.folders, policy.unlisted]);
	}

	/** Decides `op` on the vault-relative `path`. */
	check(path: string, op: AclOp): AccessDecision {
		if (op !== "read" && !this.policy.allowWrites) {
			return { allowed: false, reason: "writes are turned off in the TC Bridge settings" };
		}
		const decision = this.engine.aclEvaluate({ config: this.config, path, op, granted: ["*"] });
		if (decision.allowed && decision.path !== null) return { allowed: true, path: decision.path };
		return { allowed: false, reason: String(decision.path_error ?? decision.denied_by) };
	}

	/**
	 * Whether every note may be read: no folder and not the unlisted ones set to "none" (the
	 * hard-denied folders, `.obsidian/` and the like, hold no notes the index has).
	 */
	readsEverything(): boolean {
		return this.policy.unlisted !== "none" && this.policy.folders.every((folder) => folder.preset !== "none");
	}

	/**
	 * Whether `path` may be read (search results and listings drop the others). Kept per path:
	 * the policy of a gate never changes (new settings make a new gate), and a search asks once
	 * per note.
	 */
	mayRead(path: string): boolean {
		let allowed = this.reads.get(path);
		if (allowed === undefined) {
			allowed = this.check(path, "read").allowed;
			this.reads.set(path, allowed);
		}
		return allowed;
	}
}

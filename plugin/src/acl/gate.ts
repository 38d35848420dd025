// The folder ACL of the in-Obsidian tools: the user's per-folder presets compiled by the
// WebAssembly engine (`acl_from_presets`) and every path decided by the same evaluator the
// native server runs (`acl_evaluate`), plus the write toggle of the settings.
import type { Engine } from "../engine/load";

/** A folder's permission level (engine-core's presets). */
export type FolderPreset = "none" | "r" | "rw" | "rwd";

/** One folder and its preset. */
export interface FolderAccess {
	folder: string;
	preset: FolderPreset;
}

/** An operation on a vault path. */
export type AclOp = "read" | "write" | "delete";

/** The outcome of one check: allowed, or why not (the engine's reason, or the write toggle). */
export type AccessDecision = { allowed: true; path: string } | { allowed: false; reason: string };

export interface AccessPolicy {
	folders: FolderAccess[];
	unlisted: FolderPreset;
	/** When false every write and delete is refused, whatever the folder presets say. */
	allowWrites: boolean;
}

export class AccessGate {
	private readonly config: unknown;

	/** Compiles `policy`; throws the engine's `invalid_presets: …` error for a bad folder. */
	constructor(
		private readonly engine: Engine,
		private readonly policy: AccessPolicy,
	) {
		this.config = engine.acl_from_presets({ folders: policy.folders, unlisted: policy.unlisted });
	}

	/** Decides `op` on the vault-relative `path`. */
	check(path: string, op: AclOp): AccessDecision {
		if (op !== "read" && !this.policy.allowWrites) {
			return { allowed: false, reason: "writes are turned off in the TC Bridge settings" };
		}
		const decision = this.engine.acl_evaluate({ config: this.config, path, op, granted: ["*"] }) as {
			allowed: boolean;
			path: string | null;
			denied_by: unknown;
			path_error: unknown;
		};
		if (decision.allowed && decision.path !== null) return { allowed: true, path: decision.path };
		const why = decision.path_error ?? decision.denied_by;
		return { allowed: false, reason: typeof why === "string" ? why : JSON.stringify(why) };
	}

	/** Whether `path` may be read (search results and listings drop the others). */
	mayRead(path: string): boolean {
		return this.check(path, "read").allowed;
	}
}

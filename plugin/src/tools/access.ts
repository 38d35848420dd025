// The folder ACL and the write toggle as the tools apply them: every vault path a tool reads
// or writes passes here first, so a denied note is never read, opened, listed or changed.
import { normalizePath, TFile } from "obsidian";
import type { ApprovalRequest, ToolContext } from "./context";
import { fail } from "./define";

/** The vault-relative path, normalised; read access checked (acl_denied otherwise). */
export function requireRead(ctx: ToolContext, path: string): string {
	const p = normalizePath(path);
	const decision = ctx.gate.check(p, "read");
	if (!decision.allowed) fail("acl_denied", `Reading '${p}' is not allowed: ${decision.reason}.`, { path: p });
	return p;
}

/** Refuses every write while "Allow writes" is off in the settings (writes_disabled). */
export function requireWritesOn(ctx: ToolContext, tool: string): void {
	if (!ctx.settings.allowWrites) {
		fail("writes_disabled", `${tool} changes the vault, and writes are turned off. Turn on "Allow writes" in the TC Bridge settings to use it.`);
	}
}

/** The vault-relative path, normalised; writes on and write access checked. */
export function requireWrite(ctx: ToolContext, tool: string, path: string): string {
	requireWritesOn(ctx, tool);
	const p = normalizePath(path);
	const decision = ctx.gate.check(p, "write");
	if (!decision.allowed) fail("acl_denied", `Writing '${p}' is not allowed: ${decision.reason}.`, { path: p });
	return p;
}

/** The file at the vault-relative `path`, or null (a folder or nothing). */
export function fileAt(ctx: ToolContext, path: string): TFile | null {
	const found = ctx.app.vault.getAbstractFileByPath(path);
	return found instanceof TFile ? found : null;
}

/** The readable file at `path` (a note may be named without `.md`); acl_denied / not_found. */
export function readableFile(ctx: ToolContext, path: string): TFile {
	const p = requireRead(ctx, path);
	const file = fileAt(ctx, p) ?? (p.endsWith(".md") ? null : fileAt(ctx, `${p}.md`));
	if (file === null) fail("not_found", `No file '${p}' in this vault.`, { path: p });
	if (file.path !== p) requireRead(ctx, file.path);
	return file;
}

/** Whether `path` may be read (listings and results drop the others). */
export function mayRead(ctx: ToolContext, path: string): boolean {
	return ctx.gate.mayRead(path);
}

/** The files of the vault (or under `folder`) the caller may read, in path order. */
export function readableFiles(ctx: ToolContext, folder?: string): TFile[] {
	const prefix = folder === undefined || folder === "" || folder === "/" ? "" : `${normalizePath(folder)}/`;
	return ctx.app.vault
		.getFiles()
		.filter((f) => f instanceof TFile && f.path.startsWith(prefix) && mayRead(ctx, f.path))
		.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Asks the human; anything but "approved" stops the tool (approval_denied / approval_timed_out). */
export async function requireApproval(ctx: ToolContext, request: Omit<ApprovalRequest, "vault">): Promise<void> {
	const outcome = await ctx.approve({ ...request, vault: ctx.app.vault.getName() });
	if (outcome === "approved") return;
	if (outcome === "timed_out") fail("approval_timed_out", `Nobody approved ${request.tool} in time; nothing was changed.`);
	fail("approval_denied", `${request.tool} was not approved; nothing was changed.`);
}

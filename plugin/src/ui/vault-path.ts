// The vault's absolute folder on disk (desktop: FileSystemAdapter.basePath).
import type { App } from "obsidian";

/** The vault folder's absolute path, or null when the adapter has none (mobile). */
export function vaultBasePath(app: App): string | null {
	const adapter = app.vault.adapter as { basePath?: unknown } | undefined;
	const basePath = adapter?.basePath;
	return typeof basePath === "string" && basePath.length > 0 ? basePath : null;
}

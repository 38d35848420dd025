// The vault's absolute folder on disk (desktop: FileSystemAdapter.basePath).
import type { App } from "obsidian";

/** The vault folder's absolute path, or null when the adapter has none (mobile). */
export function vaultBasePath(app: App): string | null {
	const adapter = app.vault.adapter as { basePath?: unknown };
	return typeof adapter.basePath === "string" && adapter.basePath.length > 0 ? adapter.basePath : null;
}

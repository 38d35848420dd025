// The sidecar of settings.sidecarPath: `obsidian-tc serve --http <vault folder>`.
import { Sidecar } from "./supervisor";

/** Starts the configured binary on the vault folder; null when no binary or no folder is set. */
export function startSidecar(binary: string, vaultPath: string | null): Sidecar | null {
	if (binary.trim().length === 0 || vaultPath === null) return null;
	const sidecar = new Sidecar({ binary: binary.trim(), args: ["serve", "--http", vaultPath] });
	sidecar.start();
	return sidecar;
}

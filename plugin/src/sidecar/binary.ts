// The native server's executable by name: `obsidian-tc`, and `obsidian-tc.exe` on Windows, the
// file the release ships there. A client config block names it when no binary path is set (the
// client then finds it on PATH), and the settings tell the user which file to point at.

/** The native server's file name on `platform` (a `process.platform` value). */
export function serverBinaryName(platform: NodeJS.Platform): string {
	return platform === "win32" ? "obsidian-tc.exe" : "obsidian-tc";
}

/**
 * The command a client config block runs: the binary path set in the settings (absolute, with
 * `\` on Windows, kept as written), else the file name on `platform`.
 */
export function clientCommand(sidecarPath: string, platform: NodeJS.Platform): string {
	return sidecarPath.length > 0 ? sidecarPath : serverBinaryName(platform);
}

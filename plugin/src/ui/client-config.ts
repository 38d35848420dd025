// The `claude_desktop_config.json` snippet (reference obsidian-plugin.md §7.1) for this vault:
// the native server on the vault (`obsidian-tc <vault>`) and the stdio bridge to this plugin
// (`obsidian-tc bridge --vault <vault>`), both with absolute paths.

/** What the snippet names. */
export interface ClientConfigInput {
	vaultName: string;
	/** The vault folder's absolute path. */
	vaultPath: string;
	/** The `obsidian-tc` binary: an absolute path, or the bare name when it is on PATH. */
	binary: string;
}

/** The name a client shows for this vault's servers: the vault name in lowercase kebab case. */
export function serverKey(vaultName: string): string {
	const slug = vaultName
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, "-")
		.replace(/^-+|-+$/g, "");
	return slug.length > 0 ? slug : "vault";
}

/** The `mcpServers` JSON, pretty-printed, ready to paste into `claude_desktop_config.json`. */
export function claudeDesktopConfig(input: ClientConfigInput): string {
	const key = serverKey(input.vaultName);
	const config = {
		mcpServers: {
			[key]: { command: input.binary, args: [input.vaultPath] },
			[`${key}-bridge`]: { command: input.binary, args: ["bridge", "--vault", input.vaultPath] },
		},
	};
	return JSON.stringify(config, null, 2);
}

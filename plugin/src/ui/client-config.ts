// The config blocks an MCP client needs for this vault: the native server over stdio
// (`<binary> <vault>`, absolute paths), as `obsidian-tc setup <client> --vault <vault> --name
// <vault name> --print` prints it, and, where the client speaks it, over HTTP (the sidecar's
// endpoint with its bearer token). One entry per block, named `obsidian-tc-<vault name>`.
//
//   claude-desktop  claude_desktop_config.json  {"mcpServers": {name: {command, args}}} (stdio only)
//   claude-code     .mcp.json                   {"mcpServers": {name: {type: "stdio", command, args}}} / {type: "http", url, headers}
//   codex           ~/.codex/config.toml        [mcp_servers.name] command, args / url, http_headers
//   cursor          ~/.cursor/mcp.json          {"mcpServers": {name: {command, args}}} / {url, headers}
//   vscode          .vscode/mcp.json            {"servers": {name: {type: "stdio", command, args}}} / {type: "http", url, headers}
//   gemini-cli      ~/.gemini/settings.json     {"mcpServers": {name: {command, args}}} / {httpUrl, headers}

/** The clients a block is offered for. */
export type ClientId = "claude-desktop" | "claude-code" | "codex" | "cursor" | "vscode" | "gemini-cli";

/** How the client reaches the server. */
export type Transport = "stdio" | "http";

/** Every client, in the order the settings tab lists them, with where its block goes. */
export const CLIENTS: ReadonlyArray<{ id: ClientId; name: string; file: string }> = [
	{ id: "claude-desktop", name: "Claude Desktop", file: "claude_desktop_config.json" },
	{ id: "claude-code", name: "Claude Code", file: ".mcp.json in the project (or ~/.claude.json)" },
	{ id: "codex", name: "Codex", file: "~/.codex/config.toml" },
	{ id: "cursor", name: "Cursor", file: "~/.cursor/mcp.json (or .cursor/mcp.json in the project)" },
	{ id: "vscode", name: "VS Code", file: ".vscode/mcp.json in the workspace (or the user profile's mcp.json)" },
	{ id: "gemini-cli", name: "Gemini CLI", file: "~/.gemini/settings.json (or .gemini/settings.json in the project)" },
];

/** What a block names. */
export interface ClientConfigInput {
	vaultName: string;
	/** The vault folder's absolute path. */
	vaultPath: string;
	/** The `obsidian-tc` binary (`obsidian-tc.exe` on Windows): an absolute path, or the bare name when it is on PATH. */
	binary: string;
	/** The sidecar's MCP endpoint, `http://127.0.0.1:<port>/mcp`. */
	mcpUrl: string;
	/** The bearer token it requires. */
	mcpToken: string;
}

/**
 * The name a client shows for this vault's server: `obsidian-tc-` and the vault name in lowercase
 * kebab case (the letters, digits and `-` every client accepts, as `setup --name` requires).
 */
export function serverKey(vaultName: string): string {
	const slug = vaultName
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, "-")
		.replace(/^-+|-+$/g, "");
	return slug.length > 0 ? `obsidian-tc-${slug}` : "obsidian-tc";
}

/** JSON text pretty-printed with two spaces, as the clients' own files are. */
const json = (value: unknown) => JSON.stringify(value, null, 2);

/**
 * A TOML basic string. JSON's string escapes (`\"`, `\\`, `\n`, `\uXXXX`, ...) are all TOML
 * escapes too, so JSON.stringify writes one.
 */
const toml = (text: string) => JSON.stringify(text);

/** The block for `client` over `transport`; null when the client has no such transport. */
export function clientConfig(client: ClientId, transport: Transport, input: ClientConfigInput): string | null {
	const name = serverKey(input.vaultName);
	const command = input.binary;
	const args = [input.vaultPath];
	const headers = { Authorization: `Bearer ${input.mcpToken}` };
	const url = input.mcpUrl;
	switch (client) {
		case "claude-desktop":
			// Claude Desktop runs stdio servers only; HTTP servers are added as connectors.
			return transport === "stdio" ? json({ mcpServers: { [name]: { command, args } } }) : null;
		case "claude-code":
			return json({
				mcpServers: { [name]: transport === "stdio" ? { type: "stdio", command, args } : { type: "http", url, headers } },
			});
		case "cursor":
			return json({ mcpServers: { [name]: transport === "stdio" ? { command, args } : { url, headers } } });
		case "gemini-cli":
			// Gemini CLI's `url` is an SSE endpoint; Streamable HTTP is `httpUrl`.
			return json({ mcpServers: { [name]: transport === "stdio" ? { command, args } : { httpUrl: url, headers } } });
		case "vscode":
			return json({
				servers: { [name]: transport === "stdio" ? { type: "stdio", command, args } : { type: "http", url, headers } },
			});
		case "codex":
			return transport === "stdio"
				? `[mcp_servers.${name}]\ncommand = ${toml(command)}\nargs = [${args.map(toml).join(", ")}]\n`
				: `[mcp_servers.${name}]\nurl = ${toml(url)}\nhttp_headers = { "Authorization" = ${toml(headers.Authorization)} }\n`;
	}
}

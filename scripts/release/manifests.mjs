// The package manifests of a release, written by scripts/release.sh: the npm platform
// packages, the `obsidian-tc` npm package, the .mcpb manifest and the MCP registry
// server.json (npm, mcpb and cargo packages). One table (TARGETS) says, per Rust target,
// which npm package, `os`/`cpu`/`libc` and .mcpb platform it is; every version is the
// workspace's (Cargo.toml).
//
//   node manifests.mjs target <triple>                       -> "<npm key> <exe name> <mcpb os>"
//   node manifests.mjs platform-package <dir> <triple> <version>
//   node manifests.mjs main-package <dir> <version>
//   node manifests.mjs mcpb-manifest <dir> <version> <triple>...
//   node manifests.mjs server-json <file> <version> <mcpb file>
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** Every release target: its npm platform package and what npm and Claude Desktop match on. */
export const TARGETS = {
	"x86_64-unknown-linux-gnu": { key: "linux-x64", os: "linux", cpu: ["x64"], libc: ["glibc"], exe: "obsidian-tc" },
	"aarch64-unknown-linux-gnu": { key: "linux-arm64", os: "linux", cpu: ["arm64"], libc: ["glibc"], exe: "obsidian-tc" },
	"universal-apple-darwin": { key: "darwin-universal", os: "darwin", cpu: ["x64", "arm64"], exe: "obsidian-tc" },
	"x86_64-pc-windows-msvc": { key: "win32-x64", os: "win32", cpu: ["x64"], exe: "obsidian-tc.exe" },
};

/** The crate `cargo install` builds the server from (engine-native's package name). */
const CRATE = "obsidian-tc";

/** The GitHub repository releases are published from (the registry name's namespace). */
const REPOSITORY = "https://github.com/obsidian-tc/obsidian-tc";

function target(triple) {
	const found = TARGETS[triple];
	if (!found) throw new Error(`unknown target ${triple}; known: ${Object.keys(TARGETS).join(", ")}`);
	return found;
}

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, "\t")}\n`);

const commands = {
	target(triple) {
		const t = target(triple);
		console.log(`${t.key} ${t.exe} ${t.os}`);
	},
	"platform-package"(dir, triple, version) {
		const t = target(triple);
		const pkg = readJson(join(root, "npm/platform/package.json"));
		pkg.name = `@obsidian-tc/${t.key}`;
		pkg.version = version;
		pkg.description = pkg.description.replace("PLATFORM", t.key);
		pkg.os = [t.os];
		pkg.cpu = t.cpu;
		if (t.libc) pkg.libc = t.libc;
		else delete pkg.libc;
		writeJson(join(dir, "package.json"), pkg);
	},
	"main-package"(dir, version) {
		const pkg = readJson(join(root, "npm/obsidian-tc/package.json"));
		pkg.version = version;
		for (const name of Object.keys(pkg.optionalDependencies)) pkg.optionalDependencies[name] = version;
		writeJson(join(dir, "package.json"), pkg);
	},
	"mcpb-manifest"(dir, version, ...triples) {
		const manifest = readJson(join(root, "mcpb/manifest.json"));
		manifest.version = version;
		const oses = triples.map((triple) => target(triple));
		const unique = new Set(oses.map((t) => t.os));
		if (unique.size !== oses.length) throw new Error("a .mcpb holds one binary per OS (platform_overrides has no architecture key)");
		const command = (t) => `server/${t.os}/${t.exe}`;
		const [first, ...others] = oses;
		manifest.server.entry_point = command(first);
		manifest.server.mcp_config.command = `\${__dirname}/${command(first)}`;
		if (others.length > 0) {
			manifest.server.mcp_config.platform_overrides = Object.fromEntries(
				others.map((t) => [t.os, { command: `\${__dirname}/${command(t)}` }]),
			);
		}
		manifest.compatibility.platforms = oses.map((t) => t.os);
		writeJson(join(dir, "manifest.json"), manifest);
	},
	"server-json"(file, version, mcpb) {
		const npm = readJson(join(root, "npm/obsidian-tc/package.json"));
		const sha256 = createHash("sha256").update(readFileSync(mcpb)).digest("hex");
		const stdio = { type: "stdio" };
		const vault = { type: "positional", valueHint: "vault_folder", description: "The Obsidian vault folder to serve.", isRequired: true, format: "filepath" };
		writeJson(file, {
			$schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json",
			name: npm.mcpName,
			title: "obsidian-tc",
			description: "Search, read and safely edit an Obsidian vault; works with Obsidian closed.",
			repository: { url: REPOSITORY, source: "github" },
			version,
			packages: [
				{ registryType: "npm", identifier: npm.name, version, runtimeHint: "npx", transport: stdio, packageArguments: [vault] },
				{
					registryType: "mcpb",
					identifier: `${REPOSITORY}/releases/download/${version}/${basename(mcpb)}`,
					version,
					fileSha256: sha256,
					transport: stdio,
				},
				// crates.io: `cargo install obsidian-tc`, then `obsidian-tc <vault>`; the registry finds
				// the server's name in the crate's README (the "mcp-name:" line).
				{ registryType: "cargo", identifier: CRATE, version, transport: stdio, packageArguments: [vault] },
			],
		});
	},
};

const [command, ...args] = process.argv.slice(2);
if (!commands[command]) {
	console.error(`usage: node manifests.mjs ${Object.keys(commands).join("|")} ...`);
	process.exit(2);
}
commands[command](...args);

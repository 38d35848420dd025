// The package manifests of a release, written by scripts/release.sh: the npm platform
// packages, the `obsidian-tc` npm package, the .mcpb manifest and the MCP registry
// server.json (npm, mcpb and cargo packages). One table (PLATFORMS) says, per release
// platform, its npm package, the `os`/`cpu`/`libc` npm matches on, the binary's name, the
// archive format and the .mcpb platform; every version is the workspace's (Cargo.toml).
//
//   node manifests.mjs platforms                   -> every platform, one a line, in table order
//   node manifests.mjs platform <platform>         -> "<exe name> <archive extension> <mcpb os>"
//   node manifests.mjs platform-package <dir> <platform> <version>
//   node manifests.mjs main-package <dir> <version>
//   node manifests.mjs mcpb-manifest <dir> <version> <platform>...
//   node manifests.mjs server-json <file> <version> <mcpb file>
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Every release platform (the npm package `@obsidian-tc/<platform>`), in the order the .mcpb
 * takes them: per OS, the first one given (its platform_overrides have no architecture key).
 */
export const PLATFORMS = {
	"linux-x64": { os: "linux", cpu: ["x64"], libc: ["glibc"], exe: "obsidian-tc", archive: "tar.gz" },
	"linux-arm64": { os: "linux", cpu: ["arm64"], libc: ["glibc"], exe: "obsidian-tc", archive: "tar.gz" },
	"darwin-universal": { os: "darwin", cpu: ["x64", "arm64"], exe: "obsidian-tc", archive: "tar.gz" },
	"win32-x64": { os: "win32", cpu: ["x64"], exe: "obsidian-tc.exe", archive: "zip" },
};

/** The crate `cargo install` builds the server from (engine-native's package name). */
const CRATE = "obsidian-tc";

/** The GitHub repository releases are published from (the registry name's namespace). */
const REPOSITORY = "https://github.com/obsidian-tc/obsidian-tc";

function platform(name) {
	const found = PLATFORMS[name];
	if (!found) throw new Error(`unknown platform ${name}; known: ${Object.keys(PLATFORMS).join(", ")}`);
	return { name, ...found };
}

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const writeJson = (file, value) => writeFileSync(file, `${JSON.stringify(value, null, "\t")}\n`);

const commands = {
	platforms() {
		console.log(Object.keys(PLATFORMS).join("\n"));
	},
	platform(name) {
		const t = platform(name);
		console.log(`${t.exe} ${t.archive} ${t.os}`);
	},
	"platform-package"(dir, name, version) {
		const t = platform(name);
		const pkg = readJson(join(root, "npm/platform/package.json"));
		pkg.name = `@obsidian-tc/${t.name}`;
		pkg.version = version;
		pkg.description = pkg.description.replaceAll("PLATFORM", t.name);
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
	"mcpb-manifest"(dir, version, ...names) {
		const manifest = readJson(join(root, "mcpb/manifest.json"));
		manifest.version = version;
		const carried = names.map(platform);
		const oses = carried.map((t) => t.os);
		if (new Set(oses).size !== oses.length) throw new Error("a .mcpb holds one binary per OS (platform_overrides has no architecture key)");
		const command = (t) => `\${__dirname}/server/${t.name}/${t.exe}`;
		const [first, ...others] = carried;
		manifest.server.entry_point = `server/${first.name}/${first.exe}`;
		manifest.server.mcp_config.command = command(first);
		if (others.length > 0) {
			manifest.server.mcp_config.platform_overrides = Object.fromEntries(others.map((t) => [t.os, { command: command(t) }]));
		}
		// Claude Desktop offers the bundle only on the OSes whose binary it carries.
		manifest.compatibility.platforms = oses;
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

// A command when run as a script; PLATFORMS alone when imported (by the tests).
if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
	const [command, ...args] = process.argv.slice(2);
	if (!commands[command]) {
		console.error(`usage: node manifests.mjs ${Object.keys(commands).join("|")} ...`);
		process.exit(2);
	}
	commands[command](...args);
}

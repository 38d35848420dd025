// The Windows x86_64 and Linux aarch64 release artifacts, from the dist/ folder only
// (scripts/release.sh; RELEASE_DIST names it): each archive's files, the binary's format and
// what it needs of the system, the npm package installed offline for that platform (npm's
// --os/--cpu/--libc) with the binary where the launcher looks for it, and the same binary in
// the .mcpb. The aarch64 binary serves an MCP session under qemu-aarch64 when this machine has
// it; the Windows one runs under Wine in scripts/test.sh (tests/wine/run.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { tempFolder } from "../plugin/harness/temp.mjs";
import { PLATFORMS } from "../../scripts/release/manifests.mjs";
import { DIST, VERSION, artifact, checkGlibcAndLibraries, elfMachine, freshVault, installed, root, run, session } from "./artifacts.mjs";

const { platformPackage } = createRequire(import.meta.url)(join(root, "npm/obsidian-tc/bin/obsidian-tc.js"));
const MAIN_TGZ = artifact(`obsidian-tc-${VERSION}.tgz`);
const MCPB = artifact(`obsidian-tc-${VERSION}.mcpb`);

const digest = (file) => createHash("sha256").update(readFileSync(file)).digest("hex");
const unpackedBundle = (() => {
	const dir = tempFolder("obsidian-tc-release-mcpb-");
	run("unzip", ["-q", MCPB, "-d", dir]);
	return dir;
})();

/** Unpacks the archive of `platform` (tar.gz or zip); its one top folder. */
function unpackArchive(platform) {
	const name = `obsidian-tc-${VERSION}-${platform}`;
	const file = artifact(`${name}.${PLATFORMS[platform].archive}`);
	const dir = tempFolder("obsidian-tc-release-archive-");
	if (file.endsWith(".zip")) run("unzip", ["-q", file, "-d", dir]);
	else run("tar", ["-xzf", file, "-C", dir]);
	assert.deepEqual(readdirSync(dir), [name], "one top folder named after the release and platform");
	return join(dir, name);
}

/**
 * Installs the launcher's package as npm does on `platform` (`flags`: npm's --os, --cpu and
 * --libc), its optional dependency on `platform`'s package served by that package's tarball;
 * checks that npm took that package alone, its os/cpu/libc and that it has no install script;
 * its binary's path (where the launcher looks for it).
 */
function installPlatform(platform, flags) {
	const { os, cpu, libc } = PLATFORMS[platform];
	const name = `@obsidian-tc/${platform}`;
	const project = installed([MAIN_TGZ], { flags, overrides: { [name]: `file:${artifact(`obsidian-tc-${platform}-${VERSION}.tgz`)}` } });
	assert.deepEqual(readdirSync(join(project, "node_modules/@obsidian-tc")), [platform], `npm installs ${name} alone with ${flags.join(" ")}`);
	const dir = join(project, "node_modules", name);
	const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
	assert.deepEqual([pkg.name, pkg.os, pkg.cpu, pkg.libc], [`@obsidian-tc/${platform}`, [os], cpu, libc]);
	assert.ok(!("scripts" in pkg), "no install scripts");
	const { pkg: chosen, exe } = platformPackage(os, cpu[0]);
	assert.equal(chosen, pkg.name, "the launcher picks this package on its platform");
	const bin = join(dir, "bin", exe);
	assert.ok(existsSync(bin), `${bin}: the binary where the launcher looks for it`);
	assert.ok(statSync(bin).mode & 0o111, "the binary is executable");
	return bin;
}

/** What `objdump -p` says of a PE file: its format, subsystem and the DLLs it imports. */
function peFile(file) {
	// A MinGW build lists every exported symbol too: tens of MB of text.
	const text = run("objdump", ["-p", file], { maxBuffer: 1 << 30 });
	return {
		format: text.match(/file format (\S+)/)?.[1],
		subsystem: text.match(/^Subsystem\s+\S+\s+\((.+)\)$/m)?.[1],
		dll: (Number.parseInt(text.match(/^Characteristics 0x([0-9a-f]+)$/m)?.[1], 16) & 0x2000) !== 0,
		imports: [...new Set([...text.matchAll(/DLL Name: (\S+)/g)].map((m) => m[1].toLowerCase()))].sort(),
	};
}

/** DLLs every Windows 10 and 11 installation has. */
const WINDOWS_DLL = /^(kernel32|kernelbase|ntdll|userenv|ws2_32|advapi32|msvcrt|ucrtbase|bcryptprimitives|bcrypt|ncrypt|crypt32|secur32|ole32|oleaut32|shell32|user32|iphlpapi|psapi|dbghelp|setupapi|dxgi|api-ms-win-[a-z0-9-]+)\.dll$/;
/** The Microsoft Visual C++ 2015-2022 runtime, which PyPI's onnxruntime.dll is linked against. */
const VC_RUNTIME = ["msvcp140.dll", "msvcp140_1.dll", "vcruntime140.dll", "vcruntime140_1.dll"];

test("Windows x86_64: the zip, the npm package and the .mcpb carry the same console binary and ONNX Runtime", () => {
	const dir = unpackArchive("win32-x64");
	assert.deepEqual(readdirSync(dir).sort(), ["LICENSE", "README.md", "obsidian-tc.exe", "onnxruntime.dll"]);
	const exe = peFile(join(dir, "obsidian-tc.exe"));
	assert.deepEqual([exe.format, exe.subsystem, exe.dll], ["pei-x86-64", "Windows CUI", false], "an x86-64 console program (stdio for MCP)");
	const foreign = exe.imports.filter((dll) => !WINDOWS_DLL.test(dll));
	assert.deepEqual(foreign, [], `obsidian-tc.exe needs only Windows' own DLLs (no MinGW runtime): ${exe.imports.join(", ")}`);
	const ort = peFile(join(dir, "onnxruntime.dll"));
	assert.deepEqual([ort.format, ort.dll], ["pei-x86-64", true], "an x86-64 DLL");
	assert.deepEqual(ort.imports.filter((dll) => !WINDOWS_DLL.test(dll)), VC_RUNTIME, "onnxruntime.dll needs Windows' DLLs and the Visual C++ runtime only");

	const bin = installPlatform("win32-x64", ["--os=win32", "--cpu=x64"]);
	for (const [name, file] of [["npm package", bin], [".mcpb", join(unpackedBundle, "server/win32-x64/obsidian-tc.exe")]]) {
		assert.equal(digest(file), digest(join(dir, "obsidian-tc.exe")), `the ${name}'s obsidian-tc.exe is the zip's`);
		assert.equal(digest(join(file, "../onnxruntime.dll")), digest(join(dir, "onnxruntime.dll")), `onnxruntime.dll next to the ${name}'s binary`);
	}
});

// scripts/test.sh does not cross-build Linux aarch64 yet (its cold release build takes about
// 30 minutes here): without its archive in dist/ its tests are skipped, saying so.
const ARM64_ARCHIVE = join(DIST, `obsidian-tc-${VERSION}-linux-arm64.${PLATFORMS["linux-arm64"].archive}`);
const NO_ARM64 = !existsSync(ARM64_ARCHIVE) && "no linux-arm64 binary was given to scripts/release.sh";

test("Linux aarch64: the archive's binary and ONNX Runtime need glibc 2.35 or older; the npm package carries them", { skip: NO_ARM64 }, (t) => {
	const dir = unpackArchive("linux-arm64");
	assert.deepEqual(readdirSync(dir).sort(), ["LICENSE", "README.md", "libonnxruntime.so.1.32.0", "obsidian-tc"]);
	assert.equal(elfMachine(join(dir, "obsidian-tc")), 183, "an aarch64 binary");
	assert.equal(elfMachine(join(dir, "libonnxruntime.so.1.32.0")), 183, "an aarch64 ONNX Runtime");
	checkGlibcAndLibraries(t, dir, "aarch64");
	const bin = installPlatform("linux-arm64", ["--os=linux", "--cpu=arm64", "--libc=glibc"]);
	assert.equal(digest(bin), digest(join(dir, "obsidian-tc")), "the npm package's binary is the archive's");
	assert.equal(digest(join(bin, "../libonnxruntime.so.1.32.0")), digest(join(dir, "libonnxruntime.so.1.32.0")));
});

const QEMU = ["/usr/bin/qemu-aarch64", "/usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1"];
test("Linux aarch64: the npm package's binary serves an MCP session (under qemu-aarch64)", { timeout: 120000, skip: NO_ARM64 || (!QEMU.every(existsSync) && `needs ${QEMU.join(" and ")}`) }, async () => {
	const bin = installPlatform("linux-arm64", ["--os=linux", "--cpu=arm64", "--libc=glibc"]);
	await session(QEMU[0], ["-L", "/usr/aarch64-linux-gnu", bin, freshVault()], { timeout: 60000 });
});

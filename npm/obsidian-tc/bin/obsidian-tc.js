#!/usr/bin/env node
// The `obsidian-tc` command of the npm package: starts the prebuilt native binary of this
// platform, which npm installed from one of the optionalDependencies (npm skips those whose
// `os`, `cpu` and `libc` do not match). No postinstall step and no download: the binary is in
// the platform package. stdin, stdout and stderr are the binary's own (MCP on stdio passes
// through untouched); its exit code is this process's, and a signal that ends it ends this
// process the same way. `platformPackage` (which package serves which platform) is exported
// for the tests; the launcher runs only when started as the command.
"use strict";

const { spawn } = require("node:child_process");
const path = require("node:path");

/** The platform package of each supported `process.platform-process.arch`. */
const PACKAGES = {
	"linux-x64": "@obsidian-tc/linux-x64",
	"linux-arm64": "@obsidian-tc/linux-arm64",
	"darwin-x64": "@obsidian-tc/darwin-universal",
	"darwin-arm64": "@obsidian-tc/darwin-universal",
	"win32-x64": "@obsidian-tc/win32-x64",
};

/**
 * The platform package and binary file name for `platform` and `arch` (as `process.platform`
 * and `process.arch` name them); throws an Error saying there is none and what to do instead.
 */
function platformPackage(platform, arch) {
	const key = `${platform}-${arch}`;
	const pkg = PACKAGES[key];
	if (!pkg) {
		throw new Error(
			`obsidian-tc: no prebuilt binary for ${key} (there are binaries for ` +
				`${Object.keys(PACKAGES).join(", ")}).\n` +
				"Build it from source instead (needs Rust): cargo install obsidian-tc",
		);
	}
	return { pkg, exe: platform === "win32" ? "obsidian-tc.exe" : "obsidian-tc" };
}

/** The installed binary's path, or exits 1 saying which platform has no binary and why. */
function binaryPath() {
	const platform = `${process.platform}-${process.arch}`;
	let pkg, exe;
	try {
		({ pkg, exe } = platformPackage(process.platform, process.arch));
	} catch (error) {
		fail(error.message);
	}
	let dir;
	try {
		dir = path.dirname(require.resolve(`${pkg}/package.json`));
	} catch {
		fail(
			`obsidian-tc: the binary package ${pkg} for ${platform} is not installed.\n` +
				"npm installs it with obsidian-tc unless optional dependencies are left out " +
				"(--omit=optional, --no-optional) or the C library is not glibc (musl, e.g. Alpine, " +
				"is not supported). Reinstall obsidian-tc with optional dependencies.",
		);
	}
	return path.join(dir, "bin", exe);
}

function fail(message) {
	process.stderr.write(`${message}\n`);
	process.exit(1);
}

/** Starts this platform's binary with this process's arguments and stdio, and follows it. */
function main() {
	const child = spawn(binaryPath(), process.argv.slice(2), { stdio: "inherit", windowsHide: true });
	// A signal sent to this process (Ctrl-C, a client stopping the server) goes to the binary,
	// which shuts down cleanly; this process ends when the binary does.
	const forwarded = ["SIGINT", "SIGTERM", "SIGHUP"];
	for (const signal of forwarded) {
		process.on(signal, () => child.kill(signal));
	}
	child.on("error", (error) => fail(`obsidian-tc: cannot start ${error.path ?? "the binary"}: ${error.message}`));
	child.on("exit", (code, signal) => {
		if (signal) {
			for (const s of forwarded) process.removeAllListeners(s);
			process.kill(process.pid, signal);
			return;
		}
		process.exit(code ?? 1);
	});
}

module.exports = { platformPackage };
if (require.main === module) main();

// The Companion API v1 route table (seed 000 §3.1): each path under /obsidian-tc/v1 and the
// bridge tool it runs, from the contract (engine-native/contract/companion-api.json). Data only;
// api.ts does the dispatch.
import { CONTRACT, contractMethod } from "./contract";

export const COMPANION_PREFIX = CONTRACT.prefix;

/**
 * Which tool a route runs: one name, or a choice by a string argument (`by`), whose value picks
 * the tool (`default` when absent). The choosing argument is not passed on to the tool.
 */
export type ToolChoice = string | { by: string; tools: Record<string, string>; default: string };

/**
 * One route. "GET" routes only list things: they also accept POST with a JSON body of arguments
 * (the shipped companion used POST everywhere); "POST" routes accept POST only.
 */
export interface CompanionRoute {
	path: string;
	method: "GET" | "POST";
	tool: ToolChoice;
}

/** Every tool route, in the order of seed 000 §3.1, then the in-Obsidian extras (the contract's `routes`). */
export const COMPANION_ROUTES: readonly CompanionRoute[] = CONTRACT.routes.map((route) => ({
	path: route.path,
	method: contractMethod(route.method),
	tool: route.tool,
}));

/** An endpoint that runs no bridge tool: the probe or the approval dialog. */
export interface CompanionEndpoint {
	path: string;
	method: "GET" | "POST";
}

/** The probe (`GET .../probe`). */
export const PROBE_ENDPOINT: CompanionEndpoint = {
	path: CONTRACT.endpoints.probe.path,
	method: contractMethod(CONTRACT.endpoints.probe.method),
};

/** The approval dialog (`POST .../confirm`). */
export const CONFIRM_ENDPOINT: CompanionEndpoint = {
	path: CONTRACT.endpoints.confirm.path,
	method: contractMethod(CONTRACT.endpoints.confirm.method),
};

/** The full request path of a route or endpoint. */
export function fullPath(entry: { path: string }): string {
	return `${COMPANION_PREFIX}${entry.path}`;
}

const BY_PATH = new Map(COMPANION_ROUTES.map((r) => [fullPath(r), r]));

/** The route of a full request path, or undefined. */
export function findRoute(path: string): CompanionRoute | undefined {
	return BY_PATH.get(path);
}

/** The methods a route accepts. */
export function allowedMethods(route: CompanionRoute): string[] {
	return route.method === "GET" ? ["GET", "POST"] : ["POST"];
}

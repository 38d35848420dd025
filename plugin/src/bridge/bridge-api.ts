// Bridge API v1 (seed 001): health, tool list with its hash, tool calls. Pure request → reply
// logic; the HTTP plumbing lives in http-server.ts.
import { type ActivityMonitor, activityOf } from "./activity";
import type { BridgeTool, ToolListing, ToolRegistry, ToolResult } from "./registry";

export const BRIDGE_PREFIX = "/bridge/v1";
export const BRIDGE_VERSION = "1.0.0";
export const PROTOCOL_VERSION = "1";

export interface Reply {
	status: number;
	body: unknown;
}

/** The tool-list hash of seed 001, computed by the WebAssembly engine (`tool_list_hash`). */
export type ToolListHasher = (tools: ToolListing[]) => string;

export interface BridgeApiDeps {
	registry: ToolRegistry;
	hashTools: ToolListHasher;
	version?: string;
	/** Told about every tool call while it runs (the status bar listens). */
	activity?: ActivityMonitor;
}

function error(status: number, code: string, message: string, details?: unknown): Reply {
	return { status, body: details === undefined ? { error: code, message } : { error: code, message, details } };
}

const CALL_ROUTE = /^\/bridge\/v1\/tools\/([^/]+)\/call$/;

/** Which route a request targets: "health", "tools", a tool call, or null (404). */
export type Route = { kind: "health" } | { kind: "tools" } | { kind: "call"; name: string };

export function route(path: string): Route | null {
	if (path === `${BRIDGE_PREFIX}/health`) return { kind: "health" };
	if (path === `${BRIDGE_PREFIX}/tools`) return { kind: "tools" };
	const m = CALL_ROUTE.exec(path);
	if (m?.[1] !== undefined) {
		try {
			return { kind: "call", name: decodeURIComponent(m[1]) };
		} catch {
			return null;
		}
	}
	return null;
}

export function health(deps: BridgeApiDeps): Reply {
	return {
		status: 200,
		body: { status: "ok", version: deps.version ?? BRIDGE_VERSION, protocolVersion: PROTOCOL_VERSION },
	};
}

export function listTools(deps: BridgeApiDeps): Reply {
	const tools = deps.registry.list();
	return { status: 200, body: { tools, hash: deps.hashTools(tools) } };
}

/** Whether `v` is a JSON object (not null, not an array). */
export function isPlainObject(v: unknown): v is Record<string, unknown> {
	return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** The names in the tool's `inputSchema.required` that `args` lacks. */
export function missingArguments(tool: BridgeTool, args: Record<string, unknown>): string[] {
	const required = Array.isArray(tool.inputSchema.required) ? tool.inputSchema.required : [];
	return required.filter((key) => !Object.prototype.hasOwnProperty.call(args, key) || args[key] === undefined);
}

/** Runs the tool, counted in `activity` (reading or writing) while it runs. */
export function runTool(deps: BridgeApiDeps, tool: BridgeTool, args: Record<string, unknown>): Promise<ToolResult> {
	const work = () => tool.run(args);
	return deps.activity ? deps.activity.track(activityOf(tool), work) : Promise.resolve().then(work);
}

/** `POST /bridge/v1/tools/{name}/call` with the raw request body text. */
export async function callTool(deps: BridgeApiDeps, name: string, bodyText: string): Promise<Reply> {
	const tool = deps.registry.get(name);
	if (tool === undefined) return error(404, "TOOL_NOT_FOUND", `Tool '${name}' not found`);

	let parsed: unknown = {};
	if (bodyText.trim().length > 0) {
		try {
			parsed = JSON.parse(bodyText);
		} catch {
			return error(400, "INVALID_ARGUMENTS", "Request body is not valid JSON");
		}
	}
	if (!isPlainObject(parsed)) return error(400, "INVALID_ARGUMENTS", "Request body must be a JSON object");
	const args = parsed.arguments ?? {};
	if (!isPlainObject(args)) return error(400, "INVALID_ARGUMENTS", "'arguments' must be a JSON object");

	const missing = missingArguments(tool, args);
	if (missing.length > 0) {
		const noun = missing.length === 1 ? "argument" : "arguments";
		return error(400, "INVALID_ARGUMENTS", `Missing required ${noun}: ${missing.join(", ")}`, { missing });
	}

	try {
		const result = await runTool(deps, tool, args);
		if (result.isError === true) {
			return { status: 200, body: { success: false, content: result.content, isError: true } };
		}
		return { status: 200, body: { success: true, content: result.content } };
	} catch (err) {
		console.error(`TC Bridge: tool '${name}' threw`, err);
		return error(500, "EXECUTION_ERROR", "Internal server error");
	}
}

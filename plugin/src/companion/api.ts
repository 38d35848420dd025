// Companion API v1 dispatch (seed 000 §3.1, §6): the probe, the approval dialog, and the route
// table's tools, each answer in the `{ok, result}` / `{ok:false, code, message, details}` envelope.
// The HTTP plumbing (admission, body limits) lives in bridge/http-server.ts.
import type { App } from "obsidian";
import { type BridgeApiDeps, isPlainObject, missingArguments, type Reply, runTool } from "../bridge/bridge-api";
import type { ApprovalQueue } from "./approvals";
import { confirm } from "./confirm";
import { envelopeOf, failure, success } from "./envelope";
import { checkShape, probe, type ShapeReport } from "./probe";
import { allowedMethods, CONFIRM_ENDPOINT, findRoute, fullPath, PROBE_ENDPOINT, type ToolChoice } from "./routes";

/** What a companion request needs beyond the bridge API's registry. */
export interface CompanionDeps {
	app: App;
	approvals: ApprovalQueue;
	pluginVersion: string;
}

/** A request under /obsidian-tc/v1, as the HTTP server hands it over. */
export interface CompanionRequest {
	method: string;
	path: string;
	/** Reads the body (with the server's size limit); only called for a body-carrying method. */
	readBody(): Promise<string>;
	/** Aborted when the client's connection closes before the answer. */
	signal: AbortSignal;
}

/** The methods a path accepts, or null when nothing is routed there. */
export function companionMethods(path: string): string[] | null {
	if (path === fullPath(PROBE_ENDPOINT)) return [PROBE_ENDPOINT.method];
	if (path === fullPath(CONFIRM_ENDPOINT)) return [CONFIRM_ENDPOINT.method];
	const route = findRoute(path);
	return route ? allowedMethods(route) : null;
}

/** A parsed value, or the reply that refuses the request. */
type Parsed<T> = { value: T } | { refused: Reply };

function parseArgs(text: string): Parsed<Record<string, unknown>> {
	if (text.trim().length === 0) return { value: {} };
	let parsed: unknown;
	try {
		parsed = JSON.parse(text);
	} catch {
		return { refused: failure(400, "invalid_input", "Request body is not valid JSON") };
	}
	if (!isPlainObject(parsed)) return { refused: failure(400, "invalid_input", "Request body must be a JSON object") };
	return { value: parsed };
}

/** The tool name a choice picks for `args` (the choosing argument removed), or an error reply. */
function chooseTool(choice: ToolChoice, args: Record<string, unknown>): Parsed<{ name: string; args: Record<string, unknown> }> {
	if (typeof choice === "string") return { value: { name: choice, args } };
	const { [choice.by]: key = choice.default, ...rest } = args;
	const name = typeof key === "string" ? choice.tools[key] : undefined;
	if (name === undefined) {
		const options = Object.keys(choice.tools).join(", ");
		return { refused: failure(400, "invalid_input", `'${choice.by}' must be one of: ${options}`, { [choice.by]: key }) };
	}
	return { value: { name, args: rest } };
}

/** Serves the Companion API, with the startup shape self-check taken once at construction. */
export class CompanionApi {
	/** The self-check of the Obsidian internals, taken when the plugin loaded. */
	readonly shape: ShapeReport;

	constructor(private readonly deps: CompanionDeps) {
		this.shape = checkShape(deps.app);
	}

	/** Answers a request whose method `companionMethods` allows. */
	async handle(bridge: BridgeApiDeps, request: CompanionRequest): Promise<Reply> {
		const text = request.method === "GET" ? "" : await request.readBody();
		const parsed = parseArgs(text);
		if ("refused" in parsed) return parsed.refused;
		const args = parsed.value;
		if (request.path === fullPath(PROBE_ENDPOINT)) {
			return success(probe(this.deps.app, this.deps.pluginVersion, this.shape));
		}
		if (request.path === fullPath(CONFIRM_ENDPOINT)) {
			return confirm(this.deps.approvals, args, request.signal);
		}
		const route = findRoute(request.path);
		if (route === undefined) return failure(404, "not_found", `No route ${request.path}`);
		const chosen = chooseTool(route.tool, args);
		if ("refused" in chosen) return chosen.refused;
		return this.callTool(bridge, chosen.value.name, chosen.value.args);
	}

	private async callTool(bridge: BridgeApiDeps, name: string, args: Record<string, unknown>): Promise<Reply> {
		const tool = bridge.registry.get(name);
		if (tool === undefined) {
			return failure(404, "plugin_missing", `TC Bridge does not serve '${name}' in this vault: the plugin it needs is not available.`, {
				tool: name,
			});
		}
		const missing = missingArguments(tool, args);
		if (missing.length > 0) {
			const noun = missing.length === 1 ? "argument" : "arguments";
			return failure(400, "invalid_input", `Missing required ${noun}: ${missing.join(", ")}`, { missing });
		}
		try {
			return envelopeOf(await runTool(bridge, tool, args));
		} catch (err) {
			console.error(`TC Bridge: tool '${name}' threw`, err);
			return failure(500, "internal_error", `Tool '${name}' failed; see the developer console in Obsidian.`, { tool: name });
		}
	}
}

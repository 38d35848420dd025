// A small MCP client for the native server's Streamable HTTP endpoint: `initialize`, then
// `notifications/initialized`, then `tools/call`, with the session id the server hands out
// (`Mcp-Session-Id`, started again once when the server has dropped it) and the bearer token.
// Answers come back as JSON or as a server-sent event stream; the one carrying the call's id is
// read.
//
// Written here rather than taken from @modelcontextprotocol/sdk because the SDK's transport
// sends its requests with `fetch`: in Obsidian's renderer that carries the app's own Origin
// (`app://obsidian.md`), which the server refuses as a browser request from a foreign origin,
// and the store's review rules ban `fetch` for `requestUrl`. The SDK would also put about
// 680 kB (zod, ajv) into main.js for the three messages this needs.
import { requestUrl, type RequestUrlResponse } from "obsidian";

/** The protocol version asked for (one with sessions, which the server speaks). */
const PROTOCOL_VERSION = "2025-11-25";

/** Why a call did not get an answer from the server. */
export type McpFailure = "unreachable" | "unauthorized" | "timeout" | "protocol";

/** A failed exchange with the server (not a tool's own error, which is a result). */
export class McpError extends Error {
	constructor(
		readonly failure: McpFailure,
		message: string,
	) {
		super(message);
	}
}

/** A tool's answer. */
export interface ToolAnswer {
	/** Whether the tool reported an error. */
	isError: boolean;
	/** Its structured content, else its first text content read as JSON, else that text. */
	value: unknown;
}

/** One JSON-RPC message. */
interface RpcMessage {
	id?: number | string | null;
	result?: unknown;
	error?: { code?: number; message?: string };
}

/** A header of `response`, whatever the case of its name. */
function header(response: RequestUrlResponse, name: string): string | null {
	for (const [key, value] of Object.entries(response.headers)) {
		if (key.toLowerCase() === name) return value;
	}
	return null;
}

/** The JSON-RPC messages of a body: one JSON value, or the `data` of each server-sent event. */
function messages(response: RequestUrlResponse): RpcMessage[] {
	const text = response.text;
	if ((header(response, "content-type") ?? "").includes("text/event-stream")) {
		return text
			.split(/\r?\n\r?\n/)
			.map((event) =>
				event
					.split(/\r?\n/)
					.filter((line) => line.startsWith("data:"))
					.map((line) => line.slice(5).replace(/^ /, ""))
					.join("\n"),
			)
			.filter((data) => data.trim().length > 0)
			.map((data) => JSON.parse(data) as RpcMessage);
	}
	const parsed = JSON.parse(text) as RpcMessage | RpcMessage[];
	return Array.isArray(parsed) ? parsed : [parsed];
}

/** The tool answer in a `tools/call` result. */
function toolAnswer(result: unknown): ToolAnswer {
	const r = (typeof result === "object" && result !== null ? result : {}) as {
		isError?: unknown;
		structuredContent?: unknown;
		content?: Array<{ type?: unknown; text?: unknown }>;
	};
	let value: unknown = r.structuredContent;
	const text = r.content?.find((c) => c.type === "text")?.text;
	if (value === undefined && typeof text === "string") {
		try {
			value = JSON.parse(text) as unknown;
		} catch {
			value = text;
		}
	}
	return { isError: r.isError === true, value: value ?? null };
}

/** A client of one MCP endpoint with one token. */
export class McpHttpClient {
	private session: string | null = null;
	private negotiated = PROTOCOL_VERSION;
	private nextId = 1;

	/**
	 * @param url The endpoint, `http://127.0.0.1:<port>/mcp`.
	 * @param token The bearer token the server expects.
	 * @param version This plugin's version, sent as the client's.
	 */
	constructor(
		readonly url: string,
		private readonly token: string,
		private readonly version: string,
	) {}

	/** Calls `name` with `args`; an `McpError` when the server could not be asked or did not answer. */
	async callTool(name: string, args: Record<string, unknown>, timeoutMs: number): Promise<ToolAnswer> {
		const deadline = Date.now() + timeoutMs;
		for (let attempt = 0; ; attempt++) {
			if (this.session === null) await this.initialize(deadline);
			const id = this.nextId++;
			const response = await this.post({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } }, deadline);
			// The server forgot the session (it restarted, or the session expired): start a new one, once.
			if (response.status === 404 && attempt === 0) {
				this.session = null;
				continue;
			}
			return toolAnswer(this.answer(response, id));
		}
	}

	private async initialize(deadline: number): Promise<void> {
		const id = this.nextId++;
		const response = await this.post(
			{
				jsonrpc: "2.0",
				id,
				method: "initialize",
				params: { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "tc-bridge", version: this.version } },
			},
			deadline,
		);
		const result = this.answer(response, id) as { protocolVersion?: unknown };
		if (typeof result.protocolVersion === "string") this.negotiated = result.protocolVersion;
		this.session = header(response, "mcp-session-id");
		const ack = await this.post({ jsonrpc: "2.0", method: "notifications/initialized" }, deadline);
		if (ack.status >= 400) throw new McpError("protocol", `the server refused notifications/initialized (HTTP ${ack.status})`);
	}

	/** The result of request `id` in `response`; an `McpError` for an HTTP or JSON-RPC error. */
	private answer(response: RequestUrlResponse, id: number): unknown {
		if (response.status === 401 || response.status === 403) {
			throw new McpError("unauthorized", `the native server refused the MCP token (HTTP ${response.status})`);
		}
		if (response.status >= 400) throw new McpError("protocol", `the native server answered HTTP ${response.status}`);
		let found: RpcMessage | undefined;
		try {
			found = messages(response).find((m) => m.id === id);
		} catch (err) {
			throw new McpError("protocol", `the native server's answer is not JSON-RPC (${String(err)})`);
		}
		if (found === undefined) throw new McpError("protocol", "the native server's answer has no response to the request");
		if (found.error !== undefined) {
			throw new McpError("protocol", `the native server answered error ${String(found.error.code)}: ${found.error.message ?? ""}`);
		}
		return found.result;
	}

	/** POSTs one message; rejects with an `McpError` when the server is unreachable or too slow. */
	private async post(message: object, deadline: number): Promise<RequestUrlResponse> {
		const headers: Record<string, string> = {
			Accept: "application/json, text/event-stream",
			Authorization: `Bearer ${this.token}`,
			"MCP-Protocol-Version": this.negotiated,
		};
		if (this.session !== null) headers["Mcp-Session-Id"] = this.session;
		const left = deadline - Date.now();
		if (left <= 0) throw new McpError("timeout", "the native server did not answer in time");
		let timer = 0;
		const timeout = new Promise<never>((_, reject) => {
			timer = window.setTimeout(() => reject(new McpError("timeout", "the native server did not answer in time")), left);
		});
		try {
			const request = requestUrl({
				url: this.url,
				method: "POST",
				contentType: "application/json",
				headers,
				body: JSON.stringify(message),
				throw: false,
			});
			return await Promise.race([request, timeout]);
		} catch (err) {
			if (err instanceof McpError) throw err;
			throw new McpError("unreachable", `the native server at ${this.url} is not reachable (${String(err)})`);
		} finally {
			window.clearTimeout(timer);
		}
	}
}

// The localhost HTTP server: 127.0.0.1 only, admission checks, body limit, timeouts, and a close
// that destroys every open socket.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "http";
import type { Socket } from "net";
import { BodyTooLarge, MAX_BODY_BYTES, readBody } from "./body";
import type { CompanionApi } from "../companion/api";
import { companionMethods } from "../companion/api";
import { failure } from "../companion/envelope";
import { COMPANION_PREFIX } from "../companion/routes";
import { type BridgeApiDeps, callTool, health, listTools, type Reply, route } from "./bridge-api";
import { admit } from "./guard";

export const BIND_ADDRESS = "127.0.0.1";

export interface BridgeServerOptions extends BridgeApiDeps {
	/** Port to listen on; 0 picks a free one (tests). */
	port: number;
	token: string;
	maxBodyBytes?: number;
	/** Whole-request receive deadline, ms. */
	requestTimeoutMs?: number;
	/** Serves /obsidian-tc/v1 (probe, confirm, tool routes); without it those paths are 404. */
	companion?: CompanionApi;
}

/** The body was refused (already answered 413, or the connection dropped): nothing more to do. */
class BodyRefused extends Error {}

function isCompanionPath(path: string): boolean {
	return path === COMPANION_PREFIX || path.startsWith(`${COMPANION_PREFIX}/`);
}

function send(res: ServerResponse, reply: Reply): void {
	const text = JSON.stringify(reply.body);
	res.writeHead(reply.status, {
		"Content-Type": "application/json; charset=utf-8",
		"Content-Length": Buffer.byteLength(text),
		"Cache-Control": "no-store",
		"X-Content-Type-Options": "nosniff",
	});
	res.end(text);
}

export class BridgeServer {
	private server: Server | null = null;
	private readonly sockets = new Set<Socket>();
	private boundPort = 0;
	private closing: Promise<void> | null = null;
	private token: string;

	constructor(private readonly options: BridgeServerOptions) {
		this.token = options.token;
	}

	/** Replaces the bearer token; requests from then on must present the new one. */
	setToken(token: string): void {
		this.token = token;
	}

	/** The port actually bound (useful with port 0); 0 before start. */
	get port(): number {
		return this.boundPort;
	}

	/** Listens on 127.0.0.1; rejects with the listen error (e.g. code EADDRINUSE). */
	start(): Promise<number> {
		const server = createServer((req, res) => {
			void this.handle(req, res);
		});
		server.requestTimeout = this.options.requestTimeoutMs ?? 30_000;
		server.headersTimeout = Math.min(server.requestTimeout, 10_000);
		server.keepAliveTimeout = 5_000;
		server.setTimeout(120_000);
		server.maxHeadersCount = 100;
		server.on("connection", (socket: Socket) => {
			this.sockets.add(socket);
			socket.on("close", () => this.sockets.delete(socket));
		});
		this.server = server;
		return new Promise((resolve, reject) => {
			const onError = (err: Error) => {
				this.server = null;
				reject(err);
			};
			server.once("error", onError);
			server.listen(this.options.port, BIND_ADDRESS, () => {
				server.off("error", onError);
				server.on("error", (err) => console.error("TC Bridge: server error", err));
				const address = server.address();
				this.boundPort = typeof address === "object" && address !== null ? address.port : this.options.port;
				resolve(this.boundPort);
			});
		});
	}

	/** Stops listening and destroys every open socket; idempotent. */
	stop(): Promise<void> {
		if (this.closing) return this.closing;
		const server = this.server;
		if (server === null) return Promise.resolve();
		this.closing = new Promise((resolve) => {
			server.close(() => resolve());
			for (const socket of this.sockets) socket.destroy();
			this.sockets.clear();
		});
		return this.closing;
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		try {
			const path = (req.url ?? "/").split("?")[0] ?? "/";
			const companion = isCompanionPath(path);
			const refusal = admit(req, this.boundPort, this.token);
			if (refusal) {
				req.resume();
				const body = companion
					? failure(refusal.status, refusal.status === 401 ? "unauthorized" : "forbidden", refusal.message).body
					: { error: refusal.error, message: refusal.message };
				send(res, { status: refusal.status, body });
				return;
			}
			// Admitted: a call may wait on a human (approval dialogs last up to an hour) or on a
			// companion plugin, so the idle-socket timeout no longer applies; receiving the
			// request stays bounded by requestTimeout, and tools bound their own waits.
			req.socket.setTimeout(0);
			if (companion) await this.handleCompanion(req, res, path);
			else await this.handleBridge(req, res, path);
		} catch (err) {
			console.error("TC Bridge: request failed", err);
			if (!res.headersSent && !res.destroyed) {
				send(res, { status: 500, body: { error: "EXECUTION_ERROR", message: "Internal server error" } });
			}
		}
	}

	/** The request body within the size limit, or null after answering 413 (or dropping it). */
	private async readLimitedBody(req: IncomingMessage, res: ServerResponse, tooLarge: (message: string) => Reply): Promise<string | null> {
		try {
			return await readBody(req, this.options.maxBodyBytes ?? MAX_BODY_BYTES);
		} catch (err) {
			if (err instanceof BodyTooLarge) {
				res.setHeader("Connection", "close");
				send(res, tooLarge(err.message));
			} else if (!res.headersSent && !res.destroyed) {
				res.destroy();
			}
			return null;
		}
	}

	private async handleBridge(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
		const target = route(path);
		if (target === null) {
			req.resume();
			send(res, { status: 404, body: { error: "NOT_FOUND", message: `No route ${path}` } });
			return;
		}
		const method = target.kind === "call" ? "POST" : "GET";
		if (req.method !== method) {
			req.resume();
			res.setHeader("Allow", method);
			send(res, { status: 405, body: { error: "METHOD_NOT_ALLOWED", message: `Use ${method}` } });
			return;
		}
		if (target.kind === "health") {
			req.resume();
			send(res, health(this.options));
		} else if (target.kind === "tools") {
			req.resume();
			send(res, listTools(this.options));
		} else {
			const text = await this.readLimitedBody(req, res, (message) => ({
				status: 413,
				body: { error: "PAYLOAD_TOO_LARGE", message },
			}));
			if (text === null) return;
			send(res, await callTool(this.options, target.name, text));
		}
	}

	private async handleCompanion(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
		const api = this.options.companion;
		const methods = api ? companionMethods(path) : null;
		if (api === undefined || methods === null) {
			req.resume();
			send(res, failure(404, "not_found", `No route ${path}`));
			return;
		}
		const method = req.method ?? "GET";
		if (!methods.includes(method)) {
			req.resume();
			res.setHeader("Allow", methods.join(", "));
			send(res, failure(405, "invalid_input", `Use ${methods.join(" or ")}`));
			return;
		}
		// The caller hanging up (or the server stopping) aborts what waits for it: a pending
		// approval then answers "denied".
		const hangUp = new AbortController();
		res.on("close", () => {
			if (!res.writableFinished) hangUp.abort();
		});
		if (method === "GET") req.resume();
		let reply: Reply;
		try {
			reply = await api.handle(this.options, {
				method,
				path,
				signal: hangUp.signal,
				readBody: async () => {
					const text = await this.readLimitedBody(req, res, (message) => failure(413, "invalid_input", message));
					if (text === null) throw new BodyRefused();
					return text;
				},
			});
		} catch (err) {
			if (err instanceof BodyRefused) return;
			throw err;
		}
		if (!res.headersSent && !res.destroyed) send(res, reply);
	}
}

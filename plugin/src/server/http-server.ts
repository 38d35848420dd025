// The localhost HTTP server: 127.0.0.1 only, admission checks, body limit, timeouts, and a close
// that destroys every open socket.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "http";
import type { Socket } from "net";
import { BodyTooLarge, MAX_BODY_BYTES, readBody } from "./body";
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

	constructor(private readonly options: BridgeServerOptions) {}

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
			const refusal = admit(req, this.boundPort, this.options.token);
			if (refusal) {
				req.resume();
				send(res, { status: refusal.status, body: { error: refusal.error, message: refusal.message } });
				return;
			}
			const path = (req.url ?? "/").split("?")[0] ?? "/";
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
				const limit = this.options.maxBodyBytes ?? MAX_BODY_BYTES;
				let text: string;
				try {
					text = await readBody(req, limit);
				} catch (err) {
					if (err instanceof BodyTooLarge) {
						res.setHeader("Connection", "close");
						send(res, { status: 413, body: { error: "PAYLOAD_TOO_LARGE", message: err.message } });
					} else if (!res.headersSent && !res.destroyed) {
						res.destroy();
					}
					return;
				}
				send(res, await callTool(this.options, target.name, text));
			}
		} catch (err) {
			console.error("TC Bridge: request failed", err);
			if (!res.headersSent && !res.destroyed) {
				send(res, { status: 500, body: { error: "EXECUTION_ERROR", message: "Internal server error" } });
			}
		}
	}
}

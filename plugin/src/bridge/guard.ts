// Request admission: Host and Origin checks against DNS rebinding and web pages, and the bearer
// token compared in constant time.
import { createHash, timingSafeEqual } from "crypto";
import type { IncomingMessage } from "http";

/** Host must name the loopback address or localhost with the bound port (DNS rebinding guard). */
export function hostAllowed(host: string | undefined, port: number): boolean {
	if (host === undefined) return false;
	const h = host.toLowerCase();
	return h === `127.0.0.1:${port}` || h === `localhost:${port}`;
}

/**
 * Any Origin header means a browser page made the request: refused. Our clients (the stdio bridge
 * and the native server) are Node/Rust processes that send none.
 */
export function originAllowed(origin: string | string[] | undefined): boolean {
	return origin === undefined;
}

function digest(value: string): Buffer {
	return createHash("sha256").update(value, "utf8").digest();
}

/**
 * `Authorization: Bearer <token>` against the configured token. Both sides are hashed to 32 bytes
 * so timingSafeEqual always compares equal-length buffers and the length leaks nothing.
 */
export function tokenMatches(authorization: string | undefined, token: string): boolean {
	if (token.length === 0 || authorization === undefined) return false;
	const m = /^Bearer (.+)$/i.exec(authorization.trim());
	const presented = m?.[1];
	if (presented === undefined) return false;
	return timingSafeEqual(digest(presented), digest(token));
}

export type Refusal = { status: 401 | 403; error: string; message: string };

/** The first reason to refuse the request, or null when it is admitted. */
export function admit(req: IncomingMessage, port: number, token: string): Refusal | null {
	if (!hostAllowed(req.headers.host, port)) {
		return { status: 403, error: "FORBIDDEN", message: "Host not allowed" };
	}
	if (!originAllowed(req.headers.origin)) {
		return { status: 403, error: "FORBIDDEN", message: "Requests from web pages are not allowed" };
	}
	if (!tokenMatches(req.headers.authorization, token)) {
		return { status: 401, error: "UNAUTHORIZED", message: "Missing or wrong bearer token" };
	}
	return null;
}

// Request bodies: read with a size limit, parsed as JSON.
import type { IncomingMessage } from "http";

export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLarge extends Error {
	constructor(readonly limit: number) {
		super(`Request body exceeds ${limit} bytes`);
	}
}

/**
 * The whole body as text, or BodyTooLarge once more than `limit` bytes arrived. Past the limit
 * the rest is drained and discarded (so the client reads the 413 instead of a reset), up to
 * 16 times the limit; beyond that the connection is destroyed.
 */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
	return new Promise((resolve, reject) => {
		const declared = Number(req.headers["content-length"]);
		if (Number.isFinite(declared) && declared > limit * 16) {
			req.destroy();
			reject(new BodyTooLarge(limit));
			return;
		}
		const chunks: Buffer[] = [];
		let size = 0;
		req.on("data", (chunk: Buffer) => {
			size += chunk.length;
			if (size <= limit) chunks.push(chunk);
			else if (size > limit * 16) req.destroy();
		});
		req.on("end", () => {
			if (size > limit) reject(new BodyTooLarge(limit));
			else resolve(Buffer.concat(chunks).toString("utf8"));
		});
		req.on("error", reject);
		req.on("close", () => {
			if (!req.complete) reject(new Error("Request aborted"));
		});
	});
}

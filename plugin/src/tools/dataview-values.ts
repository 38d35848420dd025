// Dataview's values as plain JSON: Luxon DateTime and Duration become ISO strings, Link becomes
// {type:"link", path, display?, subpath?, embed}, DataArray becomes an array; functions and
// cycles are dropped. And the ACL check on such a value: every note it names must be readable.

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

type Loose = Record<string, unknown>;

function isLink(v: Loose): boolean {
	return typeof v.path === "string" && typeof v.markdown === "function" && typeof v.embed === "boolean";
}

/** `value` (any Dataview literal or query result) as plain JSON. */
export function toJson(value: unknown, seen: WeakSet<object> = new WeakSet()): Json {
	if (value === null || value === undefined) return null;
	if (typeof value === "string" || typeof value === "boolean") return value;
	if (typeof value === "number") return Number.isFinite(value) ? value : null;
	if (typeof value === "bigint") return value.toString();
	if (typeof value !== "object") return null;
	if (seen.has(value)) return null;
	seen.add(value);
	try {
		const v = value as Loose;
		if (v.isLuxonDateTime === true || v.isLuxonDuration === true) {
			return typeof v.toISO === "function" ? (v.toISO as () => string | null).call(v) : null;
		}
		if (isLink(v)) {
			const link: { [key: string]: Json } = { type: "link", path: v.path as string, embed: v.embed as boolean };
			if (typeof v.display === "string") link.display = v.display;
			if (typeof v.subpath === "string") link.subpath = v.subpath;
			return link;
		}
		if (value instanceof Date) return value.toISOString();
		if (typeof v.array === "function" && Array.isArray(v.values)) return toJson((v.array as () => unknown[]).call(v), seen);
		if (Array.isArray(value)) return value.map((x) => toJson(x, seen));
		if (value instanceof Map) return toJson(Object.fromEntries(value), seen);
		const out: { [key: string]: Json } = {};
		for (const [k, x] of Object.entries(v)) {
			if (typeof x !== "function") out[k] = toJson(x, seen);
		}
		return out;
	} finally {
		seen.delete(value);
	}
}

/** Every vault path `value` names: link paths, and any object's string `path` field. */
export function pathsIn(value: Json, into: Set<string> = new Set()): Set<string> {
	if (Array.isArray(value)) {
		for (const x of value) pathsIn(x, into);
	} else if (value !== null && typeof value === "object") {
		for (const [k, x] of Object.entries(value)) {
			if (k === "path" && typeof x === "string") into.add(x);
			else pathsIn(x, into);
		}
	}
	return into;
}

/** Whether every path `value` names passes `mayRead`. */
export function allReadable(value: Json, mayRead: (path: string) => boolean): boolean {
	for (const p of pathsIn(value)) if (!mayRead(p)) return false;
	return true;
}

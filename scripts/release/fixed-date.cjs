// Preloaded (NODE_OPTIONS=--require) into `mcpb pack`, which stamps every zip entry with
// `new Date()`: here "now" is SOURCE_DATE_EPOCH, so the same files pack to the same bytes.
// Dates built from explicit arguments are untouched.
"use strict";
const fixed = Number(process.env.SOURCE_DATE_EPOCH) * 1000;
if (!Number.isFinite(fixed)) throw new Error("fixed-date.cjs needs SOURCE_DATE_EPOCH (seconds)");
const RealDate = Date;
globalThis.Date = class FixedDate extends RealDate {
	constructor(...args) {
		if (args.length === 0) super(fixed);
		else super(...args);
	}
	static now() {
		return fixed;
	}
};

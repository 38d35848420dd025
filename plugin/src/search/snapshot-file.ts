// The search index snapshot as a file in the plugin's folder (`search-index.bin`), through the
// vault adapter. A save writes a temporary file next to it and renames it into place, so a
// crash never leaves a half-written snapshot under the real name. Obsidian's adapter refuses to
// rename onto an existing file, so the old snapshot is removed just before the rename; should
// the app stop between the two, the temporary file, complete by then, is read instead. Whatever
// is read is checked by the engine (checksums, format, build) before it is trusted.
import { type DataAdapter, normalizePath } from "obsidian";
import type { SnapshotStore } from "./vault-index";

/** The snapshot's file name in the plugin's folder. */
export const SNAPSHOT_FILE = "search-index.bin";

/** A `SnapshotStore` over one file of the vault adapter. */
export class SnapshotFile implements SnapshotStore {
	private readonly path: string;
	private readonly temporary: string;

	constructor(
		private readonly adapter: DataAdapter,
		private readonly folder: string,
	) {
		this.path = normalizePath(`${folder}/${SNAPSHOT_FILE}`);
		this.temporary = `${this.path}.tmp`;
	}

	async load(): Promise<Uint8Array | null> {
		for (const path of [this.path, this.temporary]) {
			if (await this.adapter.exists(path)) return new Uint8Array(await this.adapter.readBinary(path));
		}
		return null;
	}

	async save(bytes: Uint8Array): Promise<void> {
		if (!(await this.adapter.exists(this.folder))) await this.adapter.mkdir(this.folder);
		const data = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
		await this.adapter.writeBinary(this.temporary, data);
		if (await this.adapter.exists(this.path)) await this.adapter.remove(this.path);
		await this.adapter.rename(this.temporary, this.path);
	}
}

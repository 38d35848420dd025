// Temporary folders of the plugin tests and their helpers: each is removed by `removeFolder` once
// nothing uses it any more or, at the latest, as the test file's process exits, passing or
// failing (node --test runs each file in a process of its own).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folders `tempFolder` made that are not removed yet. */
const folders = new Set();
process.once('exit', () => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A new empty folder under the system's temporary folder, named `prefix` and random characters. */
export function tempFolder(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.add(dir);
  return dir;
}

/** Removes a folder `tempFolder` made, and all it holds. */
export function removeFolder(dir) {
  rmSync(dir, { recursive: true, force: true });
  folders.delete(dir);
}

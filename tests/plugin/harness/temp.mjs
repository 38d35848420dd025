// Temporary folders of the plugin tests and their helpers: each is removed by `removeFolder` once
// nothing uses it any more or, at the latest, as the test file's process exits, passing or
// failing (node --test runs each file in a process of its own).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The folders `tempFolder` made that are not removed yet. */
const folders = new Set();
process.once('exit', () => {
  for (const dir of folders) remove(dir);
});

/** A new empty folder under the system's temporary folder, named `prefix` and random characters. */
export function tempFolder(prefix) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  folders.add(dir);
  return dir;
}

/** Removes a folder `tempFolder` made, and all it holds. */
export function removeFolder(dir) {
  remove(dir);
  folders.delete(dir);
}

/**
 * Removes `dir`, retrying while a process that is exiting still writes in it; a folder that
 * cannot be removed is left rather than failing the test that used it.
 */
function remove(dir) {
  try {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 50 });
  } catch (error) {
    console.warn(`could not remove the temporary folder ${dir}: ${error.message}`);
  }
}

// Shared by the companion, approval, UI and sidecar tests: loads the PRODUCTION main.js (run
// `npm run build` first) with the obsidian stub, as bundle.test.mjs does, over a fake App on a
// temporary vault folder, and talks to its real 127.0.0.1 server with node:http.
import assert from 'node:assert/strict';
import { readFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import net from 'node:net';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import http from 'node:http';
import * as obsidian from '../stubs/obsidian.mjs';
import { fakeApp } from '../fakes/app.mjs';
import { coreRegistry } from '../fakes/companions.mjs';
import { removeFolder, tempFolder } from './temp.mjs';

export { removeFolder, tempFolder };

const root = new URL('../../../', import.meta.url);
const mainPath = fileURLToPath(new URL('main.js', root));
export const manifest = JSON.parse(readFileSync(new URL('manifest.json', root), 'utf8'));
const nodeRequire = createRequire(mainPath);
globalThis.window ??= globalThis;

export const TOKEN = 'companion-test-token-42';

/** A fresh copy of the bundle's plugin class. */
export function loadBundle() {
  assert.ok(existsSync(mainPath), 'main.js missing: run `npm run build` first');
  const module = { exports: {} };
  const require = (name) => (name === 'obsidian' ? obsidian : nodeRequire(name));
  new Function('require', 'module', 'exports', readFileSync(mainPath, 'utf8'))(require, module, module.exports);
  return module.exports.default ?? module.exports;
}

/** The vault folders of `tempVault` that `unloadPlugin` has not removed yet. */
const vaults = new Set();

/**
 * A temporary vault folder with one note, plus `files` ({path: text}); `unloadPlugin` removes it
 * once the plugin over it is down.
 */
export function tempVault(name = 'Test vault', files = {}) {
  const dir = tempFolder('tc-companion-');
  vaults.add(dir);
  writeFileSync(join(dir, 'Note.md'), '# Note\n');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return { dir, name };
}

/** A TCP port that was free on loopback a moment ago. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Loads the plugin on a fake app (port 0, TOKEN, plus `data`) over a temporary vault with
 * `files`; `prepare(app)` runs before onload (install fake plugins, break internals). Returns
 * {plugin, app, port, vault}.
 */
export async function startPlugin({ data = {}, prepare, files = {} } = {}) {
  const vault = tempVault('Test vault', files);
  const app = fakeApp({ vaultDir: vault.dir, name: vault.name, data: { port: 0, token: TOKEN, ...data } });
  app.internalPlugins = coreRegistry();
  prepare?.(app);
  const Plugin = loadBundle();
  const plugin = new Plugin(app, manifest);
  await plugin.onload();
  assert.ok(plugin.bridge, `bridge not serving: ${obsidian.notices.at(-1)}`);
  return { plugin, app, port: plugin.bridge.port, vault };
}

/**
 * What Obsidian does on disable: onunload, then the registered cleanups. The returned promise
 * (awaiting it is optional) resolves once the plugin is done with its vault folder: the search
 * index saved on unload is written and the native server's process has exited; a vault folder
 * `tempVault` made is then removed.
 */
export function unloadPlugin(plugin) {
  const pid = plugin.native?.status().pid ?? null;
  plugin.onunload();
  plugin.unload();
  return (async () => {
    await plugin.searchIndex?.flushed();
    // The supervisor's SIGTERM, then its SIGKILL after a few seconds.
    for (const t0 = Date.now(); pid !== null && alive(pid) && Date.now() - t0 < 10_000;) {
      await new Promise((r) => setTimeout(r, 20));
    }
    const dir = plugin.app?.vault?.dir;
    if (vaults.delete(dir)) removeFolder(dir);
  })().catch(() => {}); // A folder not removed here is as the process exits.
}

/** One request with full control over headers (fetch forbids setting Host). */
export function request(port, { method = 'GET', path = '/obsidian-tc/v1/probe', headers = {}, body, token = TOKEN, host } = {}) {
  return new Promise((resolve, reject) => {
    const h = { host: host ?? `127.0.0.1:${port}`, ...headers };
    if (token !== null) h.authorization = `Bearer ${token}`;
    if (body !== undefined) {
      h['content-type'] = 'application/json';
      h['content-length'] = Buffer.byteLength(body);
    }
    const req = http.request({ host: '127.0.0.1', port, method, path, headers: h, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json = null;
        try { json = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode, headers: res.headers, json, text });
      });
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** POST `payload` (an object, or raw text) to a companion path. */
export function post(port, path, payload, opts = {}) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return request(port, { method: 'POST', path: `/obsidian-tc/v1${path}`, body, ...opts });
}

/** Resolves once `predicate()` is truthy (polling every 5 ms), or fails after `ms`. */
export async function waitFor(predicate, ms = 2000, what = 'condition') {
  const t0 = Date.now();
  while (!predicate()) {
    if (Date.now() - t0 > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Whether a process with this id is alive. */
export function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

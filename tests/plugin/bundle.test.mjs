// Smoke test of the production bundle: loads the built main.js (run `npm run build` first; this
// test builds nothing) the way Obsidian does, as a CommonJS function given `require`, `module`
// and `exports`, with `obsidian` resolved to tests/plugin/stubs/obsidian.mjs. Runs onload with a
// fake app and manifest, calls the WebAssembly engine, runs onunload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as obsidian from './stubs/obsidian.mjs';

const root = new URL('../../', import.meta.url);
const mainPath = fileURLToPath(new URL('main.js', root));
const manifest = JSON.parse(readFileSync(new URL('manifest.json', root), 'utf8'));
const toolListVectors = JSON.parse(readFileSync(new URL('tests/vectors/hash_toollist.json', root), 'utf8'));
const nodeRequire = createRequire(mainPath);

// Obsidian's renderer has `window`; Node has the same crypto and TextDecoder on globalThis.
globalThis.window ??= globalThis;

/** A fresh copy of the bundle (its own wasm-bindgen state), as Obsidian evaluates it. */
function loadBundle() {
  assert.ok(existsSync(mainPath), 'main.js missing: run `npm run build` first');
  const source = readFileSync(mainPath, 'utf8');
  const module = { exports: {} };
  const require = (name) => (name === 'obsidian' ? obsidian : nodeRequire(name));
  new Function('require', 'module', 'exports', source)(require, module, module.exports);
  const Plugin = module.exports.default ?? module.exports;
  assert.equal(typeof Plugin, 'function', 'main.js must export the plugin class');
  return Plugin;
}

function fakeApp(data = null) {
  return { __data: data, vault: { configDir: '.obsidian' }, workspace: {} };
}

test('onload initialises the WebAssembly engine; onunload releases it', async () => {
  const Plugin = loadBundle();
  const app = fakeApp();
  const plugin = new Plugin(app, manifest);
  assert.ok(plugin instanceof obsidian.Plugin);
  const noticesBefore = obsidian.notices.length;
  const t0 = performance.now();
  await plugin.onload();
  const ms = performance.now() - t0;
  assert.equal(obsidian.notices.length, noticesBefore, `unexpected notice: ${obsidian.notices.at(-1)}`);
  assert.ok(plugin.engine, 'engine not loaded');

  // Real engine calls through the plugin's typed wrapper, checked against the committed golden
  // vectors; an engine error keeps its `code: message` text (and the name Error) and adds `code`.
  let checked = 0;
  for (const c of toolListVectors.cases) {
    if ('error' in c) {
      assert.throws(() => plugin.engine.toolListHash(c.input.tools), (e) => (
        e.code === c.error && String(e).startsWith(`Error: ${c.error}: `)
      ), c.name);
    } else {
      assert.equal(plugin.engine.toolListHash(c.input.tools), c.expected, c.name);
    }
    checked++;
  }
  assert.ok(checked >= 2);
  const idx = plugin.engine.noteIndex();
  const chunks = idx.upsertNote('a.md', '# Alpha\nthe quick brown fox', () => ({}));
  assert.deepEqual(chunks.map((c) => c.headings), [['Alpha']]);
  idx.upsertNote('b.md', '# Beta\nlazy dogs sleep', () => ({}));
  assert.deepEqual(idx.searchNotes('fox', 5, () => true, () => true).map((h) => h.path), ['a.md']);
  assert.deepEqual(idx.searchNotes('fox', 5, () => true, (path) => path !== 'a.md'), []);
  assert.equal(idx.remove(chunks[0].key), true);
  idx.free();
  assert.throws(() => plugin.engine.aclFromPresets([{ folder: '../up', preset: 'r' }], 'r'), (e) => e.code === 'invalid_presets');

  // Settings: typed defaults, a generated 64-hex token, saved through saveData.
  assert.equal(plugin.settings.port, 27190);
  assert.match(plugin.settings.token, /^[0-9a-f]{64}$/);
  assert.deepEqual(app.__data, plugin.settings);
  assert.equal(plugin.settingTabs.length, 1);
  const tab = plugin.settingTabs[0];
  tab.display();
  assert.deepEqual(tab.containerEl.children.map((s) => s.name).slice(0, 2), ['Port', 'Token']);

  // What Obsidian does on disable: onunload, then the registered cleanups (the tab's refresh timer).
  plugin.onunload();
  plugin.unload();
  assert.equal(plugin.engine, null);
  console.log(`# onload with WebAssembly init: ${ms.toFixed(1)} ms; main.js ${readFileSync(mainPath).length} bytes`);
});

test('saved settings are kept; malformed ones fall back to defaults', async () => {
  const Plugin = loadBundle();
  const kept = new Plugin(fakeApp({ port: 0, token: 'abc' }), manifest);
  await kept.onload();
  assert.equal(kept.settings.port, 0);
  assert.equal(kept.settings.token, 'abc');
  assert.equal(kept.settings.allowWrites, false, 'writes are off by default');
  assert.equal(kept.settings.allowCommands, false, 'commands are off by default');
  kept.onunload();

  const bad = new Plugin(fakeApp({ port: 'x', token: 7 }), manifest);
  await bad.onload();
  assert.equal(bad.settings.port, 27190);
  assert.match(bad.settings.token, /^[0-9a-f]{64}$/);
  bad.onunload();
});

test('a WebAssembly failure shows a notice and does not throw', async () => {
  const Plugin = loadBundle();
  const { instantiate } = WebAssembly;
  const { error } = console;
  WebAssembly.instantiate = async () => { throw new Error('simulated instantiation failure'); };
  console.error = () => {};
  try {
    const plugin = new Plugin(fakeApp(), manifest);
    const before = obsidian.notices.length;
    await plugin.onload();
    assert.equal(plugin.engine, null);
    assert.equal(obsidian.notices.length, before + 1);
    assert.match(obsidian.notices.at(-1), /engine failed to load/);
    plugin.onunload();
  } finally {
    WebAssembly.instantiate = instantiate;
    console.error = error;
  }
});

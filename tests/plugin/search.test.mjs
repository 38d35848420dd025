// The plugin's search index follows the vault (create, modify, rename, delete, as Obsidian's
// vault events report them), the `search` tool leaves out what agents may not read, and the
// "Search vault" modal opens the chosen note. Production main.js over a fake App on a temp vault.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SuggestModal } from './stubs/obsidian.mjs';
import { fakeApp } from './fakes/app.mjs';
import { TOKEN, loadBundle, manifest, request, tempFolder, unloadPlugin } from './harness/plugin.mjs';

function vault() {
  const dir = tempFolder('tc-search-');
  mkdirSync(join(dir, 'Private'));
  writeFileSync(join(dir, 'Alpha.md'), '# Alpha\n\nThe quick brown fox.\n');
  writeFileSync(join(dir, 'Beta.md'), '---\naliases: [Second]\n---\n# Beta\n\nLazy dogs sleep all day.\n');
  writeFileSync(join(dir, 'Private', 'Diary.md'), '# Diary\n\nThe fox visited again.\n');
  return dir;
}

async function start(dir, data = {}) {
  const app = fakeApp({ vaultDir: dir, data: { port: 0, token: TOKEN, ...data } });
  const plugin = new (loadBundle())(app, manifest);
  await plugin.onload();
  const search = async (args) => {
    const r = await request(plugin.bridge.port, {
      method: 'POST', path: '/bridge/v1/tools/search/call', body: JSON.stringify({ arguments: args }),
    });
    assert.equal(r.status, 200, r.text);
    return { isError: r.json.isError === true, value: JSON.parse(r.json.content[0].text) };
  };
  const paths = async (query) => (await search({ query })).value.results.map((h) => h.path);
  await until(async () => !(await search({ query: 'x' })).value.coverage.scanning);
  return { app, plugin, search, paths };
}

test('the index follows create, modify, rename and delete', async () => {
  const dir = vault();
  const s = await start(dir);
  try {
    assert.deepEqual(await s.paths('fox'), ['Alpha.md', 'Private/Diary.md']);
    assert.deepEqual(await s.paths('second'), ['Beta.md'], 'aliases are indexed');

    const created = await s.app.vault.create('Gamma.md', '# Gamma\n\nZebras graze.\n');
    await until(async () => (await s.paths('zebras')).length === 1);
    assert.deepEqual(await s.paths('zebras'), ['Gamma.md']);

    await s.app.vault.modify(created, '# Gamma\n\nGiraffes browse.\n');
    await until(async () => (await s.paths('giraffes')).length === 1);
    assert.deepEqual(await s.paths('zebras'), [], 'the old text is gone');

    await s.app.vault.rename(created, 'Gamma renamed.md');
    await until(async () => (await s.paths('giraffes'))[0] === 'Gamma renamed.md');
    assert.deepEqual(await s.paths('giraffes'), ['Gamma renamed.md']);

    await s.app.vault.delete(s.app.vault.getFileByPath('Alpha.md'));
    await until(async () => !(await s.paths('fox')).includes('Alpha.md'));
    assert.deepEqual(await s.paths('fox'), ['Private/Diary.md']);
  } finally {
    unloadPlugin(s.plugin);
    await s.plugin.searchIndex.flushed();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('search leaves out folders agents may not read; bad arguments are invalid_input', async () => {
  const dir = vault();
  const s = await start(dir, { folderAccess: [{ folder: 'Private', preset: 'none' }] });
  try {
    assert.deepEqual(await s.paths('fox'), ['Alpha.md']);
    const folder = (await s.search({ query: 'fox', folder: 'Private' })).value.results;
    assert.deepEqual(folder, []);
    for (const args of [{ query: '' }, { query: 'fox', limit: 0 }, { query: 'fox', limit: 1.5 }, { query: 7 }]) {
      const r = await s.search(args);
      assert.equal(r.isError, true, JSON.stringify(args));
      assert.equal(r.value.code, 'invalid_input');
    }
  } finally {
    unloadPlugin(s.plugin);
    await s.plugin.searchIndex.flushed();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the Search vault modal finds notes and opens the chosen one', async () => {
  const dir = vault();
  const s = await start(dir);
  try {
    s.plugin.commands['search-vault'].callback();
    const modal = SuggestModal.opened.at(-1);
    assert.ok(modal.isOpen);
    assert.deepEqual(await modal.getSuggestions('   '), []);
    const hits = await modal.getSuggestions('lazy dogs');
    assert.deepEqual(hits[0], { path: 'Beta.md', heading: 'Beta', source: 'lexical' });
    modal.onChooseSuggestion(hits[0]);
    await until(async () => s.app.workspace.opened.length === 1);
    assert.deepEqual(s.app.workspace.opened, ['Beta.md']);
    assert.equal(s.app.workspace.getActiveFile().path, 'Beta.md');
  } finally {
    unloadPlugin(s.plugin);
    await s.plugin.searchIndex.flushed();
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Polls the async `predicate` every 5 ms for up to 3 s. */
async function until(predicate) {
  const t0 = Date.now();
  while (!(await predicate())) {
    if (Date.now() - t0 > 3000) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('unloading while the index is still being built stops the build cleanly', async () => {
  const dir = tempFolder('tc-search-unload-');
  for (let i = 0; i < 400; i++) writeFileSync(join(dir, `Note ${i}.md`), `# Note ${i}\n\n${'words to index '.repeat(200)}\n`);
  const errors = [];
  const { error } = console;
  console.error = (...args) => errors.push(args.map(String).join(' '));
  try {
    const app = fakeApp({ vaultDir: dir, data: { port: 0, token: TOKEN } });
    const plugin = new (loadBundle())(app, manifest);
    await plugin.onload();
    const reads = [];
    const cachedRead = app.vault.cachedRead.bind(app.vault);
    app.vault.cachedRead = (file) => { reads.push(file.path); return cachedRead(file); };
    await new Promise((r) => setTimeout(r, 30));
    unloadPlugin(plugin);
    const readAtUnload = reads.length;
    assert.ok(readAtUnload < 400, `the build had already ended (${readAtUnload} reads): make the vault bigger`);
    await new Promise((r) => setTimeout(r, 200));
    await plugin.searchIndex.flushed();
    assert.ok(reads.length <= readAtUnload + 1, `the build went on after unload: ${reads.length - readAtUnload} more reads`);
    assert.deepEqual(errors, [], 'nothing touched the freed index');
  } finally {
    console.error = error;
    rmSync(dir, { recursive: true, force: true });
  }
});

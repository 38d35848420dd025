// The plugin and its native server, both ways, with a stand-in server (fakes/native-server.mjs,
// Streamable HTTP with sessions and the bearer token): the "Search vault" modal shows the
// server's hybrid ranking, labelled hybrid, and falls back to the plugin's own lexical index,
// unchanged, when the server is down; the MCP session is started again after the server
// restarts; "Reindex now" asks the server, or rebuilds the plugin's index without one.
// Production main.js over the fake App.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { notices, SuggestModal } from './stubs/obsidian.mjs';
import { fakeNative, fakeNativeLog } from './fakes/native-server.mjs';
import { freePort, request, startPlugin, tempFolder, unloadPlugin, waitFor } from './harness/plugin.mjs';

const FILES = {
  'Alpha.md': '# Alpha\n\nThe quick brown fox.\n',
  'Beta.md': '---\naliases: [Second]\n---\n# Beta\n\nLazy dogs sleep all day.\n',
  'Private/Diary.md': '# Diary\n\nThe fox visited again.\n',
};

/** The plugin with the stand-in native server on a free port; resolves once it answers. */
async function withNativeServer() {
  const { bin, log } = fakeNative();
  const mcpPort = await freePort();
  const ctx = await startPlugin({ files: FILES, data: { sidecarPath: bin, mcpPort } });
  await ctx.plugin.searchIndex.whenReady();
  await answering(ctx.plugin);
  return { ...ctx, log, mcpPort };
}

/** Resolves once the plugin's native server answers a tool call. */
async function answering(plugin) {
  const t0 = Date.now();
  for (;;) {
    try {
      if (plugin.native?.running()) {
        await plugin.native.callTool('get_index_status', {}, 1000);
        return;
      }
    } catch (err) {
      if (Date.now() - t0 > 10_000) throw err;
    }
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Opens the "Search vault" modal and returns it. */
function searchModal(plugin) {
  plugin.commands['search-vault'].callback();
  return SuggestModal.opened.at(-1);
}

/** What the plugin's own index ranks for `query`, as the modal shows it. */
function lexical(plugin, query) {
  return plugin.searchIndex.search(query, 20, () => true, () => true).map((hit) => ({ path: hit.path, heading: hit.headings.join(' > '), source: 'lexical' }));
}

test('the modal shows the native server\'s hybrid ranking, and the plugin\'s lexical one when the server is down', async () => {
  const { warn } = console;
  console.warn = () => {};
  const ctx = await withNativeServer();
  try {
    const [start] = fakeNativeLog(ctx.log);
    assert.equal(start.env.OBSIDIAN_TC_HTTP_TOKEN, ctx.plugin.settings.mcpToken);
    assert.match(ctx.plugin.settings.mcpToken, /^[0-9a-f]{64}$/);
    const modal = searchModal(ctx.plugin);
    assert.deepEqual(await modal.getSuggestions('fox'), [
      { path: 'Alpha.md', heading: 'Fused', source: 'hybrid' },
      { path: 'Private/Diary.md', heading: 'Fused', source: 'hybrid' },
    ]);
    assert.deepEqual(await modal.getSuggestions('  '), []);

    // The server restarts: the old MCP session is gone (404) and a new one is started.
    process.kill(start.pid, 'SIGKILL');
    await waitFor(() => ctx.plugin.native.sidecar.restarts === 1, 5000, 'the restart');
    await answering(ctx.plugin);
    assert.equal((await modal.getSuggestions('lazy dogs'))[0].source, 'hybrid');

    // Down: the plugin's own lexical index, exactly what it ranks without a server.
    await ctx.plugin.native.stop();
    const fallback = await modal.getSuggestions('fox');
    assert.deepEqual(fallback, lexical(ctx.plugin, 'fox'));
    assert.deepEqual(fallback.map((s) => s.path), ['Alpha.md', 'Private/Diary.md']);
    // The agents' search tool stays lexical, with its f32 scores, whatever the server does.
    const r = await request(ctx.port, { method: 'POST', path: '/bridge/v1/tools/search/call', body: JSON.stringify({ arguments: { query: 'fox' } }) });
    const tool = JSON.parse(r.json.content[0].text);
    assert.equal(tool.mode, 'lexical');
    assert.deepEqual(tool.results.map((hit) => hit.score), ctx.plugin.searchIndex.search('fox', 10, () => true, () => true).map((hit) => hit.score));
  } finally {
    console.warn = warn;
    unloadPlugin(ctx.plugin);
  }
});

test('without a native server the modal is lexical; a server that is not there yet is too', async () => {
  const plain = await startPlugin({ files: FILES });
  try {
    await plain.plugin.searchIndex.whenReady();
    const modal = searchModal(plain.plugin);
    assert.deepEqual(await modal.getSuggestions('lazy dogs'), lexical(plain.plugin, 'lazy dogs'));
  } finally {
    unloadPlugin(plain.plugin);
  }
  // A running process whose MCP port does not answer (nothing listens there).
  const quiet = join(tempFolder('tc-native-quiet-'), 'obsidian-tc');
  writeFileSync(quiet, '#!/bin/sh\nexec sleep 600\n');
  chmodSync(quiet, 0o755);
  const silent = await startPlugin({ files: FILES, data: { sidecarPath: quiet, mcpPort: await freePort() } });
  try {
    await silent.plugin.searchIndex.whenReady();
    await waitFor(() => silent.plugin.native?.running(), 2000, 'the native server process');
    const modal = searchModal(silent.plugin);
    const t0 = Date.now();
    assert.deepEqual(await modal.getSuggestions('fox'), lexical(silent.plugin, 'fox'));
    assert.ok(Date.now() - t0 < 2000, 'the fallback does not wait long');
  } finally {
    unloadPlugin(silent.plugin);
  }
});

test('Reindex now asks the native server; without one it rebuilds the plugin\'s index', async () => {
  const { warn } = console;
  console.warn = () => {};
  const ctx = await withNativeServer();
  try {
    ctx.plugin.commands['reindex-now'].callback();
    await waitFor(() => fakeNativeLog(ctx.log).some((line) => line.tool === 'index_vault'), 5000, 'index_vault');
    await waitFor(() => notices.some((n) => n.startsWith('Native server reindexed')), 5000, 'the notice');
    assert.equal(notices.at(-1), 'Native server reindexed 4 notes: 0 added, 4 updated, 0 removed, 0 failed.');

    // A scan already running (the watcher's, after an edit) answers index_busy: the reindex
    // waits for it and asks again, rather than reporting a failure.
    writeFileSync(`${ctx.log}.busy`, '2');
    const shown = notices.length;
    ctx.plugin.commands['reindex-now'].callback();
    await waitFor(() => notices.slice(shown).some((n) => n.startsWith('Native server reindexed')), 10_000, 'the notice after the busy answers');
    assert.deepEqual(notices.slice(shown), [
      'Reindexing the vault in the native server…',
      'The native server is already scanning the vault; reindexing once it is done…',
      'Native server reindexed 4 notes: 0 added, 4 updated, 0 removed, 0 failed.',
    ]);
    assert.deepEqual(fakeNativeLog(ctx.log).filter((line) => line.tool === 'index_vault').map((line) => line.busy), [false, true, true, false]);
  } finally {
    console.warn = warn;
    unloadPlugin(ctx.plugin);
  }

  const plain = await startPlugin({ files: FILES });
  try {
    await plain.plugin.searchIndex.whenReady();
    const before = lexical(plain.plugin, 'fox');
    const reads = [];
    const cachedRead = plain.app.vault.cachedRead.bind(plain.app.vault);
    plain.app.vault.cachedRead = (file) => {
      reads.push(file.path);
      return cachedRead(file);
    };
    plain.plugin.commands['reindex-now'].callback();
    await waitFor(() => notices.at(-1)?.startsWith('Search index rebuilt'), 5000, 'the rebuild');
    assert.equal(notices.at(-1), 'Search index rebuilt: 4 notes, 4 chunks.');
    assert.deepEqual(reads.sort(), ['Alpha.md', 'Beta.md', 'Note.md', 'Private/Diary.md']);
    assert.equal(plain.plugin.searchIndex.started.reason, 'a rebuild was asked for');
    assert.deepEqual(lexical(plain.plugin, 'fox'), before);
  } finally {
    unloadPlugin(plain.plugin);
  }
});

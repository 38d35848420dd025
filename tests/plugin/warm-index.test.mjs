// The plugin starts warm: its search index is saved in the plugin's folder (engine-core's
// checksummed snapshot) and read back on the next start, where only the notes whose modification
// time or size changed are read again, deleted ones dropped and new ones added, ranking exactly
// as a build from the notes would. A corrupt or stale snapshot is rebuilt, never trusted. Saves
// wait for the vault to be quiet and replace the file by a rename. Production main.js over the
// fake App on a temporary vault.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, renameSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fakeApp } from './fakes/app.mjs';
import { TOKEN, loadBundle, manifest, tempFolder, unloadPlugin } from './harness/plugin.mjs';

const SNAPSHOT = '.obsidian/plugins/tc-bridge/search-index.bin';
const QUERIES = ['fox', 'lazy dogs', 'river', 'garden plan', 'second', 'note'];

function vault(count = 30) {
  const dir = tempFolder('tc-warm-');
  const words = ['fox', 'river', 'garden', 'plan', 'lazy', 'dogs', 'stone', 'bread', 'music', 'winter'];
  for (let i = 0; i < count; i++) {
    const body = Array.from({ length: 20 + (i % 7) }, (_, j) => words[(i * 3 + j * 7) % words.length]).join(' ');
    writeFileSync(join(dir, `Note ${String(i).padStart(2, '0')}.md`), `---\naliases: [Alias ${i}]\n---\n# Note ${i}\n\n${body}\n\n## Part two\n\nMore ${words[i % words.length]} here.\n`);
  }
  writeFileSync(join(dir, 'Second.md'), '# Second\n\nThe quick brown fox.\n');
  return dir;
}

/** Starts the plugin on `dir`; resolves once its index is ready, with the notes it read. */
async function start(dir) {
  const app = fakeApp({ vaultDir: dir, data: { port: 0, token: TOKEN } });
  const reads = [];
  const cachedRead = app.vault.cachedRead.bind(app.vault);
  app.vault.cachedRead = (file) => {
    reads.push(file.path);
    return cachedRead(file);
  };
  const plugin = new (loadBundle())(app, manifest);
  await plugin.onload();
  await plugin.searchIndex.whenReady();
  const ranking = () => Object.fromEntries(QUERIES.map((q) => [q, plugin.searchIndex.search(q, 20, () => true, () => true)]));
  return { app, plugin, reads, ranking, started: plugin.searchIndex.started };
}

/** Unloads (which saves what changed) and waits for the save to end. */
async function stop(s) {
  unloadPlugin(s.plugin);
  await s.plugin.searchIndex.flushed();
}

/** Rewrites the snapshot's header through `edit(header content)` and seals it again. */
function resealHeader(dir, edit) {
  const path = join(dir, SNAPSHOT);
  const bytes = readFileSync(path);
  const total = Number(bytes.readBigUInt64LE(10));
  const content = Buffer.from(edit(Buffer.from(bytes.subarray(0, total - 32))));
  content.writeBigUInt64LE(BigInt(content.length + 32), 10);
  const sum = createHash('sha256').update(content).digest();
  writeFileSync(path, Buffer.concat([content, sum, bytes.subarray(total)]));
}

test('the second start reads no note and ranks exactly as the first', async () => {
  const dir = vault();
  try {
    const cold = await start(dir);
    assert.equal(cold.started.source, 'notes');
    assert.equal(cold.started.reason, 'no saved index');
    assert.equal(cold.reads.length, 31);
    const first = cold.ranking();
    assert.ok(first.fox.length > 0 && first.river.length > 0);
    await stop(cold);
    assert.ok(existsSync(join(dir, SNAPSHOT)), 'saved in the plugin folder');
    assert.ok(!existsSync(join(dir, `${SNAPSHOT}.tmp`)), 'no temporary file left');

    const warm = await start(dir);
    assert.deepEqual(warm.started.source, 'snapshot');
    assert.deepEqual(warm.reads, [], 'no note read again');
    assert.deepEqual(warm.ranking(), first, 'same ranking, scores and headings');
    assert.deepEqual(warm.plugin.searchIndex.coverage(), cold.plugin.searchIndex.coverage());
    const writes = warm.app.vault.adapter.writes.length;
    await stop(warm);
    assert.equal(warm.app.vault.adapter.writes.length, writes, 'nothing changed: nothing written');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('changed, added and deleted notes are picked up, and the index equals a build from the notes', async () => {
  const dir = vault();
  try {
    await stop(await start(dir));
    writeFileSync(join(dir, 'Note 03.md'), '# Note 3\n\nA river of changed words, a fox.\n');
    // Same size, new modification time.
    const same = readFileSync(join(dir, 'Note 04.md'), 'utf8').replace('Note 4', 'Note X');
    writeFileSync(join(dir, 'Note 04.md'), same);
    utimesSync(join(dir, 'Note 04.md'), new Date(), new Date(Date.now() + 5000));
    writeFileSync(join(dir, 'Added.md'), '# Added\n\nA new garden plan with a lazy fox.\n');
    rmSync(join(dir, 'Note 05.md'));

    const warm = await start(dir);
    assert.equal(warm.started.source, 'snapshot');
    assert.deepEqual(warm.reads.sort(), ['Added.md', 'Note 03.md', 'Note 04.md']);
    assert.equal(warm.started.read, 3);
    assert.equal(warm.started.dropped, 1);
    const ranking = warm.ranking();
    assert.equal(warm.plugin.searchIndex.search('new', 5, () => true, () => true)[0]?.path, 'Added.md');
    assert.equal(warm.plugin.searchIndex.search('changed', 5, () => true, () => true)[0]?.path, 'Note 03.md');
    assert.ok(!Object.values(ranking).flat().some((hit) => hit.path === 'Note 05.md'));
    await stop(warm);
    const warmBytes = readFileSync(join(dir, SNAPSHOT));

    rmSync(join(dir, SNAPSHOT));
    const cold = await start(dir);
    assert.equal(cold.started.source, 'notes');
    assert.equal(cold.reads.length, 31);
    assert.deepEqual(cold.ranking(), ranking, 'rankings equal a build from the notes');
    await stop(cold);
    assert.ok(readFileSync(join(dir, SNAPSHOT)).equals(warmBytes), 'and so is the saved index, byte for byte');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a corrupt or stale snapshot is rebuilt from the notes, never trusted', async () => {
  const dir = vault(12);
  const { warn } = console;
  const warnings = [];
  console.warn = (...args) => warnings.push(args.map(String).join(' '));
  try {
    const cold = await start(dir);
    const truth = cold.ranking();
    await stop(cold);
    const good = readFileSync(join(dir, SNAPSHOT));
    const cases = [
      ['a flipped bit in the index', () => {
        const bad = Buffer.from(good);
        bad[bad.length - 100] ^= 0x01;
        writeFileSync(join(dir, SNAPSHOT), bad);
      }, /checksum_mismatch/],
      ['a flipped bit in the notes', () => {
        const bad = Buffer.from(good);
        bad[60] ^= 0x01;
        writeFileSync(join(dir, SNAPSHOT), bad);
      }, /checksum_mismatch/],
      ['a cut-off file', () => writeFileSync(join(dir, SNAPSHOT), good.subarray(0, good.length / 2)), /checksum_mismatch|truncated/],
      ['not a snapshot', () => writeFileSync(join(dir, SNAPSHOT), '{"notes": []}'), /not_a_snapshot/],
      ['another format version', () => resealHeader(dir, (h) => { h[8] = 2; return h; }), /unsupported_version/],
      ['another engine build', () => resealHeader(dir, (h) => {
        const text = h.toString('latin1');
        const at = text.indexOf('engine sha256 ') + 'engine sha256 '.length;
        h[at] = h[at] === 0x30 ? 0x31 : 0x30;
        return h;
      }), /build_changed/],
      ['another plugin version', () => resealHeader(dir, (h) => {
        const at = h.indexOf(`tc-bridge ${manifest.version}`) + 'tc-bridge '.length;
        h[at] = h[at] === 0x39 ? 0x38 : 0x39;
        return h;
      }), /build_changed/],
    ];
    for (const [what, spoil, why] of cases) {
      writeFileSync(join(dir, SNAPSHOT), good);
      spoil();
      const s = await start(dir);
      assert.equal(s.started.source, 'notes', what);
      assert.match(s.started.reason, why, what);
      assert.equal(s.reads.length, 13, `${what}: every note read`);
      assert.deepEqual(s.ranking(), truth, `${what}: ranks as before`);
      await stop(s);
      assert.ok(readFileSync(join(dir, SNAPSHOT)).equals(good), `${what}: a sound snapshot saved again`);
    }
    assert.equal(warnings.length, cases.length, 'each refusal is logged');
  } finally {
    console.warn = warn;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('saves wait for the vault to be quiet, replace the file by a rename, and survive a crash mid-save', async () => {
  const dir = vault(8);
  try {
    const s = await start(dir);
    await s.plugin.searchIndex.flushed();
    const writes = () => s.app.vault.adapter.writes.filter((p) => p.startsWith('.obsidian/plugins/tc-bridge/'));
    await new Promise((r) => setTimeout(r, 2500));
    assert.deepEqual(writes(), [`${SNAPSHOT}.tmp`], 'the first pass is saved once, through the temporary file');
    const file = s.app.vault.getFileByPath('Note 01.md');
    for (let i = 0; i < 10; i++) await s.app.vault.modify(file, `# Note 1\n\nTyping ${'x'.repeat(i)} quickly.\n`);
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(writes().length, 1, 'not saved on every change');
    await new Promise((r) => setTimeout(r, 2500));
    await s.plugin.searchIndex.flushed();
    assert.equal(writes().length, 2, 'saved once the vault was quiet');
    assert.ok(!existsSync(join(dir, `${SNAPSHOT}.tmp`)));
    await stop(s);
    assert.equal(writes().length, 2, 'nothing new to save on unload');

    // The app stopped after the old snapshot was removed and before the rename.
    renameSync(join(dir, SNAPSHOT), join(dir, `${SNAPSHOT}.tmp`));
    const next = await start(dir);
    assert.equal(next.started.source, 'snapshot');
    assert.deepEqual(next.reads, []);
    assert.equal(next.plugin.searchIndex.search('typing', 5, () => true, () => true)[0].path, 'Note 01.md');
    await stop(next);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('an index saved while the first pass was under way is completed on the next start', async () => {
  const dir = tempFolder('tc-warm-partial-');
  for (let i = 0; i < 400; i++) writeFileSync(join(dir, `Note ${i}.md`), `# Note ${i}\n\n${'words to index '.repeat(200)} n${i}\n`);
  try {
    const app = fakeApp({ vaultDir: dir, data: { port: 0, token: TOKEN } });
    const plugin = new (loadBundle())(app, manifest);
    await plugin.onload();
    await new Promise((r) => setTimeout(r, 30));
    const partial = plugin.searchIndex.coverage().notes;
    unloadPlugin(plugin);
    await plugin.searchIndex.flushed();
    assert.ok(partial > 0 && partial < 400, `the pass had read ${partial} notes: make the vault bigger`);

    const next = await start(dir);
    assert.equal(next.started.source, 'snapshot');
    assert.ok(next.reads.length <= 400 - partial + 1 && next.reads.length >= 400 - partial - 1, `${next.reads.length} read for ${partial} saved`);
    const warmRanking = next.plugin.searchIndex.search('n7 words', 50, () => true, () => true);
    await stop(next);
    rmSync(join(dir, SNAPSHOT));
    const cold = await start(dir);
    assert.deepEqual(warmRanking, cold.plugin.searchIndex.search('n7 words', 50, () => true, () => true));
    await stop(cold);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

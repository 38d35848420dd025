// The LexicalIndex class the plugin keeps in memory: upsert, remove, search, persistence,
// and typed errors, on the Node build and the committed web build.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const nodeBuild = createRequire(import.meta.url)(join(root, 'engine-wasm', 'pkg-node', 'engine_wasm.js'));
const webBuild = await import(join(root, 'engine-wasm', 'pkg', 'engine_wasm.js'));
webBuild.initSync({ module: readFileSync(join(root, 'engine-wasm', 'pkg', 'engine_wasm_bg.wasm')) });

const notes = {
  'Daily/2026-11-20.md': { title: '2026-11-20', body: 'Met Ana about the garden irrigation plan.' },
  'Projects/Garden.md': { title: 'Garden', tags: ['project/garden'], headings: ['Irrigation'], body: 'Drip irrigation for the tomatoes.' },
  'Recipes/Tomato soup.md': { title: 'Tomato soup', aliases: ['Gazpacho'], body: 'Tomatoes, garlic, olive oil.' },
};

/** The snapshot of `notes` (texts as in the snapshot test) built by the build other than `label`. */
function otherBuild(label) {
  const engine = label === 'pkg-node' ? webBuild : nodeBuild;
  return {
    snapshot(notes) {
      const texts = { 'Recipes/Bread.md': '# Bread\n\nFlour.\n\n## Oven\n\nBake the bread.\n', 'Daily.md': 'Bread oven.\n', 'Empty.md': '' };
      const index = new engine.LexicalIndex({});
      const rebuilt = notes.map((n) => ({ ...n, chunks: index.upsert_note(n.path, texts[n.path], () => null) }));
      return index.to_note_snapshot('build-1', rebuilt);
    },
  };
}

for (const [label, engine] of [['pkg-node', nodeBuild], ['pkg (web)', webBuild]]) {
  const build = () => {
    const index = new engine.LexicalIndex({});
    for (const [id, doc] of Object.entries(notes)) index.upsert(id, doc);
    return index;
  };

  test(`${label}: search ranks by BM25F with a title boost`, () => {
    const index = build();
    assert.equal(index.len(), 3);
    const hits = index.search('irrigation', 10);
    assert.deepEqual(hits.map((h) => h.id), ['Projects/Garden.md', 'Daily/2026-11-20.md']);
    assert.ok(hits[0].score > hits[1].score);
    assert.deepEqual(index.search('gazpacho', 10).map((h) => h.id), ['Recipes/Tomato soup.md']);
    assert.deepEqual(index.search('nothing matches this', 10), []);
  });

  test(`${label}: upsert replaces and remove forgets`, () => {
    const index = build();
    index.upsert('Recipes/Tomato soup.md', { title: 'Tomato soup', body: 'Now with irrigation water.' });
    assert.equal(index.len(), 3);
    assert.ok(index.search('irrigation', 10).some((h) => h.id === 'Recipes/Tomato soup.md'));
    assert.deepEqual(index.search('gazpacho', 10), []);
    assert.equal(index.remove('Projects/Garden.md'), true);
    assert.equal(index.remove('Projects/Garden.md'), false);
    assert.equal(index.contains('Projects/Garden.md'), false);
    assert.ok(!index.search('irrigation', 10).some((h) => h.id === 'Projects/Garden.md'));
  });

  test(`${label}: to_bytes / from_bytes keeps scores bit for bit`, () => {
    const index = build();
    const copy = engine.LexicalIndex.from_bytes(index.to_bytes());
    assert.equal(copy.fingerprint(), index.fingerprint());
    for (const q of ['irrigation', 'tomato garden', 'ana']) assert.deepEqual(copy.search(q, 10), index.search(q, 10));
    assert.deepEqual(Array.from(copy.to_bytes()), Array.from(index.to_bytes()));
  });

  test(`${label}: a note snapshot reads back the index and its notes, and refuses what it cannot trust`, () => {
    const index = new engine.LexicalIndex({});
    const none = () => null;
    const notes = [
      { path: 'Recipes/Bread.md', mtime: 1732630000123.4567, size: 40, chunks: index.upsert_note('Recipes/Bread.md', '# Bread\n\nFlour.\n\n## Oven\n\nBake the bread.\n', none) },
      { path: 'Daily.md', mtime: 2, size: 12, chunks: index.upsert_note('Daily.md', 'Bread oven.\n', none) },
      { path: 'Empty.md', mtime: 3, size: 0, chunks: index.upsert_note('Empty.md', '', none) },
    ];
    assert.deepEqual(notes[0].chunks.map((c) => c.headings), [['Bread'], ['Bread', 'Oven']]);
    const bytes = index.to_note_snapshot('build-1', notes);
    const { index: back, notes: saved } = engine.LexicalIndex.from_note_snapshot(bytes, 'build-1');
    assert.deepEqual(saved, [...notes].sort((a, b) => (a.path < b.path ? -1 : 1)));
    const all = () => true;
    assert.deepEqual(back.search_notes('bread oven', 10, all, all), index.search_notes('bread oven', 10, all, all));
    assert.deepEqual(Array.from(back.to_note_snapshot('build-1', saved)), Array.from(bytes), 'stable bytes');
    assert.deepEqual(Array.from(otherBuild(label).snapshot(notes)), Array.from(bytes), 'the same bytes from the other build');

    assert.throws(() => engine.LexicalIndex.from_note_snapshot(bytes, 'build-2'), /^Error: build_changed: /);
    for (const at of [20, bytes.length - 5]) {
      const bad = bytes.slice();
      bad[at] ^= 1;
      assert.throws(() => engine.LexicalIndex.from_note_snapshot(bad, 'build-1'), /^Error: checksum_mismatch: /);
    }
    assert.throws(() => engine.LexicalIndex.from_note_snapshot(bytes.slice(0, 30), 'build-1'), /^Error: truncated: /);
    assert.throws(() => engine.LexicalIndex.from_note_snapshot(index.to_bytes(), 'build-1'), /^Error: not_a_snapshot: /);
    assert.throws(() => index.to_note_snapshot('b', notes.slice(1)), /^Error: invalid_notes: /, 'a note missing');
    const misnamed = [{ ...notes[1], chunks: [{ key: 'Daily.md', headings: [] }] }, notes[0], notes[2]];
    assert.throws(() => index.to_note_snapshot('b', misnamed), /^Error: invalid_notes: /, 'a chunk under another key');
    assert.throws(() => index.to_note_snapshot('b', [{ ...notes[0], extra: 1 }, notes[1], notes[2]]), /^Error: invalid_input: /);
  });

  test(`${label}: bad input is a typed error`, () => {
    const index = build();
    assert.throws(() => index.upsert('x.md', { titel: 'typo' }), /^Error: invalid_input/);
    assert.throws(() => new engine.LexicalIndex({ params: { k1: -1 } }), /^Error: \w+/);
    const bytes = index.to_bytes();
    bytes[bytes.length - 1] ^= 0xff;
    assert.throws(() => engine.LexicalIndex.from_bytes(bytes), /^Error: \w+/);
    assert.equal(index.len(), 3);
  });
}

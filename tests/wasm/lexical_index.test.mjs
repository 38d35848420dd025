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

// ACL-exact ranking in WebAssembly: a caller who may read only `Public/` gets the same score
// bits for a public note whether 0 or 60 notes it may not read share its term (BM25F's
// statistics are those of the readable notes), on the Node build and the committed web build,
// and both builds agree bit for bit. The plugin's folder access is such a caller. A view kept
// under a key is reused without asking again, and rebuilt once the index changes.
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

const PUBLIC = {
  'Public/merger.md': '# Merger\nThe merger of two clubs was signed.\n',
  'Public/bread.md': 'Flour, yeast and a hot oven make bread.\n',
  'Public/memo.md': 'A memo to the bank about the merger.\n',
};
const hidden = (n) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`Secret/${i}.md`, `Merger plans, merger terms: the merger, draft ${i}.\n`]));
const readable = (path) => path.startsWith('Public/');
const all = () => true;

/** The bits of a double, as a hex string. */
const bits = (x) => Buffer.from(new Float64Array([x]).buffer).toString('hex');

function ranking(engine, notes, query, allowed = all) {
  const index = new engine.LexicalIndex({});
  for (const [path, text] of Object.entries(notes)) index.upsert_note(path, text, () => ({}));
  const hits = index.search_notes(query, 10, readable, allowed).map((h) => [h.path, bits(h.score)]);
  const chunks = index.readable_chunks(readable);
  index.free();
  return { hits, chunks };
}

for (const [label, engine] of [['pkg-node', nodeBuild], ['pkg (web)', webBuild]]) {
  test(`${label}: 60 hidden notes sharing the term change no public score`, () => {
    for (const query of ['merger', 'merger bank', 'bread']) {
      const alone = ranking(engine, PUBLIC, query);
      const crowded = ranking(engine, { ...PUBLIC, ...hidden(60) }, query);
      assert.ok(alone.hits.length > 0, query);
      assert.deepEqual(crowded.hits, alone.hits, query);
      assert.equal(crowded.chunks, alone.chunks);
    }
    // A folder filter narrows the page, not the statistics.
    const narrowed = ranking(engine, { ...PUBLIC, ...hidden(60) }, 'merger', (p) => p === 'Public/memo.md');
    const full = ranking(engine, PUBLIC, 'merger');
    assert.deepEqual(narrowed.hits, full.hits.filter(([p]) => p === 'Public/memo.md'));
  });

  test(`${label}: without the restriction the hidden notes do move the score (the leak closed)`, () => {
    const index = new engine.LexicalIndex({});
    for (const [path, text] of Object.entries({ ...PUBLIC, ...hidden(60) })) index.upsert_note(path, text, () => ({}));
    const open = index.search_notes('merger', 100, all, all).find((h) => h.path === 'Public/merger.md');
    const restricted = index.search_notes('merger', 100, readable, all).find((h) => h.path === 'Public/merger.md');
    index.free();
    assert.ok(open.score < restricted.score);
  });
}

for (const [label, engine] of [['pkg-node', nodeBuild], ['pkg (web)', webBuild]]) {
  test(`${label}: a view kept under its key is reused until the index changes`, () => {
    const index = new engine.LexicalIndex({});
    for (const [path, text] of Object.entries({ ...PUBLIC, ...hidden(60) })) index.upsert_note(path, text, () => ({}));
    let asked = 0;
    const counted = (path) => { asked += 1; return readable(path); };
    const page = () => index.search_notes('merger', 10, counted, all, 'public-only').map((h) => [h.path, bits(h.score)]);
    const first = page();
    assert.equal(asked, 63, 'one question per note');
    assert.deepEqual(page(), first);
    assert.equal(index.readable_chunks(counted, 'public-only'), 3);
    assert.equal(asked, 63, 'the kept view answered without asking again');
    // Without a key nothing is kept; another key builds its own view.
    index.search_notes('merger', 10, counted, all);
    assert.equal(asked, 126);
    index.search_notes('merger', 10, all, all, 'everything');
    assert.deepEqual(page(), first);
    assert.equal(asked, 189, 'the other key replaced the kept view');
    // A changed index is never searched through an old view: a new public note counts.
    index.upsert_note('Public/news.md', 'Merger news.\n', () => ({}));
    const after = page();
    assert.equal(asked, 189 + 64);
    assert.ok(after.some(([p]) => p === 'Public/news.md'));
    assert.equal(index.readable_chunks(counted, 'public-only'), 4);
    const fresh = new engine.LexicalIndex({});
    for (const [path, text] of Object.entries({ ...PUBLIC, 'Public/news.md': 'Merger news.\n' })) fresh.upsert_note(path, text, () => ({}));
    assert.deepEqual(after, fresh.search_notes('merger', 10, readable, all).map((h) => [h.path, bits(h.score)]));
    fresh.free();
    index.free();
  });
}

test('the Node and web builds give the same bits under the restriction', () => {
  const notes = { ...PUBLIC, ...hidden(60) };
  assert.deepEqual(ranking(nodeBuild, notes, 'merger'), ranking(webBuild, notes, 'merger'));
});

// One WASM round of the SciFact benchmark, driven by engine-core/examples/bench_scifact.rs:
// indexes the corpus (title + text) with the engine's default analyzer and BM25 parameters
// through the LexicalIndex class of the Node build, answers the test queries (top 100), and
// prints one JSON line: {index_ms, query_ms, docs, queries, digest}. The digest is SHA-256
// over "query\tdoc\tscore-bits\n" for each query's top 10, so the caller can check that
// WASM ranked and scored bit-identically to native code.
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dataArg = process.argv.indexOf('--data');
const data = dataArg > 0 ? process.argv[dataArg + 1] : join(root, '..', 'shared', 'data', 'scifact');
const { LexicalIndex } = createRequire(import.meta.url)(join(root, 'engine-wasm', 'pkg-node', 'engine_wasm.js'));

const jsonl = (file) => readFileSync(join(data, file), 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
const corpus = jsonl('corpus.jsonl');
const texts = new Map(jsonl('queries.jsonl').map((q) => [q._id, q.text]));
const queryIds = [];
for (const line of readFileSync(join(data, 'qrels', 'test.tsv'), 'utf8').split('\n').slice(1)) {
  const q = line.split('\t')[0];
  if (q && !queryIds.includes(q)) queryIds.push(q);
}

let start = performance.now();
const index = new LexicalIndex({});
for (const d of corpus) index.upsert(d._id, { title: d.title ?? '', body: d.text ?? '' });
const indexMs = performance.now() - start;

const bits = new DataView(new ArrayBuffer(8));
const digest = createHash('sha256');
start = performance.now();
const results = queryIds.map((q) => index.search(texts.get(q), 100));
const queryMs = performance.now() - start;
results.forEach((hits, i) => {
  for (const h of hits.slice(0, 10)) {
    bits.setFloat64(0, h.score);
    digest.update(`${queryIds[i]}\t${h.id}\t${bits.getBigUint64(0).toString(16).padStart(16, '0')}\n`);
  }
});
console.log(JSON.stringify({ index_ms: indexMs, query_ms: queryMs, docs: index.len(), queries: queryIds.length, digest: digest.digest('hex') }));

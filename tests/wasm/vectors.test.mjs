// Runs every golden vector in tests/vectors/*.json against the WebAssembly builds of
// engine-wasm: the Node build (pkg-node) and the committed web build (pkg) that the
// plugin bundles. The native runner (engine-wasm/tests/vectors.rs) runs the same files.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const vectorsDir = join(root, 'tests', 'vectors');

const nodeBuild = createRequire(import.meta.url)(join(root, 'engine-wasm', 'pkg-node', 'engine_wasm.js'));
const webBuild = await import(join(root, 'engine-wasm', 'pkg', 'engine_wasm.js'));
webBuild.initSync({ module: readFileSync(join(root, 'engine-wasm', 'pkg', 'engine_wasm_bg.wasm')) });

/** Structural equality; numbers compare by exact value, like the native runner. */
function same(a, b) {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b) || a === b;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
  }
  return a === b;
}

/** Like same(), but numbers only need to be within tol (relative, at least absolute tol). */
function close(a, b, tol) {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= tol * Math.max(1, Math.abs(b));
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => close(x, b[i], tol));
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k) => Object.hasOwn(b, k) && close(a[k], b[k], tol));
  }
  return a === b;
}

const files = readdirSync(vectorsDir).filter((f) => f.endsWith('.json')).sort();

for (const [label, engine] of [['pkg-node', nodeBuild], ['pkg (web)', webBuild]]) {
  for (const file of files) {
    const doc = JSON.parse(readFileSync(join(vectorsDir, file), 'utf8'));
    test(`${label} ${file}`, () => {
      const fn = engine[doc.function];
      assert.equal(typeof fn, 'function', `export ${doc.function} missing from ${label}`);
      const failures = [];
      for (const c of doc.cases) {
        let got, err;
        try { got = fn(c.input); } catch (e) { err = e; }
        const ok = 'error' in c
          ? err !== undefined && String(err.message).split(':')[0] === c.error
          : err === undefined && same(got, c.expected)
            && (!('reference' in c) || close(got, c.reference, c.tolerance ?? 1e-6));
        if (!ok) failures.push(`${c.name}\n  expected: ${JSON.stringify(c.expected ?? c.error)}\n  got: ${err ? 'error ' + err.message : JSON.stringify(got)}`);
      }
      assert.deepEqual(failures, [], `${failures.length} failing case(s) in ${file}`);
    });
  }
}

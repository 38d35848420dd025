// JSONLogic through WebAssembly (jsonlogic_evaluate) on the Node build and the committed web
// build: the official jsonlogic.com suite and the project's note cases, the very fixtures the
// native tests run (engine-core/tests/jsonlogic_suite.rs, jsonlogic_notes.rs), with the same
// values, operation counts and error codes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fixtures = join(root, 'engine-core', 'tests', 'fixtures', 'jsonlogic');
const suite = JSON.parse(readFileSync(join(fixtures, 'tests.json'), 'utf8'));
const notes = JSON.parse(readFileSync(join(fixtures, 'notes.json'), 'utf8'));

const nodeBuild = createRequire(import.meta.url)(join(root, 'engine-wasm', 'pkg-node', 'engine_wasm.js'));
const webBuild = await import(join(root, 'engine-wasm', 'pkg', 'engine_wasm.js'));
webBuild.initSync({ module: readFileSync(join(root, 'engine-wasm', 'pkg', 'engine_wasm_bg.wasm')) });

for (const [label, engine] of [['pkg-node', nodeBuild], ['pkg (web)', webBuild]]) {
  test(`${label}: the official JSONLogic suite passes completely`, () => {
    const cases = suite.filter((c) => Array.isArray(c));
    assert.equal(cases.length, 277);
    const failures = [];
    for (const [rule, data, expected] of cases) {
      let got;
      try { got = engine.jsonlogic_evaluate({ rule, data }).value; } catch (e) { got = `error ${e.message}`; }
      try { assert.deepStrictEqual(got, expected); } catch { failures.push(`${JSON.stringify(rule)} on ${JSON.stringify(data)}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(got)}`); }
    }
    assert.deepEqual(failures, []);
  });

  test(`${label}: note cases give the native values, counts and errors`, () => {
    assert.ok(notes.cases.length >= 40);
    for (const c of notes.cases) {
      const input = { rule: c.rule, data: c.data ?? notes.note };
      if (c.budget !== undefined) input.budget = c.budget;
      if ('error' in c) {
        assert.throws(() => engine.jsonlogic_evaluate(input), (e) => {
          assert.equal(e.message.split(':')[0], c.error, c.name);
          if (c.path) assert.ok(e.message.endsWith(` at ${c.path}`), `${c.name}: ${e.message}`);
          return true;
        }, c.name);
      } else {
        const out = engine.jsonlogic_evaluate(input);
        assert.deepStrictEqual(out.value, c.expected, c.name);
        assert.equal(out.matches, !(out.value === null || out.value === false || out.value === 0 || out.value === ''
          || (Array.isArray(out.value) && out.value.length === 0)), c.name);
        if (c.operations !== undefined) assert.equal(out.operations, c.operations, c.name);
      }
    }
  });

  test(`${label}: a large map exceeds a small budget and fits a large one, with the native count`, () => {
    const data = { items: Array.from({ length: 10000 }, (_, i) => i) };
    const rule = { map: [{ var: 'items' }, { '+': [{ var: '' }, 1] }] };
    assert.throws(() => engine.jsonlogic_evaluate({ rule, data, budget: 1000 }), /^Error: compute_budget_exceeded: /);
    const out = engine.jsonlogic_evaluate({ rule, data, budget: 100000 });
    assert.equal(out.operations, 40002);
    assert.equal(out.value[9999], 10000);
  });

  test(`${label}: unknown input fields are refused`, () => {
    assert.throws(() => engine.jsonlogic_evaluate({ rule: true, bogus: 1 }), /^Error: invalid_input: /);
  });
}

// The WebAssembly engine has one door in the plugin: plugin/src/engine/engine.ts, its typed
// wrapper. No other source under plugin/src may import the generated bindings
// (engine-wasm/pkg, or the inlined bytes `tc-engine-wasm-bytes`) or call one of their snake_case
// functions or methods (read from engine_wasm.d.ts), nor any snake_case method on an engine.
// Reads the sources only: no build needed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../', import.meta.url));
const WRAPPER = 'plugin/src/engine/engine.ts';

/** Every `.ts` file under plugin/src, relative to the repository root. */
const sources = readdirSync(join(root, 'plugin/src'), { recursive: true })
  .filter((f) => f.endsWith('.ts'))
  .map((f) => join('plugin/src', f).replaceAll('\\', '/'))
  .sort();

/** The snake_case functions and methods of the bindings. */
const bindings = readFileSync(join(root, 'engine-wasm/pkg/engine_wasm.d.ts'), 'utf8');
const snakeNames = [
  ...new Set([...bindings.matchAll(/^(?:export function |\s+(?:static )?)([a-z][a-z0-9]*(?:_[a-z0-9]+)+)\(/gm)].map((m) => m[1])),
];

const RULES = [
  ['imports the bindings', /\b(?:from|import|require)\s*\(?\s*["'][^"']*(?:engine-wasm\/pkg|tc-engine-wasm-bytes)/],
  ['calls a binding', new RegExp(String.raw`(?:\.\s*|\[\s*["'])(?:${snakeNames.join('|')})\b(?:["']\s*\])?\s*\(`)],
  ['calls a snake_case method on an engine', /\b\w*(?:engine|wasm)\w*\s*\.\s*[a-z][a-z0-9]*_[a-z0-9_]+\s*\(/i],
];

/** `file:line: what` for each line of `file` that breaks a rule. */
function violations(file) {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  return lines.flatMap((line, i) => RULES.filter(([, re]) => re.test(line)).map(([what]) => `${file}:${i + 1}: ${what}: ${line.trim()}`));
}

test('the scan sees the bindings and the wrapper', () => {
  for (const name of ['tool_list_hash', 'acl_from_presets', 'acl_evaluate', 'upsert_note', 'search_notes']) {
    assert.ok(snakeNames.includes(name), `${name} not found in engine_wasm.d.ts`);
  }
  assert.ok(sources.includes(WRAPPER), `${WRAPPER} is missing`);
  assert.ok(sources.length > 10, 'too few plugin sources found');
  // The wrapper does what the others must not: proof that every rule can fire.
  const found = new Set(violations(WRAPPER).map((v) => v.split(': ')[1]));
  assert.deepEqual([...found].sort(), ['calls a binding', 'calls a snake_case method on an engine', 'imports the bindings']);
});

test('only the wrapper touches the generated bindings', () => {
  assert.deepEqual(sources.filter((f) => f !== WRAPPER).flatMap(violations), []);
});

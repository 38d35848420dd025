// Golden vectors for `tool_list_hash` (tests/vectors/hash_toollist.json).
//
// Independent source: Node itself running the Bridge Protocol v1 algorithm of seed 001
// (shared/seeds/001_8663179d09d86b11.txt) verbatim, with only the TypeScript annotations
// removed: deepSort, `toolRegistry.list().sort((a, b) => a.name.localeCompare(b.name))`,
// JSON.stringify and crypto SHA-256. `localeCompare` runs with Node's full ICU and the
// default locale (en / root collation); run with Node 20 and LANG unset or C.UTF-8.
//
// Each registry is written as raw JSON text, parsed here with JSON.parse (as the plugin's
// registry data would be) and spliced verbatim into the vector file, so literals such as -0,
// 1e21, duplicate keys, key order and "__proto__" members reach the engine as written.
//
// Run from the repository root:  node tests/vectors/gen/hash_toollist.mjs
import crypto from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const out = join(dirname(fileURLToPath(import.meta.url)), '..', 'hash_toollist.json');

// ---- seed 001, verbatim (TypeScript annotations removed) ----
function deepSort(obj) {
  if (Array.isArray(obj)) {
    // 配列は順序を保持（配列要素の順序変動はハッシュ変動として検知）
    return obj.map(deepSort);
  } else if (obj !== null && typeof obj === 'object') {
    return Object.keys(obj)
      .sort()  // オブジェクトキーを辞書順にソート
      .reduce((acc, key) => {
        acc[key] = deepSort(obj[key]);
        return acc;
      }, {});
  }
  return obj;
}

function bridgeHash(toolRegistry) {
  const sorted = toolRegistry.list()
    .sort((a, b) => a.name.localeCompare(b.name))
    .map(t => deepSort({
      name: t.name,
      description: t.description,
      inputSchema: t.inputSchema
    }));
  const hashInput = JSON.stringify(sorted); // 完全に正規化されたJSON
  const hash = crypto.createHash('sha256').update(hashInput).digest('hex');
  return { hashInput, hash };
}
// ---- end of seed 001 ----

const obj = (props, required) => ({ type: 'object', properties: props, ...(required ? { required } : {}) });
const str = (description, extra = {}) => ({ type: 'string', description, ...extra });

const realistic = [
  { name: 'search_notes', description: 'Full-text and semantic search over the vault.',
    inputSchema: obj({ query: str('What to look for'), limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
      mode: { type: 'string', enum: ['lexical', 'semantic', 'hybrid'], default: 'hybrid' },
      filters: obj({ tags: { type: 'array', items: { type: 'string' } }, folder: str('Folder prefix') }) }, ['query']) },
  { name: 'read_note', description: 'Read a note by its vault path.',
    inputSchema: obj({ path: str('Vault-relative path, e.g. Notes/a.md'), include_frontmatter: { type: 'boolean', default: true } }, ['path']) },
  { name: 'write_note', description: 'Create or overwrite a note.',
    inputSchema: obj({ path: str('Vault-relative path'), content: str('Markdown body'), overwrite: { type: 'boolean', default: false } }, ['path', 'content']) },
  { name: 'list_notes', description: 'List notes under a folder.',
    inputSchema: obj({ folder: str('Folder', { default: '/' }), recursive: { type: 'boolean' } }) },
  { name: 'append_note', description: 'Append text to a note.',
    inputSchema: obj({ path: str('Vault-relative path'), content: str('Text to append') }, ['path', 'content']) },
  { name: 'delete_note', description: 'Move a note to the trash (asks for approval).',
    inputSchema: obj({ path: str('Vault-relative path') }, ['path']) },
  { name: 'get_backlinks', description: 'Notes linking to a note.',
    inputSchema: obj({ path: str('Vault-relative path'), include_embeds: { type: 'boolean', default: false } }, ['path']) },
  { name: 'move_note', description: 'Rename or move a note, rewriting links.',
    inputSchema: obj({ from: str('Old path'), to: str('New path') }, ['from', 'to']) },
];

/** A registry re-serialised with every object's keys in reverse insertion order. */
function reverseKeys(value) {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reverseKeys(v)]));
  }
  return value;
}

let seed = 0x2545F491;
function rand(n) { seed = (Math.imul(seed, 1103515245) + 12345) >>> 0; return (seed >>> 8) % n; }
function randomNames(count) {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.- ';
  const names = [];
  for (let i = 0; i < count; i++) {
    const base = i % 3 === 0 && names.length ? names[rand(names.length)].slice(0, 1 + rand(4)) : '';
    let name = base;
    const len = 1 + rand(10);
    for (let j = 0; j < len; j++) name += alphabet[rand(alphabet.length)];
    names.push(name);
  }
  return names;
}

function deepSchema(levels) {
  let schema = { type: 'string' };
  for (let i = 0; i < levels; i++) schema = { type: 'object', properties: { [`level${levels - i}`]: schema, z: { type: 'null' } } };
  return schema;
}

const J = (v) => JSON.stringify(v);
const cases = [
  ['empty registry', '[]'],
  ['a single read_note tool', J([realistic[1]])],
  ['realistic registry in registry order', J(realistic)],
  ['same registry, reversed registry order (same hash)', J([...realistic].reverse())],
  ['same registry, every object built in reverse key order (same hash)', J(reverseKeys(realistic))],
  ['names differing only in case', J(['Search', 'search', 'SEARCH', 'sEarch', 'seArch', 'searcH'].map((name) => ({ name, description: name, inputSchema: obj({}) })))],
  ['underscore, hyphen, dot, space, digit and letter after a common prefix',
    J(['note1', 'notea', 'note_1', 'note.1', 'note-1', 'note 1', 'note', 'noteA', 'note_a', 'note__', 'note0', 'note9'].map((name) => ({ name, inputSchema: obj({}) })))],
  ['hyphen versus dot versus underscore', J(['a.b', 'a-b', 'a_b', 'ab', 'a.B', 'A-b', 'a--b', 'a..b', 'a__b'].map((name) => ({ name, description: '' })))],
  ['prefixes and case: Read, read, read_note, READ_NOTE, readNote', J(['readNote', 'READ_NOTE', 'read_note', 'read', 'Read', 'read_notes', 'read_note_v2'].map((name) => ({ name })))],
  ['integer-like property keys come first in numeric order',
    '[{"name":"table","inputSchema":{"type":"object","properties":{"b":{"type":"string"},"10":{"type":"integer"},"2":{"type":"integer"},"0":{"type":"integer"},"01":{"type":"string"},"-1":{"type":"string"},"1.5":{"type":"number"},"4294967294":{"const":1},"4294967295":{"const":2},"a":{"type":"null"}},"required":["0","2","10"]}}]'],
  ['numbers in the schema: exponents, -0, subnormal, beyond 2^53',
    '[{"name":"numbers","description":"number formats","inputSchema":{"type":"object","properties":{"x":{"type":"number","minimum":-0,"maximum":1e21,"multipleOf":1e-7,"default":0.1,"examples":[5e-324,123456789012345680000,1.7976931348623157e308,-0.0,9007199254740993,1E30,4.50,2e-3,0.000001,1e-6,100,564884782883639.25]}}}}]'],
  ['unicode, emoji and escapes in descriptions',
    '[{"name":"unicode","description":"日本語の説明 — émoji 👩‍👩‍👧‍👦 \\u0000\\u0001\\u001f \\b\\f\\n\\r\\t \\"quoted\\" back\\\\slash \\/ \\u007f \\u2028\\u2029 e\\u0301 שלום مرحبا","inputSchema":{"type":"object","properties":{"ключ":{"description":"значение 🦀"},"emoji🦀":{"type":"string"}}}}]'],
  ['missing description, null description, missing and null inputSchema',
    '[{"name":"d_missing","inputSchema":{"type":"object"}},{"name":"d_null","description":null,"inputSchema":{"type":"object"}},{"name":"s_missing","description":"no schema"},{"name":"s_null","description":"null schema","inputSchema":null}]'],
  ['__proto__ members are dropped by deepSort',
    '[{"name":"proto","inputSchema":{"type":"object","properties":{"__proto__":{"type":"string"},"a":{"type":"object","__proto__":5},"b":{"__proto__":null,"c":1}}}}]'],
  ['duplicate names keep registry order (first, second)',
    '[{"name":"dup","description":"first"},{"name":"other"},{"name":"dup","description":"second"}]'],
  ['duplicate names keep registry order (second, first)',
    '[{"name":"dup","description":"second"},{"name":"other"},{"name":"dup","description":"first"}]'],
  ['keys sorted by UTF-16 code units, not code points',
    '[{"name":"utf16","inputSchema":{"properties":{"\\ue000":{},"\\ud800\\udc00":{},"\\uffff":{},"~":{},"Z":{},"a":{},"\\u00e9":{}}}}]'],
  ['extra MCP fields (title, annotations, outputSchema) are ignored',
    J([{ name: 'read_note', title: 'Read note', description: 'Read a note.', inputSchema: obj({ path: str('p') }, ['path']), outputSchema: obj({ text: str('t') }), annotations: { readOnlyHint: true } }])],
  ['duplicate keys in a schema: the last one wins', '[{"name":"dupkeys","inputSchema":{"type":"object","type":"string","a":1,"a":2}}]'],
  ['CJK names sort after ASCII names', J(['ノート検索', 'zeta', '検索', 'Alpha'].map((name) => ({ name })))],
  ['empty name sorts first', J(['b', '', 'a', ' '].map((name) => ({ name })))],
  ['deeply nested schema (60 levels)', J([{ name: 'deep', inputSchema: deepSchema(60) }])],
  ['300 random names over [A-Za-z0-9_.- ]', J(randomNames(300).map((name, i) => ({ name, description: `tool ${i}` })))],
];

const lines = [];
for (const [name, raw] of cases) {
  const toolRegistry = { list: () => JSON.parse(raw) };
  const { hashInput, hash } = bridgeHash(toolRegistry);
  lines.push(`    {"name": ${JSON.stringify(name)}, "input": {"tools": ${raw}}, "expected": ${JSON.stringify(hash)}, "node_hash_input": ${JSON.stringify(hashInput)}}`);
}
// Malformed inputs: typed `invalid_input` errors (written by hand; in JS the first two throw
// or hash garbage, the engine refuses them).
const errors = [
  ['a tool without a name', '{"tools": [{"description": "nameless"}]}'],
  ['a name that is not a string', '{"tools": [{"name": 42}]}'],
  ['tools is not an array', '{"tools": {"name": "x"}}'],
  ['missing tools', '{}'],
];
for (const [name, raw] of errors) lines.push(`    {"name": ${JSON.stringify(name)}, "input": ${raw}, "error": "invalid_input"}`);
const text = `{
  "function": "tool_list_hash",
  "description": "Bridge Protocol v1 tool-list hash: localeCompare order, deepSort, JSON.stringify, SHA-256 hex",
  "expected_source": "Node ${process.versions.node} (ICU ${process.versions.icu}, locale ${Intl.Collator().resolvedOptions().locale}) running the seed 001 algorithm verbatim (tests/vectors/gen/hash_toollist.mjs); node_hash_input is the text Node hashed",
  "cases": [
${lines.join(',\n')}
  ]
}
`;
JSON.parse(text);
writeFileSync(out, text);
console.log(`hash_toollist.json: ${lines.length} cases`);

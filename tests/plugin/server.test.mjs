// Seed-001 contract test of the bridge server, against the production bundle: loads the built
// main.js (run `npm run build` first) with the obsidian stub, runs onload with port 0, registers
// test tools through plugin.bridge.registry and talks to the real 127.0.0.1 server with node:http.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import net from 'node:net';
import * as obsidian from './stubs/obsidian.mjs';
import { loadBundle, manifest, request as harnessRequest } from './harness/plugin.mjs';

const TOKEN = 'test-token-0123456789';

/** A request to the bridge API (health unless `path` says otherwise) with this file's token. */
const request = (port, opts = {}) => harnessRequest(port, { path: '/bridge/v1/health', token: TOKEN, ...opts });

const call = (port, name, payload, opts = {}) =>
  request(port, { method: 'POST', path: `/bridge/v1/tools/${encodeURIComponent(name)}/call`, body: JSON.stringify(payload), ...opts });

// Seed 001's JavaScript algorithm, verbatim, independent of the engine.
function deepSort(obj) {
  if (Array.isArray(obj)) return obj.map(deepSort);
  if (obj !== null && typeof obj === 'object') {
    return Object.keys(obj).sort().reduce((acc, key) => { acc[key] = deepSort(obj[key]); return acc; }, {});
  }
  return obj;
}
function seedHash(tools) {
  const sorted = [...tools]
    .sort((a, b) => a.name.localeCompare(b.name))
    .map((t) => deepSort({ name: t.name, description: t.description, inputSchema: t.inputSchema }));
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex');
}

const echo = {
  name: 'echo',
  description: 'Echoes its text argument.',
  inputSchema: { type: 'object', properties: { text: { type: 'string' }, upper: { type: 'boolean', default: false } }, required: ['text'] },
  run: async (args) => ({ content: [{ type: 'text', text: args.upper ? String(args.text).toUpperCase() : String(args.text) }] }),
};
const twoArgs = {
  name: 'b_two',
  description: 'Needs two arguments.',
  inputSchema: { required: ['path', 'query'], properties: { query: { type: 'string' }, path: { type: 'string' } }, type: 'object' },
  run: () => ({ content: [{ type: 'text', text: 'ok' }] }),
};
const soft = {
  name: 'Soft_fail',
  description: 'A tool-level error.',
  inputSchema: { type: 'object', properties: {} },
  run: () => ({ content: [{ type: 'text', text: 'Error: Note not found' }], isError: true }),
};
const thrower = {
  name: 'thrower',
  description: 'Always throws.',
  inputSchema: { type: 'object', properties: {} },
  run: async () => { throw new Error('boom'); },
};

let plugin;
let port;
before(async () => {
  const Plugin = loadBundle();
  plugin = new Plugin({ __data: { port: 0, token: TOKEN }, vault: { configDir: '.obsidian' }, workspace: {} }, manifest);
  const t0 = performance.now();
  await plugin.onload();
  assert.ok(plugin.bridge, 'bridge not started');
  port = plugin.bridge.port;
  assert.ok(port > 0);
  console.log(`# onload to serving on port ${port}: ${(performance.now() - t0).toFixed(1)} ms`);
});
after(async () => {
  if (plugin?.bridge) {
    const bridge = plugin.bridge;
    plugin.onunload();
    await bridge.stop();
  }
});

test('GET /bridge/v1/health', async () => {
  const r = await request(port);
  assert.equal(r.status, 200);
  assert.match(r.headers['content-type'], /^application\/json/);
  assert.deepEqual(r.json, { status: 'ok', version: manifest.version, protocolVersion: '1' });
  assert.equal(r.headers['access-control-allow-origin'], undefined, 'no CORS headers');
  const viaLocalhost = await request(port, { host: `localhost:${port}` });
  assert.equal(viaLocalhost.status, 200);
});

test('GET /bridge/v1/tools: list and the seed-001 hash', async () => {
  // The plugin's own tools, registered on load.
  const own = await request(port, { path: '/bridge/v1/tools' });
  assert.equal(own.status, 200);
  assert.ok(own.json.tools.length >= 20, `${own.json.tools.length} tools`);
  assert.ok(own.json.tools.some((t) => t.name === 'execute_command'));
  assert.equal(own.json.hash, seedHash(own.json.tools));

  const mine = [echo, twoArgs, soft, thrower];
  const unregister = mine.map((t) => plugin.bridge.registry.register(t));
  try {
    const r = await request(port, { path: '/bridge/v1/tools' });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.tools.slice(-4).map((t) => t.name), ['echo', 'b_two', 'Soft_fail', 'thrower']);
    assert.deepEqual(r.json.tools.at(-4), { name: echo.name, description: echo.description, inputSchema: echo.inputSchema });
    assert.ok(r.json.tools.every((t) => t.run === undefined && Object.keys(t).join() === 'name,description,inputSchema'));
    assert.match(r.json.hash, /^[0-9a-f]{64}$/);
    assert.equal(r.json.hash, seedHash(r.json.tools));
    assert.notEqual(r.json.hash, own.json.hash);
  } finally {
    unregister.forEach((u) => u());
  }
  const again = await request(port, { path: '/bridge/v1/tools' });
  assert.equal(again.json.hash, own.json.hash);
});

/** A deterministic pseudo-random source (tests must be repeatable). */
function lcg(seed) {
  let state = seed;
  return (n) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
}

/** A JSON value with nested objects whose keys come in a random order. */
function randomSchema(rnd, depth = 0) {
  const keys = ['type', 'properties', 'required', 'enum', 'description', 'items', 'minimum', 'default', 'Zed', 'ä', '_x'];
  const out = {};
  const count = 1 + rnd(5);
  for (let i = 0; i < count; i++) {
    const key = keys[rnd(keys.length)];
    const kind = depth > 2 ? rnd(4) : rnd(6);
    out[key] = [
      () => `text ${rnd(100)} "quoted" \\ é ✓ \u2028`,
      () => rnd(1000) / 8 - 50,
      () => rnd(2) === 0,
      () => [`b${rnd(9)}`, `a${rnd(9)}`, null],
      () => randomSchema(rnd, depth + 1),
      () => ({ z: randomSchema(rnd, depth + 1), a: 1e21, m: -0.5 }),
    ][kind]();
  }
  return out;
}

test('GET /bridge/v1/tools: the hash equals seed 001\'s algorithm on 300 random tool lists', async () => {
  const alphabet = 'abAB_-.09zZ';
  const rnd = lcg(7);
  let compared = 0;
  for (let round = 0; round < 300; round++) {
    const names = new Set();
    const wanted = 1 + rnd(8);
    while (names.size < wanted) {
      let name = '';
      for (let i = 0, n = 1 + rnd(6); i < n; i++) name += alphabet[rnd(alphabet.length)];
      names.add(name);
    }
    const tools = [...names].map((name) => ({
      name,
      description: `Tool ${name}: ${'dé'.repeat(rnd(3))}`,
      inputSchema: { type: 'object', ...randomSchema(rnd) },
      run: () => ({ content: [] }),
    }));
    const unregister = tools.map((t) => plugin.bridge.registry.register(t));
    try {
      const r = await request(port, { path: '/bridge/v1/tools' });
      assert.equal(r.status, 200);
      const listed = r.json.tools.filter((t) => names.has(t.name));
      assert.equal(listed.length, tools.length);
      assert.equal(r.json.hash, seedHash(r.json.tools), `round ${round}: ${[...names].join(' ')}`);
      compared++;
    } finally {
      unregister.forEach((u) => u());
    }
  }
  assert.equal(compared, 300);
});

test('tool names outside the MCP alphabet are refused at registration', () => {
  for (const name of ['éclair', 'a b', '', 'x'.repeat(129), 'read/note', 'Ω']) {
    assert.throws(
      () => plugin.bridge.registry.register({ ...echo, name }),
      /not a valid tool name/,
      JSON.stringify(name),
    );
  }
  const unregister = plugin.bridge.registry.register({ ...echo, name: 'x'.repeat(128) });
  unregister();
});

test('POST /bridge/v1/tools/{name}/call: success, isError, 404, 400, 500', async () => {
  const unregister = [echo, twoArgs, soft, thrower].map((t) => plugin.bridge.registry.register(t));
  const { error } = console;
  try {
    let r = await call(port, 'echo', { arguments: { text: 'héllo', upper: true } });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { success: true, content: [{ type: 'text', text: 'HÉLLO' }] });

    r = await call(port, 'Soft_fail', { arguments: {} });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json, { success: false, content: [{ type: 'text', text: 'Error: Note not found' }], isError: true });

    r = await call(port, 'unknown_tool', { arguments: {} });
    assert.equal(r.status, 404);
    assert.deepEqual(r.json, { error: 'TOOL_NOT_FOUND', message: "Tool 'unknown_tool' not found" });

    r = await call(port, 'echo', { arguments: {} });
    assert.equal(r.status, 400);
    assert.deepEqual(r.json, { error: 'INVALID_ARGUMENTS', message: 'Missing required argument: text', details: { missing: ['text'] } });

    r = await call(port, 'b_two', {});
    assert.equal(r.status, 400);
    assert.equal(r.json.error, 'INVALID_ARGUMENTS');
    assert.deepEqual(r.json.details, { missing: ['path', 'query'] });

    // Inherited names (toString, __proto__) are not arguments.
    const proto = { ...echo, name: 'proto', inputSchema: { type: 'object', required: ['toString'] } };
    const unreg = plugin.bridge.registry.register(proto);
    r = await call(port, 'proto', { arguments: {} });
    unreg();
    assert.equal(r.status, 400);
    assert.deepEqual(r.json.details, { missing: ['toString'] });

    r = await request(port, { method: 'POST', path: '/bridge/v1/tools/echo/call', body: '{not json' });
    assert.equal(r.status, 400);
    assert.equal(r.json.error, 'INVALID_ARGUMENTS');

    console.error = () => {};
    r = await call(port, 'thrower', { arguments: {} });
    assert.equal(r.status, 500);
    assert.deepEqual(r.json, { error: 'EXECUTION_ERROR', message: 'Internal server error' });
  } finally {
    console.error = error;
    unregister.forEach((u) => u());
  }
});

test('401 without a token and with a wrong one', async () => {
  for (const token of [null, 'wrong', TOKEN + 'x', '']) {
    const r = await request(port, { token });
    assert.equal(r.status, 401, `token ${token}`);
    assert.equal(r.json.error, 'UNAUTHORIZED');
  }
  const basic = await request(port, { token: null, headers: { authorization: `Basic ${TOKEN}` } });
  assert.equal(basic.status, 401);
  const lower = await request(port, { token: null, headers: { authorization: `bearer ${TOKEN}` } });
  assert.equal(lower.status, 200);
});

test('403 for a foreign Host and for any Origin', async () => {
  for (const host of ['evil.example', `evil.example:${port}`, `127.0.0.1:${port + 1}`, `localhost`]) {
    const r = await request(port, { host });
    assert.equal(r.status, 403, host);
    assert.equal(r.json.error, 'FORBIDDEN');
  }
  for (const origin of ['https://evil.example', `http://127.0.0.1:${port}`, 'null', 'app://obsidian.md']) {
    const r = await request(port, { headers: { origin } });
    assert.equal(r.status, 403, origin);
    assert.equal(r.json.error, 'FORBIDDEN');
  }
  // Refused before the token is even looked at.
  const r = await request(port, { host: 'evil.example', token: null });
  assert.equal(r.status, 403);
});

test('unknown routes 404; wrong methods 405; every reply is JSON', async () => {
  for (const r of [
    await request(port, { path: '/bridge/v2/health' }),
    await request(port, { method: 'POST', path: '/bridge/v1/health', body: '{}' }),
    await request(port, { token: null }),
    await request(port, { host: 'evil.example' }),
  ]) {
    assert.match(r.headers['content-type'], /^application\/json/, `${r.status}`);
    assert.equal(typeof r.json.error, 'string', `${r.status}: ${r.text}`);
    assert.equal(typeof r.json.message, 'string', `${r.status}: ${r.text}`);
  }
  assert.equal((await request(port, { path: '/bridge/v2/health' })).status, 404);
  assert.equal((await request(port, { path: '/' })).status, 404);
  assert.equal((await request(port, { method: 'POST', path: '/bridge/v1/health', body: '{}' })).status, 405);
  assert.equal((await request(port, { path: '/bridge/v1/tools/echo/call' })).status, 405);
});

test('413 for a body over 1 MiB', async () => {
  plugin.bridge.registry.register(echo)();
  const unregister = plugin.bridge.registry.register(echo);
  try {
    const big = JSON.stringify({ arguments: { text: 'x'.repeat(1024 * 1024 + 10) } });
    const r = await request(port, { method: 'POST', path: '/bridge/v1/tools/echo/call', body: big });
    assert.equal(r.status, 413);
    assert.equal(r.json.error, 'PAYLOAD_TOO_LARGE');
    const ok = await call(port, 'echo', { arguments: { text: 'y'.repeat(512 * 1024) } });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.content[0].text.length, 512 * 1024);
  } finally {
    unregister();
  }
});

test('EADDRINUSE: a notice naming the port and the setting; no server', async () => {
  const blocker = net.createServer();
  await new Promise((r) => blocker.listen(0, '127.0.0.1', r));
  const busy = blocker.address().port;
  try {
    const Plugin = loadBundle();
    const p = new Plugin({ __data: { port: busy, token: TOKEN }, vault: { configDir: '.obsidian' }, workspace: {} }, manifest);
    const before = obsidian.notices.length;
    await p.onload();
    assert.equal(p.bridge, null);
    assert.equal(obsidian.notices.length, before + 1);
    assert.match(obsidian.notices.at(-1), new RegExp(`port ${busy} is already in use`));
    assert.match(obsidian.notices.at(-1), /"Port"/);
    p.onunload();
  } finally {
    await new Promise((r) => blocker.close(r));
  }
});

test('onunload closes the server and every open socket', async () => {
  const Plugin = loadBundle();
  const p = new Plugin({ __data: { port: 0, token: TOKEN }, vault: { configDir: '.obsidian' }, workspace: {} }, manifest);
  await p.onload();
  const bridge = p.bridge;
  const q = bridge.port;
  assert.equal((await request(q)).status, 200);
  // A keep-alive connection left open by a client.
  const idle = net.connect(q, '127.0.0.1');
  await new Promise((r) => idle.once('connect', r));
  const idleClosed = new Promise((r) => idle.once('close', r));
  p.onunload();
  assert.equal(p.bridge, null);
  await bridge.stop();
  await idleClosed;
  await assert.rejects(request(q), (e) => e.code === 'ECONNREFUSED');
});

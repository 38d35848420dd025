// Companion API v1 (seed 000 §3.1, §6) against the production bundle: the probe, every route of
// the table mapped to its bridge tool, the envelope, and the admission checks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as obsidian from './stubs/obsidian.mjs';
import { startPlugin, unloadPlugin, request, post, manifest, TOKEN } from './harness/plugin.mjs';

/** Seed 000 §3.1 routes plus the in-Obsidian extras: path, method, tool. */
const ROUTES = [
  ['/commands/list', 'GET', 'list_commands'],
  ['/commands/execute', 'POST', 'execute_command'],
  ['/dataview/dql', 'POST', 'search_dql'],
  ['/dataview/eval', 'POST', 'eval_dataview_field'],
  ['/dataview/validate', 'POST', 'validate_dql'],
  ['/tasks/filter', 'POST', 'tasks_filter'],
  ['/templater/list', 'GET', 'list_templates'],
  ['/templater/execute', 'POST', 'execute_template'],
  ['/quickadd/actions', 'GET', 'list_quickadd_actions'],
  ['/quickadd/trigger', 'POST', 'trigger_quickadd'],
  ['/ocr/attachment', 'POST', 'ocr_attachment'],
  ['/ocr/bulk', 'POST', 'ocr_bulk'],
  ['/excalidraw/read', 'POST', 'read_excalidraw'],
  ['/makemd/spaces', 'POST', 'makemd_list_spaces'],
  ['/makemd/query', 'POST', 'makemd_query'],
  ['/omnisearch/search', 'POST', 'search_omnisearch'],
  ['/remotely-save/status', 'GET', 'remotely_save_status'],
  ['/remotely-save/trigger', 'POST', 'remotely_save_trigger'],
  ['/datacore/query', 'POST', 'query_datacore'],
  ['/metadata-menu/fields', 'POST', 'read_metadata_fields'],
  ['/daily-notes/resolve', 'POST', 'resolve_daily_note'],
  ['/notes/active', 'GET', 'get_active_note'],
  ['/notes/open', 'POST', 'open_note'],
  ['/search', 'POST', 'search'],
];

const ok = (value) => ({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });

/** A tool that records its calls and answers `{tool, args}`. */
function recordingTool(name, calls, extra = {}) {
  return {
    name,
    description: `records ${name}`,
    inputSchema: { type: 'object' },
    run: async (args) => {
      calls.push({ name, args });
      return ok({ tool: name, args });
    },
    ...extra,
  };
}

let ctx;
before(async () => {
  ctx = await startPlugin({
    prepare(app) {
      app.addPlugin('dataview', { api: {} }, { name: 'Dataview', version: '0.5.70' });
      app.addPlugin('obsidian-tasks-plugin', {}, { name: 'Tasks', version: '8.3.0' });
      app.addPlugin('templater-obsidian', {}, { name: 'Templater', version: '2.25.0' });
      // Installed but disabled: a manifest, not enabled, no instance.
      app.plugins.manifests.omnisearch = { id: 'omnisearch', name: 'Omnisearch', version: '1.27.0' };
    },
  });
  // These tests check the routing and the envelope with recording tools in place of the
  // plugin's own (tested in tools.test.mjs).
  for (const [, , tool] of ROUTES) ctx.plugin.bridge.registry.unregister(tool);
  for (const tool of ['create_excalidraw', 'update_excalidraw']) ctx.plugin.bridge.registry.unregister(tool);
});
after(() => unloadPlugin(ctx.plugin));

test('probe: versions, vault name, capabilities from the plugin registry, shape self-check', async () => {
  const res = await request(ctx.port);
  assert.equal(res.status, 200);
  assert.equal(res.json.ok, true);
  const r = res.json.result;
  assert.equal(r.plugin_version, manifest.version);
  assert.equal(r.obsidian_version, obsidian.apiVersion);
  assert.equal(r.obsidianTcApiVersion, '1');
  assert.equal(r.vault_path, 'Test vault');
  assert.deepEqual(Object.keys(r.capabilities).sort(), [
    'datacore', 'dataview', 'excalidraw', 'make-md', 'metadata-menu', 'omnisearch', 'quickadd', 'remotely-save', 'tasks',
    'templater', 'text-extractor',
  ]);
  assert.deepEqual(r.capabilities.dataview, { installed: true, enabled: true, version: '0.5.70' });
  assert.deepEqual(r.capabilities.tasks, { installed: true, enabled: true, version: '8.3.0' });
  assert.deepEqual(r.capabilities.templater, { installed: true, enabled: true, version: '2.25.0' });
  assert.deepEqual(r.capabilities.omnisearch, { installed: true, enabled: false, version: '1.27.0' });
  assert.deepEqual(r.capabilities.quickadd, { installed: false });
  assert.deepEqual(r.capabilities.excalidraw, { installed: false });
  assert.equal(r.shape_ok, true);
  assert.deepEqual(r.shape_warnings, []);
});

test('probe: a missing Obsidian internal gives shape_ok false and names it', async () => {
  const broken = await startPlugin({
    prepare(app) {
      app.commands.executeCommandById = undefined;
      delete app.internalPlugins;
    },
  });
  try {
    const r = (await request(broken.port)).json.result;
    assert.equal(r.shape_ok, false);
    assert.equal(r.shape_warnings.length, 2, JSON.stringify(r.shape_warnings));
    assert.match(r.shape_warnings[0], /app\.commands\.executeCommandById/);
    assert.match(r.shape_warnings[1], /app\.internalPlugins\.getPluginById/);
  } finally {
    unloadPlugin(broken.plugin);
  }
});

test('every route runs its bridge tool with the body as arguments; result is the envelope', async () => {
  const calls = [];
  const names = [...new Set([...ROUTES.map((r) => r[2]), 'create_excalidraw', 'update_excalidraw'])];
  const unregister = names.map((n) => ctx.plugin.bridge.registry.register(recordingTool(n, calls)));
  try {
    for (const [path, method, tool] of ROUTES) {
      const args = { query: `q for ${tool}`, limit: 3 };
      const res = await post(ctx.port, path, args);
      assert.equal(res.status, 200, `${path}: ${res.text}`);
      assert.deepEqual(res.json, { ok: true, result: { tool, args } }, path);
      if (method === 'GET') {
        const got = await request(ctx.port, { path: `/obsidian-tc/v1${path}` });
        assert.deepEqual(got.json, { ok: true, result: { tool, args: {} } }, `GET ${path}`);
      } else {
        const got = await request(ctx.port, { path: `/obsidian-tc/v1${path}` });
        assert.equal(got.status, 405, `GET ${path}`);
        assert.equal(got.json.ok, false);
      }
    }
    // excalidraw/write: `mode` picks create (default) or update and is not passed on.
    assert.deepEqual((await post(ctx.port, '/excalidraw/write', { path: 'a.excalidraw.md' })).json.result,
      { tool: 'create_excalidraw', args: { path: 'a.excalidraw.md' } });
    assert.deepEqual((await post(ctx.port, '/excalidraw/write', { mode: 'update', path: 'a.excalidraw.md' })).json.result,
      { tool: 'update_excalidraw', args: { path: 'a.excalidraw.md' } });
    const bad = await post(ctx.port, '/excalidraw/write', { mode: 'delete' });
    assert.equal(bad.status, 400);
    assert.equal(bad.json.code, 'invalid_input');
    assert.match(bad.json.message, /create, update/);
    assert.equal(calls.filter((c) => /^(create|update)_excalidraw$/.test(c.name)).length, 2, 'a refused mode runs nothing');
  } finally {
    for (const u of unregister) u();
  }
});

test('a tool error becomes {ok:false, code, message, details}; a tool that throws is internal_error', async () => {
  const u1 = ctx.plugin.bridge.registry.register({
    name: 'search_dql', description: 'fails', inputSchema: { type: 'object' },
    run: () => ({
      content: [{ type: 'text', text: '{}' }],
      structuredContent: { code: 'plugin_missing', message: 'Dataview is not installed', details: { plugin: 'dataview' } },
      isError: true,
    }),
  });
  const u2 = ctx.plugin.bridge.registry.register({
    name: 'tasks_filter', description: 'throws', inputSchema: { type: 'object' },
    run: () => { throw new Error('boom'); },
  });
  const { error } = console;
  console.error = () => {};
  try {
    const res = await post(ctx.port, '/dataview/dql', { query: 'LIST' });
    assert.equal(res.status, 200);
    assert.deepEqual(res.json, { ok: false, code: 'plugin_missing', message: 'Dataview is not installed', details: { plugin: 'dataview' } });
    const thrown = await post(ctx.port, '/tasks/filter', {});
    assert.equal(thrown.status, 500);
    assert.equal(thrown.json.ok, false);
    assert.equal(thrown.json.code, 'internal_error');
  } finally {
    console.error = error;
    u1();
    u2();
  }
});

test('a route whose tool is not registered answers 404 plugin_missing naming the tool', async () => {
  const res = await post(ctx.port, '/quickadd/trigger', { choice: 'x' });
  assert.equal(res.status, 404);
  assert.equal(res.json.ok, false);
  assert.equal(res.json.code, 'plugin_missing');
  assert.deepEqual(res.json.details, { tool: 'trigger_quickadd' });
});

test('bad bodies are invalid_input and run nothing; missing required arguments are listed', async () => {
  const calls = [];
  const u = ctx.plugin.bridge.registry.register(
    recordingTool('open_note', calls, { inputSchema: { type: 'object', required: ['path'] } }),
  );
  try {
    for (const body of ['{not json', '[1,2]', '"text"']) {
      const res = await post(ctx.port, '/notes/open', body);
      assert.equal(res.status, 400, body);
      assert.equal(res.json.ok, false);
      assert.equal(res.json.code, 'invalid_input');
    }
    const missing = await post(ctx.port, '/notes/open', {});
    assert.equal(missing.status, 400);
    assert.deepEqual(missing.json.details, { missing: ['path'] });
    assert.equal(calls.length, 0);
  } finally {
    u();
  }
});

test('admission: token, Host and Origin checks answer in the envelope', async () => {
  const noToken = await request(ctx.port, { token: null });
  assert.equal(noToken.status, 401);
  assert.equal(noToken.json.ok, false);
  assert.equal(noToken.json.code, 'unauthorized');
  assert.equal((await request(ctx.port, { token: `${TOKEN}x` })).status, 401);
  const host = await request(ctx.port, { host: `evil.example:${ctx.port}` });
  assert.equal(host.status, 403);
  assert.equal(host.json.code, 'forbidden');
  const origin = await request(ctx.port, { headers: { origin: 'https://evil.example' } });
  assert.equal(origin.status, 403);
  assert.equal((await request(ctx.port, { host: `localhost:${ctx.port}` })).status, 200);
  const unknown = await request(ctx.port, { path: '/obsidian-tc/v1/nope' });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.json.code, 'not_found');
  // The seed-001 bridge API is unchanged next to it.
  assert.deepEqual(Object.keys((await request(ctx.port, { path: '/bridge/v1/health' })).json), ['status', 'version', 'protocolVersion']);
});

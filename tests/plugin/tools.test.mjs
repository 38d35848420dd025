// The in-Obsidian tools through the PRODUCTION main.js (loaded as Obsidian loads it, `obsidian`
// resolved to the stub) and the real bridge HTTP API on port 0, with the fake App over a temp
// copy of obsidian-help-en and the fake companion plugins of fakes/companions.mjs.
// "Getting started" is set to `none` in folderAccess throughout: its notes never show and
// asking for one is acl_denied. Approvals are answered by pressing the approval dialog's buttons.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, cpSync, rmSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import * as obsidian from './stubs/obsidian.mjs';
import { fakeApp } from './fakes/app.mjs';
import * as companions from './fakes/companions.mjs';
import { loadBundle, manifest, removeFolder, tempFolder, unloadPlugin } from './harness/plugin.mjs';

const root = new URL('../../', import.meta.url);

const TOKEN = 'tools-test-token-0123456789';
const DENIED = 'Getting started';
const tmp = tempFolder('tc-tools-');
after(() => removeFolder(tmp));

let copies = 0;
/** A plugin over a fresh vault copy with `settings`; `setup(app)` installs companions. */
async function start(settings = {}, setup = () => {}) {
  const vaultDir = join(tmp, `vault${++copies}`);
  cpSync(fileURLToPath(new URL('../shared/vaults/obsidian-help-en', root)), vaultDir, { recursive: true });
  const data = { port: 0, token: TOKEN, folderAccess: [{ folder: DENIED, preset: 'none' }], ...settings };
  const app = fakeApp({ vaultDir, data, name: 'help' });
  setup(app);
  const Plugin = loadBundle();
  const plugin = new Plugin(app, manifest);
  await plugin.onload();
  assert.ok(plugin.bridge, 'bridge not started');
  const port = plugin.bridge.port;
  const call = (name, args = {}) => post(port, name, args);
  // Unloaded as Obsidian unloads it: the search index saved, then the copy removed (a save left
  // pending would write into it again after the test).
  const stop = async () => {
    const b = plugin.bridge;
    const unloaded = unloadPlugin(plugin);
    await b.stop();
    await unloaded;
    rmSync(vaultDir, { recursive: true, force: true });
  };
  return { app, vaultDir, call, stop };
}

function post(port, name, args) {
  const body = JSON.stringify({ arguments: args });
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: '127.0.0.1', port, method: 'POST', path: `/bridge/v1/tools/${name}/call`, agent: false,
      headers: { host: `127.0.0.1:${port}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const json = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        assert.equal(res.statusCode, 200, `${name}: HTTP ${res.statusCode} ${JSON.stringify(json)}`);
        resolve({ ok: json.success, isError: json.isError === true, value: JSON.parse(json.content[0].text) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Waits for the next approval dialog, presses `button` in it, then returns `call`'s answer. */
async function human(button, call) {
  const before = obsidian.openedModals.length;
  const t0 = Date.now();
  while (obsidian.openedModals.length === before) {
    if (Date.now() - t0 > 5000) throw new Error('no approval dialog opened');
    await new Promise((r) => setTimeout(r, 5));
  }
  await obsidian.openedModals.at(-1).press(button);
  return call;
}

const ok = (r) => { assert.equal(r.ok, true, JSON.stringify(r.value)); return r.value; };
const err = (r, code) => { assert.equal(r.isError, true, JSON.stringify(r.value)); assert.equal(r.value.code, code, JSON.stringify(r.value)); return r.value; };

// Which companion each tool needs, and arguments that would otherwise succeed.
const COMPANION_TOOLS = [
  ['dataview', [['search_dql', { query: 'LIST FROM "Plugins"' }], ['validate_dql', { query: 'LIST FROM "Plugins"' }], ['eval_dataview_field', { path: 'Home.md', expression: 'file.name' }]]],
  ['obsidian-tasks-plugin', [['tasks_filter', {}]]],
  ['templater-obsidian', [['list_templates', {}], ['execute_template', { template: 'Home.md', target: 'New.md' }]]],
  ['quickadd', [['list_quickadd_actions', {}], ['trigger_quickadd', { name: 'Log' }]]],
  ['text-extractor', [['ocr_attachment', { path: 'Attachments/Engelbart.jpg' }], ['ocr_bulk', {}]]],
  ['obsidian-excalidraw-plugin', [['read_excalidraw', { path: 'x.excalidraw.md' }], ['create_excalidraw', { path: 'x.excalidraw.md' }], ['update_excalidraw', { path: 'x.excalidraw.md' }]]],
  ['make-md', [['makemd_list_spaces', {}], ['makemd_query', { space: 'Plugins' }]]],
  ['omnisearch', [['search_omnisearch', { query: 'vault' }]]],
  ['remotely-save', [['remotely_save_status', {}], ['remotely_save_trigger', {}]]],
  ['datacore', [['query_datacore', { query: '@page' }]]],
  ['metadata-menu', [['read_metadata_fields', { path: 'Home.md' }]]],
  ['daily-notes', [['resolve_daily_note', {}]]],
  ['workspaces', [['open_workspace', { name: 'Writing' }]]],
];

test('every companion tool answers plugin_missing naming the manifest id when the plugin is absent or disabled', async () => {
  const s = await start({ allowWrites: true });
  try {
    for (const [id, tools] of COMPANION_TOOLS) {
      for (const [name, args] of tools) {
        const e = err(await s.call(name, args), 'plugin_missing');
        assert.equal(e.details.plugin, id, name);
      }
    }
    // Installed but disabled counts as missing.
    companions.addDataview(s.app);
    s.app.plugins.enabledPlugins.delete('dataview');
    assert.equal(err(await s.call('search_dql', { query: 'LIST FROM "Plugins"' }), 'plugin_missing').details.plugin, 'dataview');
  } finally {
    await s.stop();
  }
});

test('get_active_note and open_note: happy path, ACL, not found', async () => {
  const s = await start();
  try {
    assert.deepEqual(ok(await s.call('get_active_note')), { note: null });
    const opened = ok(await s.call('open_note', { path: 'Home' }));
    assert.deepEqual(opened, { path: 'Home.md', opened: true });
    assert.deepEqual(s.app.workspace.opened, ['Home.md']);
    const active = ok(await s.call('get_active_note')).note;
    assert.equal(active.path, 'Home.md');
    assert.equal(active.content, readFileSync(join(s.vaultDir, 'Home.md'), 'utf8'));
    assert.equal(ok(await s.call('get_active_note', { include_content: false })).note.content, undefined);

    err(await s.call('open_note', { path: `${DENIED}/Create a vault.md` }), 'acl_denied');
    assert.deepEqual(s.app.workspace.opened, ['Home.md'], 'a denied note is never opened');
    // The human focusing a denied note does not let the agent read it.
    s.app.workspace.setActiveFile(s.app.vault.getAbstractFileByPath(`${DENIED}/Create a vault.md`));
    err(await s.call('get_active_note'), 'acl_denied');
    err(await s.call('open_note', { path: 'No such note.md' }), 'not_found');
  } finally {
    await s.stop();
  }
});

test('open_workspace: loads a saved layout through the core Workspaces plugin; unknown names change nothing', async () => {
  const s = await start({}, (app) => companions.addWorkspaces(app, ['Writing', 'Review']));
  try {
    const workspaces = s.app.internalPlugins.plugins.workspaces.instance;
    assert.deepEqual(ok(await s.call('open_workspace', { name: 'Review' })), { name: 'Review', opened: true, active: 'Review' });
    assert.deepEqual(workspaces.loaded, ['Review'], 'the layout was loaded exactly once');
    const unknown = err(await s.call('open_workspace', { name: 'Gone' }), 'not_found');
    assert.deepEqual(unknown.details.saved, ['Review', 'Writing']);
    err(await s.call('open_workspace', { name: '' }), 'invalid_input');
    assert.deepEqual(workspaces.loaded, ['Review'], 'a refused call loads nothing');
    s.app.internalPlugins.plugins.workspaces.enabled = false;
    const missing = err(await s.call('open_workspace', { name: 'Writing' }), 'plugin_missing');
    assert.match(missing.message, /Core plugins/);
  } finally {
    await s.stop();
  }
});

test('list_commands and execute_command: disabled, not allowlisted, approval denied, nonexistent', async () => {
  const addCommands = (app) => {
    app.ran = [];
    for (const [id, name] of [['editor:toggle-bold', 'Toggle bold'], ['app:reload', 'Reload app without saving']]) {
      app.commands.commands[id] = { id, name, callback: () => app.ran.push(id) };
    }
  };
  let s = await start({}, addCommands);
  try {
    const listed = ok(await s.call('list_commands', { query: 'BOLD' }));
    assert.deepEqual(listed, { items: [{ id: 'editor:toggle-bold', name: 'Toggle bold', allowed: false }], total_count: 1 });
    assert.equal(ok(await s.call('list_commands')).total_count, 2);
    err(await s.call('execute_command', { id: 'editor:toggle-bold' }), 'commands_disabled');
  } finally {
    await s.stop();
  }
  s = await start({ allowCommands: true, commandAllowlist: ['editor:toggle-bold', 'gone:command'] }, addCommands);
  try {
    assert.equal(ok(await s.call('list_commands', { query: 'bold' })).items[0].allowed, true);
    err(await s.call('execute_command', { id: 'app:reload' }), 'command_not_allowed');
    err(await s.call('execute_command', { id: 'gone:command' }), 'not_found');
    err(await human('Deny', s.call('execute_command', { id: 'editor:toggle-bold' })), 'approval_denied');
    assert.deepEqual(s.app.commands.executed, [], 'nothing ran');
    assert.deepEqual(s.app.ran, []);
    ok(await human('Approve', s.call('execute_command', { id: 'editor:toggle-bold' })));
    assert.deepEqual(s.app.ran, ['editor:toggle-bold'], 'an approved command runs exactly once');
  } finally {
    await s.stop();
  }
});

test('resolve_daily_note: folder, format and template from the core plugin; ACL on the folder', async () => {
  const s = await start({}, (app) => companions.addDailyNotes(app, { folder: 'Journal', format: 'YYYY/MM-DD', template: 'Templates/Daily' }));
  try {
    const r = ok(await s.call('resolve_daily_note', { date: '2026-03-04' }));
    assert.deepEqual(r, { date: '2026-03-04', path: 'Journal/2026/03-04.md', exists: false, folder: 'Journal', format: 'YYYY/MM-DD', template: 'Templates/Daily.md' });
    const today = ok(await s.call('resolve_daily_note')).date;
    assert.match(today, /^\d{4}-\d{2}-\d{2}$/);
    err(await s.call('resolve_daily_note', { date: '04/03/2026' }), 'invalid_input');
    s.app.internalPlugins.plugins['daily-notes'].instance.options = { folder: DENIED, format: '' };
    err(await s.call('resolve_daily_note', { date: '2026-03-04' }), 'acl_denied');
    s.app.internalPlugins.plugins['daily-notes'].instance.options = { folder: 'Plugins', format: '[Daily notes]' };
    assert.deepEqual(ok(await s.call('resolve_daily_note')).exists, true, 'Plugins/Daily notes.md exists in the help vault');
  } finally {
    await s.stop();
  }
});

test('Dataview: DQL results as plain JSON, denied rows dropped, parse errors, field evaluation', async () => {
  const s = await start({}, (app) => companions.addDataview(app));
  try {
    const list = ok(await s.call('search_dql', { query: 'LIST FROM "Plugins"' }));
    assert.equal(list.type, 'list');
    assert.ok(list.values.length > 5);
    assert.deepEqual(list.values[0], { type: 'link', path: list.values[0].path, embed: false });
    const table = ok(await s.call('search_dql', { query: 'TABLE file.mtime FROM "Plugins"' }));
    assert.deepEqual(table.headers, ['File', 'file.mtime']);
    assert.match(table.values[0][1], /^\d{4}-\d{2}-\d{2}T/, 'Luxon DateTime → ISO string');
    assert.deepEqual(ok(await s.call('search_dql', { query: `LIST FROM "${DENIED}"` })).values, [], 'denied notes never show');
    err(await s.call('search_dql', { query: 'LIST FROM "Plugins"', origin: `${DENIED}/Create a vault.md` }), 'acl_denied');
    err(await s.call('search_dql', { query: 'dv.pages()' }), 'invalid_input');
    const bad = err(await s.call('search_dql', { query: 'LIST WHERE' }), 'dql_error');
    assert.match(bad.message, /PARSING FAILED/);

    assert.deepEqual(ok(await s.call('validate_dql', { query: 'TABLE file.mtime FROM "Plugins"' })), { valid: true, type: 'table' });
    const invalid = ok(await s.call('validate_dql', { query: 'LIST WHERE' }));
    assert.equal(invalid.valid, false);
    assert.match(invalid.error, /PARSING FAILED/);

    assert.deepEqual(ok(await s.call('eval_dataview_field', { path: 'Home', expression: 'file.name' })), { path: 'Home.md', expression: 'file.name', value: 'Home' });
    assert.deepEqual(ok(await s.call('eval_dataview_field', { path: 'Home.md', expression: 'file.outlinks' })).value, [], 'DataArray → array');
    err(await s.call('eval_dataview_field', { path: `${DENIED}/Create a vault.md`, expression: 'file.name' }), 'acl_denied');
    err(await s.call('eval_dataview_field', { path: 'Home.md', expression: `link("${DENIED}/Create a vault.md")` }), 'acl_denied');
    err(await s.call('eval_dataview_field', { path: 'Home.md', expression: '1 +' }), 'dql_error');
  } finally {
    await s.stop();
  }
});

test('tasks_filter over the tasks Tasks parsed: status, dates, tags, priority, ACL', async () => {
  const s = await start({}, (app) => companions.addTasks(app, [
    { path: 'Home.md', description: 'Write the report', due: '2026-01-10', tags: ['#work/q1'], priority: '1', line: 3 },
    { path: 'Home.md', description: 'Buy milk', status: 'DONE', line: 4 },
    { path: 'Plugins/Canvas.md', description: 'Draw a canvas', due: '2026-02-01' },
    { path: `${DENIED}/Create a vault.md`, description: 'Secret task', due: '2026-01-05' },
  ]));
  try {
    const open = ok(await s.call('tasks_filter'));
    assert.deepEqual(open.items.map((t) => t.description), ['Write the report', 'Draw a canvas']);
    assert.deepEqual(open.items[0], { path: 'Home.md', line: 3, status: 'todo', description: 'Write the report', priority: 'high', tags: ['#work/q1'], due: '2026-01-10', scheduled: null, start: null, done: null });
    assert.deepEqual(ok(await s.call('tasks_filter', { status: 'done' })).items.map((t) => t.description), ['Buy milk']);
    assert.deepEqual(ok(await s.call('tasks_filter', { due_before: '2026-01-31' })).items.map((t) => t.description), ['Write the report']);
    assert.deepEqual(ok(await s.call('tasks_filter', { tag: 'work' })).items.map((t) => t.description), ['Write the report']);
    assert.deepEqual(ok(await s.call('tasks_filter', { status: 'any', has_due_date: false })).items.map((t) => t.description), ['Buy milk']);
    assert.equal(ok(await s.call('tasks_filter', { status: 'any', description_includes: 'secret' })).total_count, 0, 'denied tasks never show');
    err(await s.call('tasks_filter', { due_before: 'next week' }), 'invalid_input');
  } finally {
    await s.stop();
  }
});

test('Templater: listing, execute refused while writes are off, approval denied', async () => {
  let s = await start({}, (app) => companions.addTemplater(app, 'Plugins'));
  try {
    const listed = ok(await s.call('list_templates'));
    assert.equal(listed.folder, 'Plugins');
    assert.ok(listed.items.some((t) => t.path === 'Plugins/Daily notes.md'));
    err(await s.call('execute_template', { template: 'Plugins/Daily notes.md', target: 'Out/New' }), 'writes_disabled');
  } finally {
    await s.stop();
  }
  s = await start({ allowWrites: true }, (app) => companions.addTemplater(app, 'Plugins'));
  try {
    err(await s.call('execute_template', { template: `${DENIED}/Create a vault.md`, target: 'Out/New' }), 'acl_denied');
    err(await s.call('execute_template', { template: 'Plugins/Daily notes.md', target: `${DENIED}/New` }), 'acl_denied');
    err(await s.call('execute_template', { template: 'Plugins/Daily notes.md', target: 'Home' }), 'note_exists');
    err(await human('Deny', s.call('execute_template', { template: 'Plugins/Daily notes.md', target: 'Out/New' })), 'approval_denied');
    assert.deepEqual(s.app.plugins.plugins['templater-obsidian'].created, []);
    assert.equal(existsSync(join(s.vaultDir, 'Out/New.md')), false);
    ok(await human('Approve', s.call('execute_template', { template: 'Plugins/Daily notes.md', target: 'Out/New' })));
    assert.equal(s.app.plugins.plugins['templater-obsidian'].created.length, 1, 'an approved template runs once');
  } finally {
    await s.stop();
  }
});

test('QuickAdd: choices flattened; trigger refused while writes are off, unknown, approval denied', async () => {
  const choices = [
    { id: '1', name: 'Log', type: 'Capture' },
    { id: '2', name: 'Folder', type: 'Multi', choices: [{ id: '3', name: 'Meeting', type: 'Template' }] },
  ];
  let s = await start({}, (app) => companions.addQuickAdd(app, choices));
  try {
    assert.deepEqual(ok(await s.call('list_quickadd_actions')).items, [
      { id: '1', name: 'Log', type: 'Capture', group: [] },
      { id: '3', name: 'Meeting', type: 'Template', group: ['Folder'] },
    ]);
    err(await s.call('trigger_quickadd', { name: 'Log' }), 'writes_disabled');
  } finally {
    await s.stop();
  }
  s = await start({ allowWrites: true }, (app) => companions.addQuickAdd(app, choices));
  try {
    err(await s.call('trigger_quickadd', { name: 'Nope' }), 'not_found');
    err(await human('Deny', s.call('trigger_quickadd', { name: 'Meeting', variables: { x: 1 } })), 'approval_denied');
    assert.deepEqual(s.app.plugins.plugins.quickadd.executed, []);
    ok(await human('Approve', s.call('trigger_quickadd', { name: 'Meeting', variables: { x: 1 } })));
    assert.equal(s.app.plugins.plugins.quickadd.executed.length, 1, 'an approved choice runs once');
  } finally {
    await s.stop();
  }
});

test('Text Extractor: one file, a folder batch, ACL', async () => {
  const s = await start({}, (app) => companions.addTextExtractor(app));
  try {
    assert.deepEqual(ok(await s.call('ocr_attachment', { path: 'Attachments/Engelbart.jpg' })), { path: 'Attachments/Engelbart.jpg', text: 'text of Engelbart', cached: false });
    assert.equal(ok(await s.call('ocr_attachment', { path: 'Attachments/Engelbart.jpg' })).cached, true);
    err(await s.call('ocr_attachment', { path: 'Home.md' }), 'invalid_input');
    const bulk = ok(await s.call('ocr_bulk', { folder: 'Attachments', limit: 5 }));
    assert.equal(bulk.items.length, 5);
    assert.ok(bulk.total_count > 5);
    assert.ok(bulk.items.every((i) => i.text.startsWith('text of ')));
    err(await human('Deny', s.call('ocr_bulk', { limit: 21, folder: 'Attachments' })), 'approval_denied');
    const all = ok(await s.call('ocr_bulk', { limit: 20 }));
    assert.ok(all.items.every((i) => !i.path.startsWith(`${DENIED}/`)));
  } finally {
    await s.stop();
  }
});

test('Text Extractor: a denied attachment is acl_denied', async () => {
  const s = await start({ folderAccess: [{ folder: 'Attachments', preset: 'none' }] }, (app) => companions.addTextExtractor(app));
  try {
    err(await s.call('ocr_attachment', { path: 'Attachments/Engelbart.jpg' }), 'acl_denied');
    err(await s.call('ocr_bulk', { paths: ['Attachments/Engelbart.jpg'] }), 'acl_denied');
    assert.deepEqual(ok(await s.call('ocr_bulk', { folder: 'Attachments' })).items, []);
  } finally {
    await s.stop();
  }
});

test('Excalidraw: read a drawing; create and update refused while writes are off or unapproved', async () => {
  const drawing = (app) => {
    companions.addExcalidraw(app);
    return app;
  };
  let s = await start({ allowWrites: false }, drawing);
  try {
    // Writes off: nothing can be created, so seed a drawing through the fake vault itself.
    const elements = [{ id: 'a', type: 'text', text: 'Hello' }, { id: 'b', type: 'rectangle' }];
    await s.app.vault.create('Drawings/Plan.excalidraw.md', `%%\n# Drawing\n\`\`\`json\n${JSON.stringify({ elements })}\n\`\`\`\n%%\n`);
    const read = ok(await s.call('read_excalidraw', { path: 'Drawings/Plan.excalidraw.md' }));
    assert.deepEqual(read.texts, ['Hello']);
    assert.deepEqual(read.elements.map((e) => e.id), ['a', 'b']);
    err(await s.call('read_excalidraw', { path: 'Home.md' }), 'invalid_input');
    err(await s.call('create_excalidraw', { path: 'Drawings/New' }), 'writes_disabled');
    err(await s.call('update_excalidraw', { path: 'Drawings/Plan.excalidraw.md', remove: ['a'] }), 'writes_disabled');
    assert.equal(s.app.plugins.plugins['obsidian-excalidraw-plugin'].eaInstances.length, 0, 'every EA instance destroyed');
  } finally {
    await s.stop();
  }
  s = await start({ allowWrites: true }, drawing);
  try {
    await s.app.vault.create(`${DENIED}/Secret.excalidraw.md`, '%%\n# Drawing\n```json\n{"elements":[]}\n```\n%%\n');
    err(await s.call('read_excalidraw', { path: `${DENIED}/Secret.excalidraw.md` }), 'acl_denied');
    err(await s.call('create_excalidraw', { path: `${DENIED}/New` }), 'acl_denied');
    err(await s.call('create_excalidraw', { path: 'Drawings/New', elements: [{ type: 'arrow' }] }), 'invalid_input');
    err(await human('Deny', s.call('create_excalidraw', { path: 'Drawings/New', elements: [{ type: 'text', text: 'Hi' }] })), 'approval_denied');
    assert.equal(existsSync(join(s.vaultDir, 'Drawings/New.excalidraw.md')), false);
    ok(await human('Approve', s.call('create_excalidraw', { path: 'Drawings/New', elements: [{ type: 'text', text: 'Hi' }] })));
    assert.equal(existsSync(join(s.vaultDir, 'Drawings/New.excalidraw.md')), true, 'an approved drawing is created');
  } finally {
    await s.stop();
  }
});

test('make.md: spaces and a space query, denied folder spaces and rows dropped', async () => {
  const s = await start({}, (app) => companions.addMakeMd(app, [
    { name: 'Plugins', path: 'Plugins', type: 'folder' },
    { name: DENIED, path: DENIED, type: 'folder' },
    { name: '#work', path: 'spaces://#work', type: 'tag' },
  ]));
  try {
    assert.deepEqual(ok(await s.call('makemd_list_spaces')).items.map((x) => x.path), ['Plugins', 'spaces://#work']);
    const rows = ok(await s.call('makemd_query', { space: 'Plugins' }));
    assert.ok(rows.items.some((r) => r.File === 'Plugins/Canvas.md'));
    err(await s.call('makemd_query', { space: DENIED }), 'acl_denied');
    err(await s.call('makemd_query', { space: 'Nope' }), 'not_found');
  } finally {
    await s.stop();
  }
});

test('make.md without superstate.spacesIndex is plugin_incompatible', async () => {
  const s = await start({}, (app) => app.addPlugin('make-md', {}, { version: '0.9.0' }));
  try {
    assert.equal(err(await s.call('makemd_list_spaces'), 'plugin_incompatible').details.plugin, 'make-md');
  } finally {
    await s.stop();
  }
});

test('search_omnisearch: ranked results without denied notes', async () => {
  const s = await start({}, (app) => companions.addOmnisearch(app));
  try {
    const r = ok(await s.call('search_omnisearch', { query: 'vault' }));
    assert.ok(r.items.length > 0);
    assert.ok(r.items.every((i) => !i.path.startsWith(`${DENIED}/`)), 'denied notes never show');
    assert.ok(existsSync(join(s.vaultDir, DENIED, 'Create a vault.md')), 'a denied match exists in the vault');
    assert.equal(ok(await s.call('search_omnisearch', { query: 'vault', limit: 1 })).items.length, 1);
  } finally {
    await s.stop();
  }
});

/** Polls `remotely_save_status` until its last success is at or after `since` (or fails after 5 s). */
async function syncedSince(s, since) {
  const t0 = Date.now();
  for (;;) {
    const status = ok(await s.call('remotely_save_status'));
    if (status.last_success_sync !== null && status.last_success_sync >= since) return status;
    if (Date.now() - t0 > 5000) throw new Error(`no sync since ${since}: ${JSON.stringify(status)}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

test('remotely_save_status and remotely_save_trigger: fire, then poll until the sync succeeded (Remotely Save 0.5)', async () => {
  let plugin;
  const s = await start({ allowWrites: true }, (app) => { plugin = companions.addRemotelySave(app); });
  try {
    assert.deepEqual(ok(await s.call('remotely_save_status')), { sync_status: 'idle', last_success_sync: null });
    const before = Date.now();
    const fired = ok(await s.call('remotely_save_trigger'));
    assert.deepEqual(Object.keys(fired).sort(), ['fired_at', 'triggered']);
    assert.equal(fired.triggered, true);
    assert.ok(fired.fired_at >= before && fired.fired_at <= Date.now(), JSON.stringify(fired));
    assert.deepEqual(s.app.commands.executed, ['remotely-save:start-sync']);
    assert.equal(plugin.runs, 1, 'one sync run per trigger');
    assert.deepEqual(ok(await s.call('remotely_save_status')), { sync_status: 'syncing', last_success_sync: null }, 'it returned while the sync runs');
    plugin.finishSync();
    const done = await syncedSince(s, fired.fired_at);
    assert.equal(done.sync_status, 'idle');
  } finally {
    await s.stop();
  }
});

test('remotely_save_status reads Remotely Save 0.3 (syncStatus, settings.lastSuccessSync) and says unknown for a shape it does not know', async () => {
  const s = await start({}, (app) => companions.addRemotelySave(app, { generation: '0.3', lastSuccess: 1_700_000_000_000 }));
  try {
    assert.deepEqual(ok(await s.call('remotely_save_status')), { sync_status: 'idle', last_success_sync: 1_700_000_000_000 });
  } finally {
    await s.stop();
  }
  const other = await start({}, (app) => app.addPlugin('remotely-save', { settings: {} }, { name: 'Remotely Save', version: '9.0.0' }));
  try {
    assert.deepEqual(ok(await other.call('remotely_save_status')), { sync_status: 'unknown', last_success_sync: null });
  } finally {
    await other.stop();
  }
});

test('remotely_save_trigger: writes off is writes_disabled and starts nothing; no start-sync command is plugin_incompatible', async () => {
  let plugin;
  const s = await start({}, (app) => { plugin = companions.addRemotelySave(app); });
  try {
    err(await s.call('remotely_save_trigger'), 'writes_disabled');
    assert.deepEqual(s.app.commands.executed, []);
    assert.equal(plugin.runs, 0);
  } finally {
    await s.stop();
  }
  const old = await start({ allowWrites: true }, (app) => app.addPlugin('remotely-save', {}, { name: 'Remotely Save', version: '0.1.0' }));
  try {
    assert.equal(err(await old.call('remotely_save_trigger'), 'plugin_incompatible').details.plugin, 'remotely-save');
  } finally {
    await old.stop();
  }
});

/** Datacore's index for the tests: pages (one denied, one linking to a denied note), a section, and an object of no note. */
function datacoreRows() {
  const page = (path, tags, frontmatter = {}) => ({
    $types: ['file', 'markdown', 'page', 'taggable'],
    $typename: 'Page',
    $path: path,
    get $file() { return this.$path; },
    get $name() { return this.$path.split('/').pop().replace(/\.md$/, ''); },
    $tags: tags,
    $frontmatter: Object.fromEntries(Object.entries(frontmatter).map(([key, value]) => [key.toLowerCase(), { key, value, raw: String(value) }])),
  });
  return [
    page('Home.md', ['#start'], { Status: 'draft', Due: companions.datacoreDate('2026-05-01T00:00:00.000Z'), Related: [new companions.DatacoreLink('Plugins/Canvas.md')], Count: 3 }),
    page(`${DENIED}/Create a vault.md`, ['#start'], { Status: 'secret' }),
    page('Plugins/Canvas.md', ['#start'], { Source: new companions.DatacoreLink(`${DENIED}/Glossary.md`) }),
    page('Plugins/Backlinks.md', ['#plugin']),
    { $types: ['section', 'taggable'], $typename: 'Section', $file: 'Plugins/Backlinks.md', $name: 'Usage', $tags: ['#plugin'] },
    { $types: ['page', 'taggable'], $typename: 'Page', $id: 'virtual', $tags: ['#start'] },
  ];
}

test('query_datacore: rows as plain JSON, without notes you may not read, limit and total', async () => {
  const s = await start({}, (app) => companions.addDatacore(app, datacoreRows()));
  try {
    const r = ok(await s.call('query_datacore', { query: '@page and #start' }));
    assert.deepEqual(r, {
      items: [{
        path: 'Home.md',
        name: 'Home',
        tags: ['#start'],
        types: ['file', 'markdown', 'page', 'taggable'],
        fields: {
          Status: 'draft',
          Due: '2026-05-01T00:00:00.000Z',
          Related: [{ type: 'link', path: 'Plugins/Canvas.md', embed: false }],
          Count: 3,
        },
      }],
      total: 1,
      query: '@page and #start',
    }, 'the denied page, the page linking to a denied note and the row of no note are left out');
    const sections = ok(await s.call('query_datacore', { query: '@section' }));
    assert.deepEqual(sections.items, [{ path: 'Plugins/Backlinks.md', name: 'Usage', tags: ['#plugin'], types: ['section', 'taggable'], fields: {} }]);
    const pages = ok(await s.call('query_datacore', { query: '@page', limit: 1 }));
    assert.equal(pages.items.length, 1);
    assert.equal(pages.total, 2, 'Home.md and Plugins/Backlinks.md');
    assert.ok(!JSON.stringify(pages).includes(DENIED));
  } finally {
    await s.stop();
  }
});

test('query_datacore: a row of no note shows only when every note is readable', async () => {
  const s = await start({ folderAccess: [] }, (app) => companions.addDatacore(app, datacoreRows()));
  try {
    const r = ok(await s.call('query_datacore', { query: '@page and #start' }));
    assert.deepEqual(r.items.map((i) => i.path), ['Home.md', `${DENIED}/Create a vault.md`, 'Plugins/Canvas.md', null]);
    assert.equal(r.total, 4);
  } finally {
    await s.stop();
  }
});

test('query_datacore: a bad query is dql_error, a limit over 500 invalid_input, an index still loading plugin_not_ready', async () => {
  let plugin;
  const s = await start({}, (app) => { plugin = companions.addDatacore(app, datacoreRows()); });
  try {
    const e = err(await s.call('query_datacore', { query: 'pages where' }), 'dql_error');
    assert.match(e.message, /PARSING FAILED/);
    assert.equal(e.details.query, 'pages where');
    assert.deepEqual(plugin.api.queries, [], 'a query that does not parse never runs');
    err(await s.call('query_datacore', { query: '@page', limit: 501 }), 'invalid_input');
    err(await s.call('query_datacore', { query: '' }), 'invalid_input');
    plugin.api.core.initialized = false;
    err(await s.call('query_datacore', { query: '@page' }), 'plugin_not_ready');
  } finally {
    await s.stop();
  }
});

test("read_metadata_fields: Metadata Menu's typed fields of a readable note; denied, missing and non-Markdown paths", async () => {
  let plugin;
  const fields = {
    'Home.md': {
      status: { id: 'f1', name: 'status', type: 'Select', value: 'draft', indexedPath: 'f1', sourceType: 'fileClass', fileClassName: 'doc', isValid: true, options: {}, ignoredInMenu: false },
      'owner.name': { id: 'f2', name: 'name', type: 'Input', value: 'Ann', indexedPath: 'f0____f2', sourceType: 'settings', fileClassName: undefined, isValid: false, options: {}, ignoredInMenu: false },
    },
    [`${DENIED}/Glossary.md`]: { secret: { name: 'secret', type: 'Input', value: 'x', sourceType: 'settings', isValid: true } },
  };
  const s = await start({}, (app) => { plugin = companions.addMetadataMenu(app, fields); });
  try {
    assert.deepEqual(ok(await s.call('read_metadata_fields', { path: 'Home' })), {
      path: 'Home.md',
      fields: {
        status: { value: 'draft', type: 'Select', is_valid: true, source_type: 'fileClass', file_class: 'doc' },
        'owner.name': { value: 'Ann', type: 'Input', is_valid: false, source_type: 'settings', file_class: null },
      },
      total: 2,
    });
    assert.deepEqual(ok(await s.call('read_metadata_fields', { path: 'Plugins/Canvas.md' })), { path: 'Plugins/Canvas.md', fields: {}, total: 0 });
    err(await s.call('read_metadata_fields', { path: `${DENIED}/Glossary.md` }), 'acl_denied');
    err(await s.call('read_metadata_fields', { path: 'No such note.md' }), 'not_found');
    err(await s.call('read_metadata_fields', { path: 'Attachments/Engelbart.jpg' }), 'invalid_input');
    assert.deepEqual(plugin.asked, ['Home.md', 'Plugins/Canvas.md'], 'Metadata Menu was asked about readable notes only');
  } finally {
    await s.stop();
  }
});

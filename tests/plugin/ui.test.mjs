// The settings tab (ports and tokens, the native server's state and progress, client config
// blocks, agent permissions) and the status bar, against the production bundle.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { isAbsolute } from 'node:path';
import { notices } from './stubs/obsidian.mjs';
import { fakeApp } from './fakes/app.mjs';
import { fakeNative, fakeNativeLog } from './fakes/native-server.mjs';
import { freePort, startPlugin, unloadPlugin, loadBundle, tempVault, manifest, request, post, waitFor, TOKEN } from './harness/plugin.mjs';

let ctx;
let clipboard = [];
before(async () => {
  Object.defineProperty(globalThis, 'navigator', {
    value: { clipboard: { writeText: async (text) => { clipboard.push(text); } } },
    configurable: true,
    writable: true,
  });
  ctx = await startPlugin();
});
after(() => unloadPlugin(ctx.plugin));

/** The settings tab, displayed; `setting(name)` finds a row by its name. */
function tab() {
  const t = ctx.plugin.settingTabs[0];
  t.display();
  const rows = t.containerEl.children;
  return { rows, setting: (name) => rows.find((s) => s.name === name) ?? assert.fail(`no setting '${name}'`) };
}

const button = (setting, text) => setting.components.find((c) => c.text === text) ?? assert.fail(`no button ${text}`);

test('the tab has every setting', () => {
  assert.deepEqual(tab().rows.map((s) => s.name), [
    'Port', 'Token',
    'Native server', 'Native server binary', 'Server port', 'Server URL', 'Server token', 'Server state', 'Index and embeddings',
    'Reindex now', 'Search index in this app',
    'Agent permissions', 'Allow writes', 'Allow commands', 'Command allowlist', 'Folder access', 'Other folders',
    'Approval timeout',
    'Clients', 'Claude Desktop', 'Claude Code', 'Codex', 'Cursor', 'VS Code', 'Gemini CLI',
  ]);
});

test('server URL and token: the token is masked, shown on request, copied and regenerated', async () => {
  const { setting } = tab();
  const mcpToken = ctx.plugin.settings.mcpToken;
  assert.match(mcpToken, /^[0-9a-f]{64}$/);
  assert.notEqual(mcpToken, ctx.plugin.settings.token);
  assert.equal(ctx.app.__data.mcpToken, mcpToken, 'saved with the settings');
  assert.equal(ctx.app.__data.mcpPort, 27191);
  const url = setting('Server URL');
  assert.equal(url.desc, 'http://127.0.0.1:27191/mcp');
  await button(url, 'Copy').click();
  assert.equal(clipboard.at(-1), 'http://127.0.0.1:27191/mcp');

  const row = setting('Server token');
  const field = row.components[0];
  assert.equal(field.value, '•'.repeat(24), 'masked');
  assert.ok(!JSON.stringify(row).includes(mcpToken), 'the token shows nowhere until asked');
  await button(row, 'Show').click();
  assert.equal(field.value, mcpToken);
  await button(row, 'Hide').click();
  assert.equal(field.value, '•'.repeat(24));
  await button(row, 'Copy').click();
  assert.equal(clipboard.at(-1), mcpToken);
  await button(row, 'Regenerate').click();
  const fresh = ctx.plugin.settings.mcpToken;
  assert.match(fresh, /^[0-9a-f]{64}$/);
  assert.notEqual(fresh, mcpToken);
  assert.equal(ctx.app.__data.mcpToken, fresh);
  assert.equal(field.value, '•'.repeat(24), 'still masked');

  await setting('Server port').components[0].change('28000');
  assert.equal(ctx.app.__data.mcpPort, 28000);
  assert.equal(tab().setting('Server URL').desc, 'http://127.0.0.1:28000/mcp');
  await tab().setting('Server port').components[0].change('0');
  assert.equal(ctx.app.__data.mcpPort, 28000, 'not a port: not saved');
  await tab().setting('Server port').components[0].change('27191');
});

test('without a native server the tab says so; the search index row says how the index started', async () => {
  await ctx.plugin.searchIndex.whenReady();
  const { setting } = tab();
  assert.equal(setting('Server state').desc, 'Not set up: enter the path of the native server binary above.');
  await waitFor(() => setting('Index and embeddings').desc === 'The native server is not running.', 1000, 'the status row');
  assert.match(setting('Search index in this app').desc, /^Ready: 1 notes, 1 chunks; built from the notes in \d+\.\d s \(no saved index\)\.$/);
});

test('Regenerate: a new token is saved, shown, and the server now needs it', async () => {
  const { setting } = tab();
  const token = setting('Token');
  await button(token, 'Regenerate').click();
  const fresh = ctx.plugin.settings.token;
  assert.match(fresh, /^[0-9a-f]{64}$/);
  assert.notEqual(fresh, TOKEN);
  assert.equal(ctx.app.__data.token, fresh, 'saved');
  assert.equal(token.components[0].value, fresh, 'shown');
  assert.equal((await request(ctx.port)).status, 401, 'the old token is refused');
  assert.equal((await request(ctx.port, { token: fresh })).status, 200);
  assert.equal((await request(ctx.port, { path: '/bridge/v1/health', token: fresh })).status, 200);
  await button(token, 'Copy').click();
  assert.equal(clipboard.at(-1), fresh);
  ctx.plugin.bridge.server.setToken(TOKEN);
});

test('client config blocks: stdio and HTTP for each client, in its own format, with absolute paths and the token', async () => {
  const { setting } = tab();
  const binary = '/opt/obsidian-tc/bin/obsidian-tc';
  await setting('Native server binary').components[0].change(`  ${binary} `);
  assert.equal(ctx.plugin.settings.sidecarPath, binary);
  const rows = tab();
  const copy = async (client, label) => {
    await button(rows.setting(client), label).click();
    assert.match(notices.at(-1), /copied/);
    return clipboard.at(-1);
  };
  const vault = ctx.vault.dir;
  const { mcpToken } = ctx.plugin.settings;
  const url = 'http://127.0.0.1:27191/mcp';
  const headers = { Authorization: `Bearer ${mcpToken}` };
  assert.deepEqual(rows.setting('Claude Desktop').components.map((c) => c.text), ['Copy stdio'], 'stdio only');
  assert.deepEqual(JSON.parse(await copy('Claude Desktop', 'Copy stdio')), { mcpServers: { 'obsidian-tc-test-vault': { command: binary, args: [vault] } } });
  assert.deepEqual(JSON.parse(await copy('Claude Code', 'Copy stdio')), { mcpServers: { 'obsidian-tc-test-vault': { type: 'stdio', command: binary, args: [vault] } } });
  assert.deepEqual(JSON.parse(await copy('Claude Code', 'Copy HTTP')), { mcpServers: { 'obsidian-tc-test-vault': { type: 'http', url, headers } } });
  assert.deepEqual(JSON.parse(await copy('Cursor', 'Copy stdio')), { mcpServers: { 'obsidian-tc-test-vault': { command: binary, args: [vault] } } });
  assert.deepEqual(JSON.parse(await copy('Cursor', 'Copy HTTP')), { mcpServers: { 'obsidian-tc-test-vault': { url, headers } } });
  assert.deepEqual(JSON.parse(await copy('VS Code', 'Copy stdio')), { servers: { 'obsidian-tc-test-vault': { type: 'stdio', command: binary, args: [vault] } } });
  assert.deepEqual(JSON.parse(await copy('VS Code', 'Copy HTTP')), { servers: { 'obsidian-tc-test-vault': { type: 'http', url, headers } } });
  assert.deepEqual(JSON.parse(await copy('Gemini CLI', 'Copy stdio')), { mcpServers: { 'obsidian-tc-test-vault': { command: binary, args: [vault] } } });
  assert.deepEqual(JSON.parse(await copy('Gemini CLI', 'Copy HTTP')), { mcpServers: { 'obsidian-tc-test-vault': { httpUrl: url, headers } } });
  assert.equal(await copy('Codex', 'Copy stdio'), `[mcp_servers.obsidian-tc-test-vault]\ncommand = "${binary}"\nargs = ["${vault}"]\n`);
  assert.equal(await copy('Codex', 'Copy HTTP'), `[mcp_servers.obsidian-tc-test-vault]\nurl = "${url}"\nhttp_headers = { "Authorization" = "Bearer ${mcpToken}" }\n`);
  assert.ok(isAbsolute(binary) && isAbsolute(vault));

  // A block is made when copied: a regenerated token is in the next one.
  await button(tab().setting('Server token'), 'Regenerate').click();
  const fresh = ctx.plugin.settings.mcpToken;
  assert.deepEqual(JSON.parse(await copy('Cursor', 'Copy HTTP')).mcpServers['obsidian-tc-test-vault'].headers, { Authorization: `Bearer ${fresh}` });
  await tab().setting('Native server binary').components[0].change('');
  assert.equal(JSON.parse(await copy('Cursor', 'Copy stdio')).mcpServers['obsidian-tc-test-vault'].command, 'obsidian-tc', 'the bare name without a binary');
});

test('on Windows the blocks name obsidian-tc.exe, and a binary path with backslashes is kept as written', async () => {
  const platform = Object.getOwnPropertyDescriptor(process, 'platform');
  Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
  try {
    const { setting } = tab();
    assert.match(setting('Native server binary').desc, /\(obsidian-tc\.exe\)/);
    await setting('Native server binary').components[0].change('');
    const copy = async (client) => {
      await button(tab().setting(client), 'Copy stdio').click();
      return clipboard.at(-1);
    };
    assert.equal(JSON.parse(await copy('Claude Desktop')).mcpServers['obsidian-tc-test-vault'].command, 'obsidian-tc.exe', 'the bare name on PATH');
    assert.match(await copy('Codex'), /^command = "obsidian-tc\.exe"$/m);
    const exe = 'C:\\Program Files\\obsidian-tc\\obsidian-tc.exe';
    await tab().setting('Native server binary').components[0].change(exe);
    assert.equal(JSON.parse(await copy('VS Code')).servers['obsidian-tc-test-vault'].command, exe);
    // TOML basic strings escape a backslash as JSON does.
    assert.match(await copy('Codex'), /^command = "C:\\\\Program Files\\\\obsidian-tc\\\\obsidian-tc\.exe"$/m);
  } finally {
    Object.defineProperty(process, 'platform', platform);
    await tab().setting('Native server binary').components[0].change('');
  }
  assert.match(tab().setting('Native server binary').desc, /\(obsidian-tc\)/, 'elsewhere the plain name');
});

test('the native server\'s state and embedding progress show, and follow a regenerated token', async () => {
  const { warn } = console;
  console.warn = () => {};
  const { bin, log } = fakeNative();
  const other = await startPlugin({ data: { sidecarPath: bin, mcpPort: await freePort() } });
  try {
    const t = other.plugin.settingTabs[0];
    const row = (name) => t.containerEl.children.find((s) => s.name === name);
    await waitFor(() => other.plugin.native.running(), 5000, 'the native server');
    const embedding = 'Index ready: 40 chunks searchable. Embedding chunks with all-MiniLM-L6-v2: 10 of 40 (25%), about 12 s left.';
    t.display();
    await waitFor(() => row('Index and embeddings').desc === embedding, 10_000, 'the embedding progress');
    const [first] = fakeNativeLog(log);
    assert.equal(row('Server state').desc, `Running (process ${first.pid}), restarted 0 times.`);

    const before = other.plugin.settings.mcpToken;
    await button(row('Server token'), 'Regenerate').click();
    const starts = () => fakeNativeLog(log).filter((line) => line.pid !== undefined);
    await waitFor(() => starts().length === 2, 5000, 'the restart with the new token');
    assert.equal(starts()[1].env.OBSIDIAN_TC_HTTP_TOKEN, other.plugin.settings.mcpToken);
    assert.notEqual(other.plugin.settings.mcpToken, before);
    row('Index and embeddings').setDesc('');
    await waitFor(() => row('Index and embeddings').desc === embedding, 10_000, 'the new server answering the new token');
    t.hide();
  } finally {
    console.warn = warn;
    unloadPlugin(other.plugin);
  }
});

test('toggles, allowlist, folder access and timeout are saved; bad input is not', async () => {
  const { setting } = tab();
  await setting('Allow writes').components[0].change(true);
  await setting('Allow commands').components[0].change(true);
  await setting('Command allowlist').components[0].change('editor:save-file\n\n  app:reload \n');
  await setting('Folder access').components[0].change('Private: none\n/Projects/: rw\n');
  await setting('Other folders').components[0].change('r');
  await setting('Approval timeout').components[0].change('90');
  const s = ctx.app.__data;
  assert.equal(s.allowWrites, true);
  assert.equal(s.allowCommands, true);
  assert.deepEqual(s.commandAllowlist, ['editor:save-file', 'app:reload']);
  assert.deepEqual(s.folderAccess, [{ folder: 'Private', preset: 'none' }, { folder: 'Projects', preset: 'rw' }]);
  assert.equal(s.unlistedAccess, 'r');
  assert.equal(s.approvalTimeoutSeconds, 90);

  const folders = setting('Folder access');
  await folders.components[0].change('Private: secret');
  assert.deepEqual(ctx.app.__data.folderAccess, [{ folder: 'Private', preset: 'none' }, { folder: 'Projects', preset: 'rw' }]);
  assert.match(folders.desc, /Not saved: "Private: secret"/);
  await setting('Approval timeout').components[0].change('-5');
  await setting('Port').components[0].change('99999');
  await setting('Other folders').components[0].change('everything');
  assert.equal(ctx.app.__data.approvalTimeoutSeconds, 90);
  assert.equal(ctx.app.__data.port, 0);
  assert.equal(ctx.app.__data.unlistedAccess, 'r');
});

test('status bar: serving on the bound port, reading and writing during calls, stopped after unload', async () => {
  const item = ctx.plugin.statusBarItems[0];
  assert.equal(item.text, `TC Bridge: serving on port ${ctx.port}`);
  const gates = {};
  const slow = (name, writes = false) => ({
    name, description: 'waits', inputSchema: { type: 'object' }, writes,
    run: () => new Promise((resolve) => { gates[name] = () => resolve({ content: [], structuredContent: {} }); }),
  });
  ctx.plugin.bridge.registry.unregister('search');
  ctx.plugin.bridge.registry.unregister('execute_command');
  const u = [ctx.plugin.bridge.registry.register(slow('search')), ctx.plugin.bridge.registry.register(slow('execute_command', true))];
  try {
    const reading = post(ctx.port, '/search', { query: 'x' });
    await waitFor(() => gates.search, 1000, 'the search call');
    assert.equal(item.text, `TC Bridge: serving on port ${ctx.port} · reading`);
    // Through the seed-001 bridge API too.
    const writing = request(ctx.port, { method: 'POST', path: '/bridge/v1/tools/execute_command/call', body: '{"arguments":{}}' });
    await waitFor(() => gates.execute_command, 1000, 'the command call');
    assert.equal(item.text, `TC Bridge: serving on port ${ctx.port} · writing`);
    gates.execute_command();
    await writing;
    assert.equal(item.text, `TC Bridge: serving on port ${ctx.port} · reading`);
    gates.search();
    await reading;
    assert.equal(item.text, `TC Bridge: serving on port ${ctx.port}`);
  } finally {
    u.forEach((f) => f());
  }

  // A second vault asking for the same port: "port N in use", then "stopped" after unload.
  const other = tempVault();
  const app = fakeApp({ vaultDir: other.dir, name: other.name, data: { port: ctx.port, token: TOKEN } });
  const clash = new (loadBundle())(app, manifest);
  const { error } = console;
  console.error = () => {};
  try {
    await clash.onload();
  } finally {
    console.error = error;
  }
  assert.equal(clash.bridge, null);
  assert.match(notices.at(-1), /already in use/);
  assert.equal(clash.statusBarItems[0].text, `TC Bridge: port ${ctx.port} in use`);
  unloadPlugin(clash);
  assert.equal(clash.statusBarItems[0].text, 'TC Bridge: stopped');
});

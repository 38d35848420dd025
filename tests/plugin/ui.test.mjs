// The settings tab and the status bar, against the production bundle.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { isAbsolute } from 'node:path';
import { notices } from './stubs/obsidian.mjs';
import { fakeApp } from './fakes/app.mjs';
import { startPlugin, unloadPlugin, loadBundle, tempVault, manifest, request, post, waitFor, TOKEN } from './harness/plugin.mjs';

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
    'Port', 'Token', 'Agent permissions', 'Allow writes', 'Allow commands', 'Command allowlist', 'Folder access',
    'Other folders', 'Approval timeout', 'Clients', 'Copy Claude desktop config', 'Native server binary',
  ]);
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

test('Copy Claude desktop config: both servers, absolute paths', async () => {
  const { setting } = tab();
  const binary = '/opt/obsidian-tc/bin/obsidian-tc';
  await setting('Native server binary').components[0].change(`  ${binary} `);
  assert.equal(ctx.plugin.settings.sidecarPath, binary);
  await button(setting('Copy Claude desktop config'), 'Copy').click();
  await waitFor(() => clipboard.length > 0 && clipboard.at(-1).includes('mcpServers'), 1000, 'the clipboard');
  const config = JSON.parse(clipboard.at(-1));
  const entries = Object.entries(config.mcpServers);
  assert.deepEqual(entries.map(([k]) => k), ['test-vault', 'test-vault-bridge']);
  const [[, server], [, bridge]] = entries;
  assert.deepEqual(server, { command: binary, args: [ctx.vault.dir] });
  assert.deepEqual(bridge, { command: binary, args: ['bridge', '--vault', ctx.vault.dir] });
  assert.ok(isAbsolute(server.command) && isAbsolute(server.args[0]) && isAbsolute(bridge.args[2]));
  assert.match(notices.at(-1), /copied/);
  await setting('Native server binary').components[0].change('');
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

// The supervised native sidecar, against the production bundle: a tiny Node script stands in for
// the obsidian-tc binary. It is started on load after the bridge, as the native server's HTTP
// transport on the MCP port with the vault folder, told the bridge's URL and token and the MCP
// token; restarted after it crashes (its state says why), and stopped on unload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync, readFileSync, existsSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { alive, startPlugin, tempFolder, unloadPlugin, waitFor, TOKEN } from './harness/plugin.mjs';

const MCP_TOKEN = 'f'.repeat(64);

// The variables of the test run itself (CI sets some) are not the plugin's: set them aside, so
// the sidecar's OBSIDIAN_TC_* environment is exactly what the plugin gives it.
for (const name of Object.keys(process.env)) {
  if (name.startsWith('OBSIDIAN_TC_')) delete process.env[name];
}

test('the sidecar starts wired to the bridge, is restarted after a crash, and stops on unload', async () => {
  const dir = tempFolder('tc-sidecar-');
  const log = join(dir, 'runs.log');
  const script = join(dir, 'fake-obsidian-tc');
  // First run: say why on stderr and crash (exit 1). Later runs: stay up until killed.
  writeFileSync(script, `#!/usr/bin/env node
const fs = require('node:fs');
const log = ${JSON.stringify(log)};
const runs = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\\n').filter(Boolean).length : 0;
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('OBSIDIAN_TC_')));
fs.appendFileSync(log, JSON.stringify({ pid: process.pid, args: process.argv.slice(2), env }) + '\\n');
if (runs === 0) { process.stderr.write('starting\\nerror: the vault is locked\\n'); process.exit(1); }
setInterval(() => {}, 1000);
`);
  chmodSync(script, 0o755);
  const runs = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

  const { warn } = console;
  console.warn = () => {};
  const { plugin, vault, port } = await startPlugin({ data: { sidecarPath: script, mcpPort: 45123, mcpToken: MCP_TOKEN } });
  try {
    await waitFor(() => runs().length >= 1, 5000, 'the first run');
    const wanted = {
      args: ['serve', '--http', '--port', '45123', vault.dir],
      env: {
        OBSIDIAN_TC_COMPANION_URL: `http://127.0.0.1:${port}`,
        OBSIDIAN_TC_COMPANION_TOKEN: TOKEN,
        OBSIDIAN_TC_HTTP_TOKEN: MCP_TOKEN,
      },
    };
    assert.deepEqual({ args: runs()[0].args, env: runs()[0].env }, wanted);
    await waitFor(() => runs().length >= 2, 5000, 'the restart after the crash');
    const second = runs()[1];
    assert.deepEqual({ args: second.args, env: second.env }, wanted);
    const sidecar = plugin.native.sidecar;
    assert.equal(sidecar.restarts, 1);
    await waitFor(() => sidecar.pid === second.pid && plugin.native.running(), 2000, 'the supervisor to track the new pid');
    assert.deepEqual(plugin.native.status(), {
      state: 'running', pid: second.pid, restarts: 1, lastError: 'exited (code 1): error: the vault is locked',
    });
    assert.ok(alive(second.pid));

    unloadPlugin(plugin);
    await waitFor(() => !alive(second.pid), 5000, 'the sidecar to stop');
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(runs().length, 2, 'not restarted after unload');
    assert.equal(sidecar.pid, undefined);
    assert.equal(sidecar.status().state, 'stopped');
    assert.equal(plugin.native, null);
  } finally {
    console.warn = warn;
    if (plugin.native) unloadPlugin(plugin);
  }
});

test('a binary that cannot be started is retried, and its state says why', async () => {
  const { warn } = console;
  console.warn = () => {};
  const { plugin } = await startPlugin({ data: { sidecarPath: '/nonexistent/obsidian-tc' } });
  try {
    await waitFor(() => plugin.native.status().lastError !== null, 5000, 'the failed start');
    const status = plugin.native.status();
    assert.equal(status.state, 'restarting');
    assert.equal(status.pid, null);
    assert.match(status.lastError, /^failed \(spawn \/nonexistent\/obsidian-tc ENOENT\)/);
  } finally {
    console.warn = warn;
    unloadPlugin(plugin);
  }
});

test('no sidecar without a binary path', async () => {
  const { plugin } = await startPlugin();
  assert.equal(plugin.native, null);
  unloadPlugin(plugin);
});

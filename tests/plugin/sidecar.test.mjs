// The supervised native sidecar, against the production bundle: a tiny Node script stands in for
// the obsidian-tc binary. It is started on load with the vault folder, restarted after it
// crashes, and stopped on unload.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, readFileSync, existsSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlugin, unloadPlugin, waitFor } from './harness/plugin.mjs';

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('the sidecar starts with the vault folder, is restarted after a crash, and stops on unload', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tc-sidecar-'));
  const log = join(dir, 'runs.log');
  const script = join(dir, 'fake-obsidian-tc');
  // First run: crash (exit 1). Later runs: stay up until killed.
  writeFileSync(script, `#!/usr/bin/env node
const fs = require('node:fs');
const log = ${JSON.stringify(log)};
const runs = fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\\n').filter(Boolean).length : 0;
fs.appendFileSync(log, JSON.stringify({ pid: process.pid, args: process.argv.slice(2) }) + '\\n');
if (runs === 0) process.exit(1);
setInterval(() => {}, 1000);
`);
  chmodSync(script, 0o755);
  const runs = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

  const { warn } = console;
  console.warn = () => {};
  const { plugin, vault } = await startPlugin({ data: { sidecarPath: script } });
  try {
    await waitFor(() => runs().length >= 1, 5000, 'the first run');
    assert.deepEqual(runs()[0].args, ['serve', '--http', vault.dir]);
    await waitFor(() => runs().length >= 2, 5000, 'the restart after the crash');
    const second = runs()[1];
    assert.deepEqual(second.args, ['serve', '--http', vault.dir]);
    assert.equal(plugin.sidecar.restarts, 1);
    await waitFor(() => plugin.sidecar.pid === second.pid, 2000, 'the supervisor to track the new pid');
    assert.ok(alive(second.pid));

    const sidecar = plugin.sidecar;
    unloadPlugin(plugin);
    await waitFor(() => !alive(second.pid), 5000, 'the sidecar to stop');
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal(runs().length, 2, 'not restarted after unload');
    assert.equal(sidecar.pid, undefined);
  } finally {
    console.warn = warn;
    if (plugin.sidecar) unloadPlugin(plugin);
  }
});

test('no sidecar without a binary path', async () => {
  const { plugin } = await startPlugin();
  assert.equal(plugin.sidecar, null);
  unloadPlugin(plugin);
});

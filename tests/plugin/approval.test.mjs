// The approval dialog behind POST /obsidian-tc/v1/confirm and ToolContext.approve, against the
// production bundle: approve, deny, close, timeouts, the caller hanging up, unload, and queueing.
// Only an Approve click ever approves.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { openedModals } from './stubs/obsidian.mjs';
import { startPlugin, unloadPlugin, post, waitFor, TOKEN } from './harness/plugin.mjs';

let ctx;
before(async () => {
  ctx = await startPlugin();
});
after(() => unloadPlugin(ctx.plugin));

/** Waits for the next modal to open (after `count` were opened) and returns it. */
async function nextModal(count) {
  await waitFor(() => openedModals.length > count, 2000, 'the approval dialog');
  return openedModals[count];
}

const body = { tool: 'execute_command', vault: 'main', path: 'Daily/2026-07-01.md', diff: '- old\n+ new', args_hash: 'abc123' };

/** The text of everything the modal shows (setting names and descriptions, the change). */
function shown(modal) {
  const parts = [modal.titleEl.text];
  const walk = (el) => {
    for (const c of el.children) {
      if ('name' in c) parts.push(c.name, c.desc);
      if (c.text !== undefined) parts.push(c.text);
      if (c.children) walk(c);
    }
  };
  walk(modal.contentEl);
  return parts.join('\n');
}

test('Approve click → approved; the dialog shows tool, vault, path, hash and the diff', async () => {
  const n = openedModals.length;
  const pending = post(ctx.port, '/confirm', body);
  const modal = await nextModal(n);
  const text = shown(modal);
  for (const s of ['execute_command', 'main', 'Daily/2026-07-01.md', 'abc123', '- old\n+ new']) assert.ok(text.includes(s), s);
  assert.deepEqual(modal.buttons().map((b) => b.text), ['Deny', 'Approve']);
  await modal.press('Approve');
  const res = await pending;
  assert.equal(res.status, 200);
  assert.deepEqual(res.json, { ok: true, result: { decision: 'approved' } });
  assert.equal(modal.isOpen, false);
});

test('Deny click → denied; closing the dialog → denied', async () => {
  let n = openedModals.length;
  let pending = post(ctx.port, '/confirm', { tool: 't', vault: 'v', summary: 'Delete 3 notes' });
  let modal = await nextModal(n);
  await modal.press('Deny');
  assert.equal((await pending).json.result.decision, 'denied');

  n = openedModals.length;
  pending = post(ctx.port, '/confirm', { tool: 't', vault: 'v', summary: 'Delete 3 notes' });
  modal = await nextModal(n);
  const approve = modal.buttons().find((b) => b.text === 'Approve');
  modal.close();
  assert.equal((await pending).json.result.decision, 'denied');
  await approve.click(); // a late click changes nothing
  assert.equal(ctx.plugin.activity.current(), null);
});

test('timeouts: the request\'s shorter timeout_ms, and the configured timeout', async () => {
  const n = openedModals.length;
  const t0 = Date.now();
  const res = await post(ctx.port, '/confirm', { ...body, timeout_ms: 120 });
  assert.deepEqual(res.json.result, { decision: 'timed_out' });
  assert.ok(Date.now() - t0 >= 100);
  assert.equal(openedModals[n].isOpen, false, 'the dialog closes on timeout');

  const short = await startPlugin({ data: { approvalTimeoutSeconds: 0.15 } });
  try {
    const t1 = Date.now();
    const r = await post(short.port, '/confirm', { ...body, timeout_ms: 60_000 });
    assert.equal(r.json.result.decision, 'timed_out');
    assert.ok(Date.now() - t1 < 5_000, 'the configured timeout wins when shorter');
  } finally {
    unloadPlugin(short.plugin);
  }
});

test('one dialog at a time: the second waits until the first is answered', async () => {
  const n = openedModals.length;
  const first = post(ctx.port, '/confirm', { tool: 'first', vault: 'v', summary: 's' });
  const firstModal = await nextModal(n);
  const second = post(ctx.port, '/confirm', { tool: 'second', vault: 'v', summary: 's' });
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(openedModals.length, n + 1, 'the second dialog is queued');
  await firstModal.press('Approve');
  const secondModal = await nextModal(n + 1);
  assert.match(shown(secondModal), /second/);
  await secondModal.press('Deny');
  assert.equal((await first).json.result.decision, 'approved');
  assert.equal((await second).json.result.decision, 'denied');
});

test('ToolContext.approve is the same queue; waiting shows in the status bar', async () => {
  const n = openedModals.length;
  const decision = ctx.plugin.approvals.approve({ tool: 'execute_template', vault: 'v', summary: 'Create a note' });
  const modal = await nextModal(n);
  assert.match(ctx.plugin.statusBarItems[0].text, /waiting for approval/);
  await modal.press('Approve');
  assert.equal(await decision, 'approved');
  assert.doesNotMatch(ctx.plugin.statusBarItems[0].text, /waiting for approval/);
});

test('the caller hanging up denies (and closes the dialog)', async () => {
  const n = openedModals.length;
  const text = JSON.stringify(body);
  const req = http.request({
    host: '127.0.0.1', port: ctx.port, method: 'POST', path: '/obsidian-tc/v1/confirm', agent: false,
    headers: { host: `127.0.0.1:${ctx.port}`, authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) },
  });
  req.on('error', () => {});
  req.end(text);
  const modal = await nextModal(n);
  req.destroy();
  await waitFor(() => !modal.isOpen, 2000, 'the dialog to close');
  assert.equal(ctx.plugin.activity.current(), null);
});

test('invalid confirm bodies are invalid_input and open no dialog', async () => {
  const n = openedModals.length;
  for (const bad of [{}, { tool: 't' }, { tool: 't', vault: 'v' }, { tool: 't', vault: 'v', summary: 3 }, { ...body, timeout_ms: -1 }]) {
    const res = await post(ctx.port, '/confirm', bad);
    assert.equal(res.status, 400, JSON.stringify(bad));
    assert.equal(res.json.code, 'invalid_input');
  }
  assert.equal(openedModals.length, n);
});

test('unload while waiting → denied, for queued requests too', async () => {
  const other = await startPlugin();
  const n = openedModals.length;
  const shownDecision = other.plugin.approvals.approve({ tool: 'a', vault: 'v', summary: 's' });
  const queuedDecision = other.plugin.approvals.approve({ tool: 'b', vault: 'v', summary: 's' });
  const overHttp = post(other.port, '/confirm', body).then((r) => r.json?.result?.decision ?? 'no answer', () => 'connection closed');
  const modal = await nextModal(n);
  unloadPlugin(other.plugin);
  assert.equal(await shownDecision, 'denied');
  assert.equal(await queuedDecision, 'denied');
  assert.ok(['denied', 'connection closed', 'no answer'].includes(await overHttp));
  assert.equal(modal.isOpen, false);
  assert.equal(openedModals.length, n + 1, 'no queued dialog opens after unload');
});

// A stand-in for the native `obsidian-tc` binary as TC Bridge runs it, for the plugin's own
// tests (the real binary is driven by sidecar_server.test.mjs): `serve --http --port N <vault>`
// serves MCP over Streamable HTTP on 127.0.0.1:N with sessions (`Mcp-Session-Id`; an unknown
// session is 404), answers in server-sent events, and requires `Authorization: Bearer
// $OBSIDIAN_TC_HTTP_TOKEN` (401 otherwise). Tools:
//   search_vault      mode "hybrid": the notes whose text holds every query word (case-insensitive)
//   get_index_status  a fixed status whose `embeddings` says "embedding 10 of 40"
//   index_vault       counts the notes and appends a line to $FAKE_NATIVE_LOG; while the file
//                     `$FAKE_NATIVE_LOG.busy` holds a count above 0, answers `index_busy`
//                     instead (as a scan already running does) and counts it down
// Each start appends {"pid", "args", "env"} (the OBSIDIAN_TC_* variables) to $FAKE_NATIVE_LOG.
//
// `fakeNative()` writes an executable that runs this script, for settings.sidecarPath.
import { appendFileSync, chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempFolder } from '../harness/temp.mjs';

/**
 * `bin`, an executable that starts this fake with its arguments, and `log`, where it reports:
 * both in a temporary folder removed as the test file's process exits.
 */
export function fakeNative() {
  const dir = tempFolder('tc-fake-native-');
  const bin = join(dir, 'obsidian-tc');
  const log = join(dir, 'log');
  writeFileSync(bin, `#!/bin/sh\nFAKE_NATIVE_LOG=${JSON.stringify(log)} exec ${JSON.stringify(process.execPath)} ${JSON.stringify(fileURLToPath(import.meta.url))} "$@"\n`);
  chmodSync(bin, 0o755);
  return { bin, log };
}

/** The lines the fake wrote to `log`, parsed. */
export function fakeNativeLog(log) {
  try {
    return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line));
  } catch {
    return [];
  }
}

/** Every note of the vault folder: [{path, text}]. */
function notes(vault) {
  return readdirSync(vault, { recursive: true })
    .map((p) => p.replaceAll('\\', '/'))
    .filter((p) => p.endsWith('.md') && !p.split('/').some((part) => part.startsWith('.')))
    .sort()
    .map((path) => ({ path, text: readFileSync(join(vault, path), 'utf8') }));
}

const TOOLS = {
  search_vault({ query, limit = 10 }, vault) {
    const words = String(query).toLowerCase().split(/\s+/).filter(Boolean);
    const results = notes(vault)
      .filter((n) => words.every((w) => n.text.toLowerCase().includes(w)))
      .slice(0, limit)
      .map((n, i) => ({ path: n.path, title: n.path.replace(/\.md$/, ''), heading: 'Fused', score: 1 / (i + 1), scores: { lexical: null, semantic: 0.5 } }));
    return { mode: 'hybrid', results, coverage: { chunks: 40, embedded: 10, scanning: false } };
  },
  get_index_status() {
    return {
      vault: 'main', scanning: false, done: 0, total: 0, chunks: 40, scanned: true, failures: [],
      embeddings: { provider: 'local', model: 'all-MiniLM-L6-v2', state: 'embedding', reason: null, download: null, embedded: 10, total: 40, etaSeconds: 12 },
    };
  },
  index_vault(_args, vault, log) {
    const busy = `${log}.busy`;
    const left = existsSync(busy) ? Number(readFileSync(busy, 'utf8')) : 0;
    appendFileSync(log, `${JSON.stringify({ tool: 'index_vault', busy: left > 0 })}\n`);
    if (left > 0) {
      writeFileSync(busy, String(left - 1));
      throw new ToolFailure({ code: 'index_busy', message: 'a scan of this vault is already running', retryable: true });
    }
    const n = notes(vault).length;
    return { vault: 'main', scanned: n, added: 0, updated: n, unchanged: 0, removed: 0, failed: 0, duration_ms: 1 };
  },
};

/** Thrown by a tool to answer its call with an error result whose structured content is `value`. */
class ToolFailure extends Error {
  constructor(value) {
    super(value.message);
    this.value = value;
  }
}

function main() {
  const args = process.argv.slice(2);
  const log = process.env.FAKE_NATIVE_LOG;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith('OBSIDIAN_TC_')));
  appendFileSync(log, `${JSON.stringify({ pid: process.pid, args, env })}\n`);
  const port = Number(args[args.indexOf('--port') + 1]);
  const vault = args.at(-1);
  const token = process.env.OBSIDIAN_TC_HTTP_TOKEN;
  const sessions = new Set();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/mcp' || req.method !== 'POST') return res.writeHead(404).end();
      if (req.headers.authorization !== `Bearer ${token}`) return res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const answer = (result, headers = {}) => {
        res.writeHead(200, { 'content-type': 'text/event-stream', ...headers });
        res.end(`id: 1\ndata: \n\nevent: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`);
      };
      if (message.method === 'initialize') {
        const id = randomUUID();
        sessions.add(id);
        return answer({ protocolVersion: message.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'fake-obsidian-tc', version: '0' } }, { 'mcp-session-id': id });
      }
      if (!sessions.has(req.headers['mcp-session-id'])) return res.writeHead(404).end();
      if (message.method === 'notifications/initialized') return res.writeHead(202).end();
      if (message.method === 'tools/call') {
        const tool = TOOLS[message.params.name];
        if (!tool) return answer({ isError: true, content: [{ type: 'text', text: '{"code":"unknown_tool"}' }] });
        try {
          const value = tool(message.params.arguments ?? {}, vault, log);
          return answer({ content: [{ type: 'text', text: JSON.stringify(value) }], structuredContent: value });
        } catch (err) {
          if (!(err instanceof ToolFailure)) throw err;
          return answer({ isError: true, content: [{ type: 'text', text: JSON.stringify(err.value) }], structuredContent: err.value });
        }
      }
      res.writeHead(400).end();
    });
  });
  server.listen(port, '127.0.0.1');
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();

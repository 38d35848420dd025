// TC Bridge against the Companion API contract (engine-native/contract/companion-api.json), the
// file the native server is built from too, read here on its own: the plugin's route table and
// endpoints (its source, bundled here with esbuild) are the file's, the production bundle serves
// exactly those paths with those methods and has a bridge tool for every tool they name, its probe
// reports the file's API version and plugins, and its error-code types (resolved with the
// TypeScript checker) are the file's codes. engine-native/tests/it/companion/contract.rs checks
// the server's side.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';
import ts from 'typescript';
import { startPlugin, unloadPlugin, request } from './harness/plugin.mjs';

const root = fileURLToPath(new URL('../../', import.meta.url));
const CONTRACT = JSON.parse(readFileSync(`${root}engine-native/contract/companion-api.json`, 'utf8'));

/** Every tool a route's `tool` names. */
const toolsOf = (choice) => (typeof choice === 'string' ? [choice] : Object.values(choice.tools));

/** The plugin module `path` (TypeScript), bundled on the fly and imported. */
async function importSource(path) {
  const built = await esbuild.build({
    entryPoints: [`${root}${path}`],
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'node',
    external: ['obsidian'],
    logLevel: 'silent',
  });
  const code = built.outputFiles[0].text;
  return import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
}

/** The string literals a type alias exported by `file` resolves to (its union's members). */
function literalUnion(file, name) {
  const config = ts.getParsedCommandLineOfConfigFile(`${root}tsconfig.json`, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram([`${root}${file}`], config.options);
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(`${root}${file}`);
  const symbol = checker.getExportsOfModule(checker.getSymbolAtLocation(source)).find((s) => s.name === name);
  assert.ok(symbol, `${file} exports no ${name}`);
  const alias = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
  const type = checker.getDeclaredTypeOfSymbol(alias);
  const members = type.isUnion() ? type.types : [type];
  return members.map((member) => {
    assert.ok(member.isStringLiteral(), `${name} has a member that is not a string literal: ${checker.typeToString(member)}`);
    return member.value;
  }).sort();
}

test('the route table and endpoints in the plugin source are the contract\'s', async () => {
  const routes = await importSource('plugin/src/companion/routes.ts');
  assert.equal(routes.COMPANION_PREFIX, CONTRACT.prefix);
  assert.deepEqual(
    routes.COMPANION_ROUTES.map(({ path, method, tool }) => ({ path, method, tool })),
    CONTRACT.routes.map(({ path, method, tool }) => ({ path, method, tool })),
  );
  assert.deepEqual({ ...routes.PROBE_ENDPOINT }, { path: CONTRACT.endpoints.probe.path, method: CONTRACT.endpoints.probe.method });
  assert.deepEqual({ ...routes.CONFIRM_ENDPOINT }, { path: CONTRACT.endpoints.confirm.path, method: CONTRACT.endpoints.confirm.method });
});

test('the error-code types of the plugin are the contract\'s codes', () => {
  const codes = Object.keys(CONTRACT.error_codes).sort();
  const admission = Object.keys(CONTRACT.admission_codes).sort();
  assert.deepEqual(literalUnion('plugin/src/tools/result.ts', 'ToolErrorCode'), codes, 'ToolErrorCode (tools/result.ts)');
  assert.deepEqual(literalUnion('plugin/src/companion/contract.ts', 'CompanionErrorCode'), [...codes, ...admission].sort(), 'CompanionErrorCode');
});

let ctx;
before(async () => {
  ctx = await startPlugin();
});
after(() => unloadPlugin(ctx.plugin));

test('the production bundle serves exactly the contract\'s paths, with its methods, and a tool for each', async () => {
  const entries = [...Object.values(CONTRACT.endpoints), ...CONTRACT.routes];
  for (const { path, method } of entries) {
    const full = `${CONTRACT.prefix}${path}`;
    // a method the route does not take is refused as such (405), never as an unknown path (404)
    const other = await request(ctx.port, { method: 'PUT', path: full, body: '{}' });
    assert.equal(other.status, 405, `${full}: ${other.text}`);
    const allowed = (other.headers.allow ?? '').split(/,\s*/).filter(Boolean).sort();
    const expected = method === 'GET' && CONTRACT.routes.some((r) => r.path === path) ? ['GET', 'POST'] : [method];
    assert.deepEqual(allowed, expected.sort(), `${full} allows`);
  }
  const unknown = await request(ctx.port, { method: 'POST', path: `${CONTRACT.prefix}/not/in/the/contract`, body: '{}' });
  assert.equal(unknown.status, 404);
  assert.equal(unknown.json.code, 'not_found');
  for (const route of CONTRACT.routes) {
    for (const tool of toolsOf(route.tool)) {
      assert.ok(ctx.plugin.bridge.registry.get(tool), `${route.path} names the tool ${tool}, which TC Bridge does not register`);
    }
  }
});

test('the probe reports the contract\'s API version and its plugins', async () => {
  const res = await request(ctx.port);
  assert.equal(res.json.result.obsidianTcApiVersion, CONTRACT.api_version);
  assert.deepEqual(Object.keys(res.json.result.capabilities).sort(), Object.keys(CONTRACT.plugins).sort());
});

// The community store's manifest rules (obsidianmd validate-manifest and the developer docs), checked on the root
// manifest.json and versions.json that a release ships.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('manifest.json', root), 'utf8'));
const versions = JSON.parse(readFileSync(new URL('versions.json', root), 'utf8'));
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));

const ALLOWED = ['id', 'name', 'version', 'minAppVersion', 'description', 'author', 'authorUrl',
  'fundingUrl', 'helpUrl', 'isDesktopOnly'];
const SEMVER = /^\d+\.\d+\.\d+$/;

test('required keys present, no unknown key', () => {
  for (const k of ['id', 'name', 'version', 'minAppVersion', 'description', 'author', 'isDesktopOnly']) {
    assert.ok(k in manifest, `manifest.json lacks ${k}`);
  }
  for (const k of Object.keys(manifest)) assert.ok(ALLOWED.includes(k), `unknown manifest key ${k}`);
});

test('id: lowercase letters and hyphens, no "obsidian", not ending in "plugin"', () => {
  assert.match(manifest.id, /^[a-z][a-z-]*[a-z]$/);
  assert.ok(!manifest.id.includes('obsidian'));
  assert.ok(!manifest.id.endsWith('plugin'));
});

test('name: no "Obsidian", no "Plugin", Basic Latin', () => {
  assert.ok(!/obsi|sidian/i.test(manifest.name));
  assert.ok(!/plugin/i.test(manifest.name));
  assert.match(manifest.name, /^[\x20-\x7e]+$/);
});

test('description: 10 to 250 chars, capital first, ends with ".", plain characters, no "Obsidian" or "This plugin"', () => {
  // The rules of the store review (eslint-plugin-obsidianmd validate-manifest, old releases validator).
  const d = manifest.description;
  assert.ok(d.length >= 10 && d.length <= 250, `description is ${d.length} chars`);
  assert.match(d, /^[A-Z]/);
  assert.ok(d.endsWith('.'), 'description must end with a period');
  assert.match(d, /^[A-Za-z0-9\s.,!?'"-]+$/, 'description holds emoji or special characters');
  assert.ok(!/obsidian/i.test(d), 'description mentions Obsidian');
  assert.ok(!/this plugin/i.test(d), 'description says "This plugin"');
});

test('desktop only (Node http server)', () => {
  assert.equal(manifest.isDesktopOnly, true);
});

test('version and minAppVersion: x.y.z, listed in versions.json, same as package.json', () => {
  assert.match(manifest.version, SEMVER);
  assert.match(manifest.minAppVersion, SEMVER);
  assert.equal(versions[manifest.version], manifest.minAppVersion);
  assert.equal(pkg.version, manifest.version);
  // One version for the whole release: its tag is manifest.json's version (Obsidian looks the
  // release up by it) and the binaries, crates and npm packages carry the workspace's.
  const cargo = readFileSync(new URL('Cargo.toml', root), 'utf8').match(/\[workspace\.package\]\nversion = "([^"]+)"/)[1];
  assert.equal(cargo, manifest.version, 'Cargo.toml workspace version == manifest.json version (npm run release:version)');
  for (const [v, app] of Object.entries(versions)) {
    assert.match(v, SEMVER);
    assert.match(app, SEMVER);
  }
});

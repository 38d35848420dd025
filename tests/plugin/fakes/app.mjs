// A fake Obsidian `App` over a real folder on disk, shaped like the parts of the real API the
// TC Bridge plugin uses (vault, metadataCache, workspace, commands, plugins). Files are listed
// once, as Obsidian does on start (dot files and dot folders hidden), then kept in step with the
// writes made through it; vault events fire as in Obsidian. Companion plugins are added with
// `addPlugin`; tests extend the fake in their own files rather than here.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join, basename } from 'node:path';
import { Events, TFile, TFolder, normalizePath } from '../stubs/obsidian.mjs';

/**
 * The vault's `DataAdapter` over the same folder (paths vault-relative, dot folders included, no
 * vault events), as Obsidian's FileSystemAdapter: `rename` refuses an existing destination.
 * `writes` lists the paths written, in order.
 */
class FakeAdapter {
  constructor(dir) {
    this.basePath = dir;
    this.writes = [];
  }
  getBasePath() {
    return this.basePath;
  }
  _abs(path) {
    return join(this.basePath, normalizePath(path));
  }
  async exists(path) {
    return existsSync(this._abs(path));
  }
  async read(path) {
    return readFileSync(this._abs(path), 'utf8');
  }
  async readBinary(path) {
    const b = readFileSync(this._abs(path));
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  }
  async write(path, data) {
    writeFileSync(this._abs(path), data);
    this.writes.push(normalizePath(path));
  }
  async writeBinary(path, data) {
    writeFileSync(this._abs(path), Buffer.from(data));
    this.writes.push(normalizePath(path));
  }
  async mkdir(path) {
    mkdirSync(this._abs(path), { recursive: true });
  }
  async remove(path) {
    rmSync(this._abs(path));
  }
  async rename(from, to) {
    if (existsSync(this._abs(to))) throw new Error('Destination file already exists!');
    renameSync(this._abs(from), this._abs(to));
  }
}

class FakeVault extends Events {
  constructor(dir, name) {
    super();
    this.dir = dir;
    this.configDir = '.obsidian';
    this._name = name;
    this.adapter = new FakeAdapter(dir);
    this._byPath = new Map();
    this.root = new TFolder(this, '/', null);
    this._byPath.set('/', this.root);
    this._walk(this.root, dir, '');
  }

  _walk(folder, abs, rel) {
    for (const entry of readdirSync(abs, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue;
      const path = rel === '' ? entry.name.normalize('NFC') : `${rel}/${entry.name.normalize('NFC')}`;
      const full = join(abs, entry.name);
      if (entry.isDirectory()) {
        const child = new TFolder(this, path, folder);
        folder.children.push(child);
        this._byPath.set(path, child);
        this._walk(child, full, path);
      } else if (entry.isFile()) {
        this._addFile(folder, path, full);
      }
    }
  }

  _addFile(folder, path, full) {
    const st = statSync(full);
    const file = new TFile(this, path, folder, { ctime: st.ctimeMs, mtime: st.mtimeMs, size: st.size });
    folder.children.push(file);
    this._byPath.set(path, file);
    return file;
  }

  _abs(path) {
    return join(this.dir, path);
  }

  getName() {
    return this._name;
  }
  getRoot() {
    return this.root;
  }
  getAbstractFileByPath(path) {
    return this._byPath.get(normalizePath(path)) ?? null;
  }
  getFileByPath(path) {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFile ? f : null;
  }
  getFolderByPath(path) {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFolder ? f : null;
  }
  getAllLoadedFiles() {
    return [...this._byPath.values()];
  }
  getFiles() {
    return [...this._byPath.values()].filter((f) => f instanceof TFile);
  }
  getMarkdownFiles() {
    return this.getFiles().filter((f) => f.extension === 'md');
  }
  async read(file) {
    return readFileSync(this._abs(file.path), 'utf8');
  }
  async cachedRead(file) {
    return this.read(file);
  }
  async readBinary(file) {
    const b = readFileSync(this._abs(file.path));
    return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
  }
  async modify(file, data) {
    writeFileSync(this._abs(file.path), data);
    const st = statSync(this._abs(file.path));
    file.stat = { ctime: st.ctimeMs, mtime: st.mtimeMs, size: st.size };
    this.trigger('modify', file);
  }
  async process(file, fn) {
    const next = fn(await this.read(file));
    await this.modify(file, next);
    return next;
  }
  async create(path, data) {
    const p = normalizePath(path);
    if (this._byPath.has(p)) throw new Error('File already exists.');
    const parentPath = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '/';
    const parent = this._byPath.get(parentPath) ?? (await this.createFolder(parentPath));
    writeFileSync(this._abs(p), data);
    const file = this._addFile(parent, p, this._abs(p));
    this.trigger('create', file);
    return file;
  }
  async createFolder(path) {
    const p = normalizePath(path);
    if (this._byPath.has(p)) return this._byPath.get(p);
    const parentPath = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '/';
    const parent = this._byPath.get(parentPath) ?? (await this.createFolder(parentPath));
    mkdirSync(this._abs(p), { recursive: true });
    const folder = new TFolder(this, p, parent);
    parent.children.push(folder);
    this._byPath.set(p, folder);
    this.trigger('create', folder);
    return folder;
  }
  async delete(file) {
    rmSync(this._abs(file.path), { recursive: true });
    this._byPath.delete(file.path);
    file.parent.children = file.parent.children.filter((c) => c !== file);
    this.trigger('delete', file);
  }
  async rename(file, newPath) {
    const p = normalizePath(newPath);
    const old = file.path;
    renameSync(this._abs(old), this._abs(p));
    this._byPath.delete(old);
    file.path = p;
    file.name = basename(p);
    const dot = file.name.lastIndexOf('.');
    file.basename = dot > 0 ? file.name.slice(0, dot) : file.name;
    this._byPath.set(p, file);
    this.trigger('rename', file, old);
  }
}

class FakeWorkspace extends Events {
  constructor(app) {
    super();
    this.app = app;
    this.layoutReady = true;
    this._active = null;
    this.opened = [];
  }
  onLayoutReady(cb) {
    cb();
  }
  getActiveFile() {
    return this._active;
  }
  /** Test helper: what Obsidian does when the user focuses a note. */
  setActiveFile(file) {
    this._active = file;
    this.trigger('file-open', file);
  }
  getLeaf() {
    return {
      openFile: async (file) => {
        this.opened.push(file.path);
        this.setActiveFile(file);
      },
    };
  }
  async openLinkText(linktext, sourcePath) {
    const file = this.app.metadataCache.getFirstLinkpathDest(linktext, sourcePath);
    if (file) await this.getLeaf().openFile(file);
  }
}

class FakeMetadataCache extends Events {
  constructor(vault) {
    super();
    this.vault = vault;
    this.resolvedLinks = {};
    this.unresolvedLinks = {};
  }
  /** No parsed cache (tests that need one install `computeCache`). */
  getFileCache(file) {
    return this.computeCache ? this.computeCache(file) : null;
  }
  getFirstLinkpathDest(linkpath, _sourcePath) {
    const target = linkpath.split('#')[0];
    const exact = this.vault.getFileByPath(target) ?? this.vault.getFileByPath(`${target}.md`);
    if (exact) return exact;
    const name = target.split('/').pop();
    return this.vault.getFiles().find((f) => f.basename === name || f.name === name) ?? null;
  }
}

class FakeCommands {
  constructor() {
    this.commands = {};
    this.executed = [];
  }
  listCommands() {
    return Object.values(this.commands);
  }
  findCommand(id) {
    return this.commands[id];
  }
  executeCommandById(id) {
    const cmd = this.commands[id];
    if (!cmd) return false;
    this.executed.push(id);
    cmd.callback?.();
    return true;
  }
}

/**
 * A fake App over `vaultDir`. `data` is what the plugin's `loadData()` returns.
 * `app.addPlugin(id, instance, manifest)` installs and enables a companion plugin.
 */
export function fakeApp({ vaultDir, data = null, name } = {}) {
  const vault = new FakeVault(vaultDir, name ?? basename(vaultDir));
  const app = {
    __data: data,
    vault,
    metadataCache: new FakeMetadataCache(vault),
    commands: new FakeCommands(),
    plugins: { plugins: {}, enabledPlugins: new Set(), manifests: {} },
  };
  app.workspace = new FakeWorkspace(app);
  app.addPlugin = (id, instance, manifest = {}) => {
    app.plugins.plugins[id] = instance;
    app.plugins.enabledPlugins.add(id);
    app.plugins.manifests[id] = { id, name: id, version: '0.0.0', ...manifest };
    return instance;
  };
  return app;
}

// Fake companion plugins shaped like the real APIs of reference/obsidian-plugin.md §3 (names,
// signatures, result shapes, manifest ids and versions), working over the fake App's vault.
// Each `addX(app, ...)` installs and enables one on the fake App and returns the instance.
import { readFileSync } from 'node:fs';
import moment from 'moment';
import { TFile } from '../stubs/obsidian.mjs';

/** Luxon's DateTime as Dataview hands it out (`isLuxonDateTime`, `toISO()`). */
class FakeDateTime {
  constructor(ms) { this.ts = ms; this.isLuxonDateTime = true; }
  toISO() { return new Date(this.ts).toISOString(); }
}
/** Dataview's Link (src/data-model/value.ts). */
class Link {
  constructor(path, display) { this.path = path; this.display = display; this.embed = false; this.type = 'file'; }
  markdown() { return `[[${this.path}]]`; }
}
/** Dataview's DataArray: `values` plus `array()`. */
class DataArray {
  constructor(values) { this.values = values; }
  array() { return [...this.values]; }
}

/** Dataview 0.5.70: `api.query` understands `LIST FROM "folder"` and `TABLE file.mtime FROM "folder"`. */
export function addDataview(app) {
  const pages = (folder) => app.vault.getMarkdownFiles().filter((f) => f.path.startsWith(`${folder}/`)).sort((a, b) => (a.path < b.path ? -1 : 1));
  const page = (file) => ({ file: { path: file.path, name: file.basename, link: new Link(file.path), mtime: new FakeDateTime(file.stat.mtime), outlinks: new DataArray([]) } });
  const api = {
    index: { initialized: true },
    async query(source, _origin) {
      const m = /^\s*(LIST|TABLE file\.mtime)\s+FROM\s+"([^"]+)"\s*$/i.exec(source);
      if (!m) return { successful: false, error: `Error: \n-- PARSING FAILED --------------------------------------------------\n\n> 1 | ${source}\n    | ^\n\nExpected one of the following: \n\n'FROM'\n` };
      const files = pages(m[2]);
      if (m[1].toUpperCase() === 'LIST') return { successful: true, value: { type: 'list', values: new DataArray(files.map((f) => new Link(f.path))), primaryMeaning: { type: 'path' } } };
      return { successful: true, value: { type: 'table', headers: ['File', 'file.mtime'], values: files.map((f) => [new Link(f.path), new FakeDateTime(f.stat.mtime)]), idMeaning: { type: 'path' } } };
    },
    page(path) {
      const file = app.vault.getAbstractFileByPath(path);
      return file instanceof TFile && file.extension === 'md' ? page(file) : undefined;
    },
    evaluate(expression, context) {
      // Field paths only (`file.mtime`), or `link("<path>")`.
      const link = /^link\("(.+)"\)$/.exec(expression);
      if (link) return { successful: true, value: new Link(link[1]) };
      if (!/^[a-z]+(\.[a-z]+)*$/i.test(expression)) return { successful: false, error: `Failed to parse expression '${expression}'` };
      let v = context;
      for (const key of expression.split('.')) v = v?.[key];
      return { successful: true, value: v ?? null };
    },
  };
  return app.addPlugin('dataview', { api }, { name: 'Dataview', version: '0.5.70' });
}

/** Tasks 8.3.0: `getTasks()` (Task objects), `getState()`, and the three-function `apiV1`. */
export function addTasks(app, tasks) {
  const date = (s) => (s ? moment(s, 'YYYY-MM-DD') : null);
  const made = tasks.map((t) => ({
    status: { type: t.status ?? 'TODO', symbol: t.status === 'DONE' ? 'x' : ' ', name: t.status === 'DONE' ? 'Done' : 'Todo' },
    description: t.description,
    taskLocation: { path: t.path, lineNumber: t.line ?? 0 },
    get path() { return this.taskLocation.path; },
    get lineNumber() { return this.taskLocation.lineNumber; },
    priority: t.priority ?? '3',
    tags: t.tags ?? [],
    dueDate: date(t.due), scheduledDate: null, startDate: null, doneDate: null, createdDate: null, cancelledDate: null,
    originalMarkdown: `- [ ] ${t.description}`,
  }));
  const plugin = {
    getTasks: () => made,
    getState: () => 'Warm',
    get apiV1() {
      return { createTaskLineModal: async () => '', editTaskLineModal: async (l) => l, executeToggleTaskDoneCommand: (l) => l };
    },
  };
  return app.addPlugin('obsidian-tasks-plugin', plugin, { name: 'Tasks', version: '8.3.0' });
}

/** Templater 2.25.0: `settings.templates_folder` and `templater.create_new_note_from_template`. */
export function addTemplater(app, templatesFolder) {
  const plugin = {
    settings: { templates_folder: templatesFolder },
    created: [],
    templater: {
      async create_new_note_from_template(template, folder, filename, _open = true) {
        const body = await app.vault.read(template);
        const path = `${folder ? `${folder}/` : ''}${filename}.md`;
        plugin.created.push(path);
        return app.vault.create(path, body);
      },
    },
  };
  return app.addPlugin('templater-obsidian', plugin, { name: 'Templater', version: '2.25.0' });
}

/** QuickAdd 2.22.0: `settings.choices` (Multi nests) and `api.executeChoice(name, variables)`. */
export function addQuickAdd(app, choices) {
  const plugin = { settings: { choices }, executed: [] };
  Object.defineProperty(plugin, 'api', {
    get: () => ({ executeChoice: async (name, variables) => { plugin.executed.push({ name, variables }); } }),
  });
  return app.addPlugin('quickadd', plugin, { name: 'QuickAdd', version: '2.22.0' });
}

/** Text Extractor 0.7.0: `api.extractText`, `canFileBeExtracted`, `isInCache`. */
export function addTextExtractor(app) {
  const cache = new Set();
  const api = {
    canFileBeExtracted: (path) => /\.(png|jpe?g|webp|gif|bmp|pdf|docx|xlsx)$/i.test(path),
    isInCache: async (file) => cache.has(file.path),
    extractText: async (file) => { cache.add(file.path); return `text of ${file.basename}`; },
  };
  return app.addPlugin('text-extractor', { api }, { name: 'Text Extractor', version: '0.7.0' });
}

/** Excalidraw: `window.ExcalidrawAutomate` whose `getAPI()` makes instances kept in `plugin.eaInstances`. */
export function addExcalidraw(app) {
  const plugin = { eaInstances: [] };
  const scene = async (file) => JSON.parse(/```json\n([\s\S]*?)\n```/.exec(await app.vault.read(file))[1]);
  const markdown = (elements) => `---\nexcalidraw-plugin: parsed\n---\n%%\n# Drawing\n\`\`\`json\n${JSON.stringify({ type: 'excalidraw', elements, appState: {} })}\n\`\`\`\n%%\n`;
  let next = 0;
  const makeEA = () => {
    const ea = {
      elementsDict: {},
      targetView: null,
      getAPI: () => { const x = makeEA(); plugin.eaInstances.push(x); return x; },
      destroy() { plugin.eaInstances = plugin.eaInstances.filter((x) => x !== ea); },
      reset() { ea.elementsDict = {}; },
      isExcalidrawFile: (f) => f.path.endsWith('.excalidraw.md'),
      getSceneFromFile: async (f) => ({ elements: (await scene(f)).elements, appState: {} }),
      _add(el) { const id = `el${++next}`; ea.elementsDict[id] = { id, ...el }; return id; },
      addRect: (x, y, width, height) => ea._add({ type: 'rectangle', x, y, width, height }),
      addText: (x, y, text) => ea._add({ type: 'text', x, y, text }),
      addArrow: (points) => ea._add({ type: 'arrow', points }),
      addLine: (points) => ea._add({ type: 'line', points }),
      getElements: () => Object.values(ea.elementsDict),
      async create({ filename, foldername }) {
        const path = `${foldername && foldername !== '/' ? `${foldername}/` : ''}${filename}`;
        await app.vault.create(path, markdown(ea.getElements()));
        return path;
      },
      setView(which) {
        const file = app.workspace.getActiveFile();
        ea.targetView = which === 'active' && file && file.path.endsWith('.excalidraw.md') ? { file } : null;
        return ea.targetView;
      },
      getViewElements: () => JSON.parse(/```json\n([\s\S]*?)\n```/.exec(readFileSync(app.vault._abs(ea.targetView.file.path), 'utf8'))[1]).elements,
      deleteViewElements(els) { ea._deleted = els.map((e) => e.id); return true; },
      async addElementsToView() {
        const file = ea.targetView.file;
        const current = (await scene(file)).elements.filter((e) => !(ea._deleted ?? []).includes(e.id));
        await app.vault.modify(file, markdown([...current, ...ea.getElements()]));
        return true;
      },
    };
    return ea;
  };
  globalThis.window.ExcalidrawAutomate = makeEA();
  return app.addPlugin('obsidian-excalidraw-plugin', plugin, { name: 'Excalidraw', version: '2.15.0' });
}

/** make.md 1.3.3: `superstate.spacesIndex` (Map of SpaceState) and `superstate.api.table.select`. */
export function addMakeMd(app, spaces) {
  const spacesIndex = new Map(spaces.map((s) => [s.path, { name: s.name, path: s.path, type: s.type, contexts: [] }]));
  const superstate = {
    initialized: true,
    spacesIndex,
    pathsIndex: new Map(),
    api: {
      table: {
        select: async (path, table) => {
          if (table !== 'files') return undefined;
          return app.vault.getFiles().filter((f) => f.parent?.path === path).map((f) => ({ File: f.path, Name: f.basename }));
        },
      },
    },
  };
  return app.addPlugin('make-md', { superstate }, { name: 'make.md', version: '1.3.3' });
}

/** Omnisearch: `api.search(q)` → ResultNoteApi[] (a plain substring match over file names here). */
export function addOmnisearch(app) {
  const api = {
    search: async (q) =>
      app.vault.getMarkdownFiles()
        .filter((f) => f.basename.toLowerCase().includes(q.toLowerCase()))
        .map((f, i) => ({ score: 10 - i, vault: app.vault.getName(), path: f.path, basename: f.basename, foundWords: [q], matches: [{ match: q, offset: 0 }], excerpt: f.basename })),
    registerOnIndexed() {}, unregisterOnIndexed() {}, refreshIndex: async () => {},
  };
  return app.addPlugin('omnisearch', { api }, { name: 'Omnisearch', version: '1.27.0' });
}

/** An empty core-plugin registry (`app.internalPlugins`) for `addCorePlugin` to fill. */
export function coreRegistry() {
  const plugins = {};
  return { plugins, getPluginById: (id) => plugins[id] ?? null };
}

/** Installs an enabled core plugin with `instance` (the registry is created when absent). */
export function addCorePlugin(app, id, instance) {
  app.internalPlugins ??= coreRegistry();
  const plugin = { enabled: true, instance };
  app.internalPlugins.plugins[id] = plugin;
  return plugin;
}

/** Core Daily notes plugin (`app.internalPlugins`), with its folder / format / template options. */
export function addDailyNotes(app, options) {
  return addCorePlugin(app, 'daily-notes', { options });
}

/**
 * Core Workspaces plugin with saved layouts `names`: `loadWorkspace(name)` makes it the active
 * one (and records it in `loaded`), as Obsidian does after rebuilding the panes.
 */
export function addWorkspaces(app, names) {
  const instance = {
    workspaces: Object.fromEntries(names.map((name) => [name, { main: { type: 'split', children: [] } }])),
    activeWorkspace: '',
    loaded: [],
    async loadWorkspace(name) {
      this.activeWorkspace = name;
      this.loaded.push(name);
    },
  };
  return addCorePlugin(app, 'workspaces', instance);
}

/**
 * Remotely Save, as `generation` shapes it: "0.5" (0.5.25: `isSyncing`, the last success in
 * `db.simpleKVForMiscTbl` under `${vaultRandomID}-lastSuccessSyncMillis`) or "0.3" (0.3.25:
 * `syncStatus`, `settings.lastSuccessSync`). Its command `remotely-save:start-sync` starts a sync
 * run (`plugin.runs` counts them), which succeeds when the test calls `plugin.finishSync()`.
 */
export function addRemotelySave(app, { generation = '0.5', lastSuccess = null } = {}) {
  const kv = new Map();
  const plugin = { runs: 0 };
  const succeeded = (ms) => {
    if (generation === '0.3') plugin.settings.lastSuccessSync = ms;
    else kv.set('v-42-lastSuccessSyncMillis', ms);
  };
  if (generation === '0.3') {
    Object.assign(plugin, { syncStatus: 'idle', settings: { lastSuccessSync: -1 } });
  } else {
    Object.assign(plugin, { isSyncing: false, settings: {}, vaultRandomID: 'v-42', db: { simpleKVForMiscTbl: { getItem: async (key) => kv.get(key) ?? null } } });
  }
  if (lastSuccess !== null) succeeded(lastSuccess);
  const setSyncing = (on) => {
    if (generation === '0.3') plugin.syncStatus = on ? 'syncing' : 'idle';
    else plugin.isSyncing = on;
  };
  app.commands.commands['remotely-save:start-sync'] = {
    id: 'remotely-save:start-sync',
    name: 'Remotely Save: Start sync',
    callback: () => {
      plugin.runs += 1;
      setSyncing(true);
    },
  };
  plugin.finishSync = () => { succeeded(Date.now()); setSyncing(false); };
  return app.addPlugin('remotely-save', plugin, { name: 'Remotely Save', version: generation === '0.3' ? '0.3.25' : '0.5.25' });
}

/** Datacore's Link (src/expression/link.ts): path, display, subpath, embed, type, markdown(). */
export class DatacoreLink {
  constructor(path) { this.path = path; this.embed = false; this.type = 'file'; }
  markdown() { return `[[${this.path}]]`; }
}

/** Datacore's DateTime (Luxon). */
export const datacoreDate = (iso) => new FakeDateTime(Date.parse(iso));

/**
 * Datacore 0.1.28 over the indexed objects `rows` (each with `$types`, `$tags`, ...):
 * `api.tryParseQuery` understands `@<type>` optionally followed by `and #<tag>`; `api.tryQuery`
 * runs a parsed one. `plugin.api.core.initialized` is true.
 */
export function addDatacore(app, rows) {
  const api = {
    core: { initialized: true },
    queries: [],
    tryParseQuery(query) {
      const m = /^@([a-z-]+)(?:\s+and\s+(#[\w/-]+))?$/.exec(query.trim());
      if (!m) return { successful: false, error: `-- PARSING FAILED --\n> 1 | ${query}\n    | ^\nExpected '@'` };
      return { successful: true, value: { type: m[1], tag: m[2] ?? null } };
    },
    tryQuery(query) {
      api.queries.push(query);
      const parsed = typeof query === 'string' ? api.tryParseQuery(query) : { successful: true, value: query };
      if (!parsed.successful) throw new Error(parsed.error);
      const { type, tag } = parsed.value;
      return { successful: true, value: rows.filter((r) => r.$types.includes(type) && (tag === null || (r.$tags ?? []).includes(tag))) };
    },
  };
  return app.addPlugin('datacore', { api }, { name: 'Datacore', version: '0.1.28' });
}

/**
 * Metadata Menu 0.8.10: `api.namedFileFields(fileOrPath)` answers `fields[path]` (IFieldInfo
 * records by field name) for a Markdown file and throws for anything else, as the plugin does.
 * `plugin.asked` records the paths it was asked about.
 */
export function addMetadataMenu(app, fields) {
  const plugin = { asked: [] };
  plugin.api = {
    namedFileFields: async (fileOrPath) => {
      const file = typeof fileOrPath === 'string' ? app.vault.getAbstractFileByPath(fileOrPath) : fileOrPath;
      if (!(file instanceof TFile) || file.extension !== 'md') throw Error("path doesn't correspond to a proper file");
      plugin.asked.push(file.path);
      return fields[file.path] ?? {};
    },
  };
  return app.addPlugin('metadata-menu', plugin, { name: 'Metadata Menu', version: '0.8.10' });
}

// A minimal runtime stand-in for the `obsidian` module (the npm package holds only types):
// just what the TC Bridge bundle touches, recording what the plugin did so tests can assert it.
import http from 'node:http';

export const notices = [];

/** The Obsidian API version the stub stands for (`apiVersion` of the real module). */
export const apiVersion = '1.13.1';

/** Obsidian's `normalizePath`: forward slashes, no duplicate, leading or trailing slash. */
export function normalizePath(path) {
	const p = String(path).replace(/[\\/]+/g, '/').replace(/^\/+|\/+$/g, '');
	return p === '' ? '/' : p.normalize('NFC');
}

export class TAbstractFile {
	constructor(vault, path, parent) {
		this.vault = vault;
		this.path = path;
		this.name = path.split('/').pop() ?? path;
		this.parent = parent ?? null;
	}
}

export class TFile extends TAbstractFile {
	constructor(vault, path, parent, stat) {
		super(vault, path, parent);
		const dot = this.name.lastIndexOf('.');
		this.basename = dot > 0 ? this.name.slice(0, dot) : this.name;
		this.extension = dot > 0 ? this.name.slice(dot + 1) : '';
		this.stat = stat;
	}
}

export class TFolder extends TAbstractFile {
	constructor(vault, path, parent) {
		super(vault, path, parent);
		this.children = [];
	}
	isRoot() {
		return this.path === '/';
	}
}

/** Obsidian's `Events`: `on` returns a ref that `offref` removes; `trigger` calls in order. */
export class Events {
	constructor() {
		this._handlers = new Map();
	}
	on(name, callback, ctx) {
		const ref = { e: this, name, fn: callback, ctx };
		if (!this._handlers.has(name)) this._handlers.set(name, []);
		this._handlers.get(name).push(ref);
		return ref;
	}
	off(name, callback) {
		const list = this._handlers.get(name) ?? [];
		this._handlers.set(name, list.filter((r) => r.fn !== callback));
	}
	offref(ref) {
		this.off(ref.name, ref.fn);
	}
	trigger(name, ...args) {
		for (const ref of [...(this._handlers.get(name) ?? [])]) ref.fn.apply(ref.ctx, args);
	}
}

export class Notice {
	constructor(message, timeout) {
		this.message = message;
		this.timeout = timeout;
		notices.push(message);
	}
	hide() {}
}

export class Component {
	constructor() {
		this._cleanups = [];
	}
	register(cb) {
		this._cleanups.push(cb);
	}
	registerEvent(ref) {
		this._cleanups.push(() => ref.e.offref(ref));
	}
	registerInterval(id) {
		this._cleanups.push(() => clearInterval(id));
		return id;
	}
	load() {}
	unload() {
		for (const cb of this._cleanups.splice(0).reverse()) cb();
	}
}

export class Plugin extends Component {
	constructor(app, manifest) {
		super();
		this.app = app;
		this.manifest = manifest;
		this.settingTabs = [];
	}
	async loadData() {
		return this.app.__data ?? null;
	}
	async saveData(data) {
		this.app.__data = JSON.parse(JSON.stringify(data));
	}
	addSettingTab(tab) {
		this.settingTabs.push(tab);
	}
}

class FakeElement {
	constructor() {
		this.children = [];
	}
	empty() {
		this.children = [];
	}
}

export class PluginSettingTab {
	constructor(app, plugin) {
		this.app = app;
		this.plugin = plugin;
		this.containerEl = new FakeElement();
	}
	display() {}
	hide() {}
}

class TextComponent {
	constructor() {
		this.value = "";
		this.disabled = false;
		this.onChangeCb = null;
	}
	setValue(v) {
		this.value = v;
		return this;
	}
	getValue() {
		return this.value;
	}
	setDisabled(d) {
		this.disabled = d;
		return this;
	}
	setPlaceholder() {
		return this;
	}
	onChange(cb) {
		this.onChangeCb = cb;
		return this;
	}
}

export class Setting {
	constructor(containerEl) {
		this.name = "";
		this.desc = "";
		this.components = [];
		containerEl.children.push(this);
	}
	setName(n) {
		this.name = n;
		return this;
	}
	setDesc(d) {
		this.desc = d;
		return this;
	}
	setHeading() {
		return this;
	}
	addText(cb) {
		const t = new TextComponent();
		this.components.push(t);
		cb(t);
		return this;
	}
}

// ---- Stand-ins for the companion API, approval dialog, settings tab and status bar ----

/** An HTMLElement stand-in with Obsidian's helpers (createEl, setText, empty, ...). */
export class StubElement {
	constructor(tag = 'div', opts = {}) {
		this.tag = tag;
		this.children = [];
		this.text = opts.text ?? '';
		this.cls = opts.cls ?? '';
	}
	createEl(tag, opts = {}) {
		const el = new StubElement(tag, opts);
		this.children.push(el);
		return el;
	}
	createDiv(opts = {}) {
		return this.createEl('div', opts);
	}
	createSpan(opts = {}) {
		return this.createEl('span', opts);
	}
	setText(text) {
		this.text = String(text);
	}
	getText() {
		return this.text;
	}
	empty() {
		this.children = [];
		this.text = '';
	}
	addClass(cls) {
		this.cls = `${this.cls} ${cls}`.trim();
	}
	remove() {}
}

/** Every Modal opened so far, in order (tests press its buttons or close it). */
export const openedModals = [];

/** Obsidian's Modal: `open` runs onOpen, `close` runs onClose once. */
export class Modal {
	constructor(app) {
		this.app = app;
		this.titleEl = new StubElement('div');
		this.contentEl = new StubElement('div');
		this.isOpen = false;
	}
	open() {
		this.isOpen = true;
		openedModals.push(this);
		this.onOpen?.();
	}
	close() {
		if (!this.isOpen) return;
		this.isOpen = false;
		this.onClose?.();
	}
	setTitle(title) {
		this.titleEl.setText(title);
		return this;
	}
	/** Test helper: every button in the modal's Settings. */
	buttons() {
		const found = [];
		const walk = (el) => {
			for (const child of el.children ?? []) {
				for (const c of child.components ?? []) if (c instanceof ButtonComponent) found.push(c);
				walk(child);
			}
		};
		walk(this.contentEl);
		return found;
	}
	/** Test helper: clicks the button labelled `text`. */
	async press(text) {
		const button = this.buttons().find((b) => b.text === text);
		if (!button) throw new Error(`no button '${text}' in the modal`);
		await button.click();
	}
}

export class ButtonComponent {
	constructor() {
		this.text = '';
		this.cta = false;
		this.onClickCb = null;
	}
	setButtonText(text) {
		this.text = text;
		return this;
	}
	setCta() {
		this.cta = true;
		return this;
	}
	setWarning() {
		return this;
	}
	setTooltip() {
		return this;
	}
	onClick(cb) {
		this.onClickCb = cb;
		return this;
	}
	/** Test helper: what a click does. */
	async click() {
		await this.onClickCb?.();
	}
}

class ValueComponent {
	constructor() {
		this.value = undefined;
		this.onChangeCb = null;
	}
	setValue(v) {
		this.value = v;
		return this;
	}
	getValue() {
		return this.value;
	}
	setPlaceholder() {
		return this;
	}
	setDisabled(d) {
		this.disabled = d;
		return this;
	}
	onChange(cb) {
		this.onChangeCb = cb;
		return this;
	}
	/** Test helper: what typing or picking a value does. */
	async change(v) {
		this.value = v;
		await this.onChangeCb?.(v);
	}
}

export class ToggleComponent extends ValueComponent {}
export class TextAreaComponent extends ValueComponent {}
export class DropdownComponent extends ValueComponent {
	constructor() {
		super();
		this.options = {};
	}
	addOptions(options) {
		Object.assign(this.options, options);
		return this;
	}
	addOption(value, label) {
		this.options[value] = label;
		return this;
	}
}

/** Test helper: the existing TextComponent also accepts a typed value. */
TextComponent.prototype.change = async function change(v) {
	this.value = v;
	await this.onChangeCb?.(v);
};

for (const [method, Component] of [
	['addButton', ButtonComponent],
	['addToggle', ToggleComponent],
	['addTextArea', TextAreaComponent],
	['addDropdown', DropdownComponent],
]) {
	Setting.prototype[method] = function add(cb) {
		const c = new Component();
		this.components.push(c);
		cb(c);
		return this;
	};
}

/** Status-bar items the plugin added (each a StubElement). */
Plugin.prototype.addStatusBarItem = function addStatusBarItem() {
	const el = new StubElement('div');
	(this.statusBarItems ??= []).push(el);
	return el;
};
// Obsidian re-exports moment.js; the stand-in is the moment the `obsidian` package itself depends on
// (2.29.4, installed with it; a direct devDependency would trip the store lint's depend/ban-dependencies).
export { default as moment } from 'moment';
// --- search (plugin/src/search): parseYaml, SuggestModal, Plugin.addCommand ---

import { parse as parseYamlText } from 'yaml';

/** Obsidian's `parseYaml`, with the `yaml` package (YAML 1.2 core schema: dates stay text). */
export function parseYaml(text) {
	return parseYamlText(text);
}

/** Obsidian's `SuggestModal`: records what was opened; tests drive the suggestion hooks. */
export class SuggestModal {
	constructor(app) {
		this.app = app;
		this.placeholder = '';
		this.isOpen = false;
	}
	setPlaceholder(text) {
		this.placeholder = text;
	}
	open() {
		this.isOpen = true;
		SuggestModal.opened.push(this);
	}
	close() {
		this.isOpen = false;
	}
}
SuggestModal.opened = [];

/** `Plugin.addCommand`: commands the plugin added, by id, in `plugin.commands`. */
Plugin.prototype.addCommand = function addCommand(command) {
	this.commands ??= {};
	this.commands[command.id] = command;
	return command;
};

// --- warm index and native server (plugin/src/search, plugin/src/sidecar): debounce, requestUrl ---

/** Obsidian's `debounce`: `cb` runs `timeout` ms after the last call (`resetTimer`) or the first. */
export function debounce(cb, timeout = 0, resetTimer = false) {
	let timer = null;
	let args = [];
	const fire = () => {
		timer = null;
		return cb(...args);
	};
	const debounced = (...next) => {
		args = next;
		if (timer !== null && !resetTimer) return debounced;
		if (timer !== null) clearTimeout(timer);
		timer = setTimeout(fire, timeout);
		return debounced;
	};
	debounced.cancel = () => {
		if (timer !== null) clearTimeout(timer);
		timer = null;
		return debounced;
	};
	debounced.run = () => {
		if (timer === null) return undefined;
		clearTimeout(timer);
		return fire();
	};
	return debounced;
}

/**
 * Obsidian's `requestUrl` over node:http: the whole body at once, headers with lowercase names;
 * a status of 400 or more rejects unless `throw: false`. `requestUrl.calls` counts the requests.
 */
export function requestUrl(request) {
	const r = typeof request === 'string' ? { url: request } : request;
	const headers = { ...(r.headers ?? {}) };
	if (r.contentType !== undefined) headers['content-type'] = r.contentType;
	requestUrl.calls++;
	return new Promise((resolve, reject) => {
		const req = http.request(new URL(r.url), { method: r.method ?? 'GET', headers, agent: false }, (res) => {
			const chunks = [];
			res.on('data', (c) => chunks.push(c));
			res.on('end', () => {
				const body = Buffer.concat(chunks);
				const text = body.toString('utf8');
				const response = {
					status: res.statusCode,
					headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)])),
					text,
					arrayBuffer: body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength),
					get json() {
						return JSON.parse(text);
					},
				};
				if (res.statusCode >= 400 && r.throw !== false) reject(Object.assign(new Error(`Request failed, status ${res.statusCode}`), { status: res.statusCode }));
				else resolve(response);
			});
		});
		req.on('error', reject);
		if (r.body !== undefined) req.write(r.body);
		req.end();
	});
}
requestUrl.calls = 0;

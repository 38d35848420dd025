// A minimal runtime stand-in for the `obsidian` module (the npm package holds only types):
// just what the TC Bridge bundle touches, recording what the plugin did so tests can assert it.

export const notices = [];

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

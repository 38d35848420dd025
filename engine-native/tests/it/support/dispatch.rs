//! A real server for dispatch tests: two vaults in a temp dir, a config file, a real
//! `cache.db`, a manual clock, and helpers to call tools and read the audit log.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use engine_core::acl::Scope;
use obsidian_tc::auth::Caller;
use obsidian_tc::config::{ConfigOrigin, LoadInput, load};
use obsidian_tc::dispatch::register_builtin;
use obsidian_tc::dispatch::{CallOutcome, Dispatcher};
use obsidian_tc::errors::{ErrorCode, ToolError};
use obsidian_tc::runtime::{Handler, ManualClock, Naming, Registry, ToolDef};
use obsidian_tc::schema::validate::KNOWN_KEYWORDS;
use obsidian_tc::store::{LoggedEvent, PendingElicit};
use serde_json::{Value, json};
use tempfile::TempDir;

/// A dispatcher on `<dir>/config.json` with the built-in tools and `tools`.
fn open_server(dir: &Path, clock: Arc<ManualClock>, tools: Vec<ToolDef>) -> Dispatcher {
    let path = dir.join("config.json");
    let text = std::fs::read_to_string(&path).expect("config file");
    let loaded = load(&LoadInput {
        origin: ConfigOrigin::File { path, text },
        env: BTreeMap::new(),
        overrides: Vec::new(),
    })
    .expect("valid config");
    let mut registry = Registry::new(loaded.config.tool_visibility.clone());
    register_builtin(&mut registry).expect("built-in tools");
    for tool in tools {
        registry.register(tool).expect("test tool");
    }
    Dispatcher::with_registry(loaded, clock, registry).expect("dispatcher")
}

/// 2026-01-01T00:00:00Z in milliseconds.
pub const START_MS: u64 = 1_767_225_600_000;

pub struct Fixture {
    pub dir: TempDir,
    pub clock: Arc<ManualClock>,
    pub server: Dispatcher,
}

impl Fixture {
    /// Vaults `main` and `other`, embeddings off, with `extra` merged into the config root.
    pub fn new(extra: Value) -> Fixture {
        Fixture::with_tools(extra, Vec::new())
    }

    /// Like [`Fixture::new`], with test tools registered next to the built-in ones.
    pub fn with_tools(extra: Value, tools: Vec<ToolDef>) -> Fixture {
        let dir = TempDir::new().expect("temp dir");
        for vault in ["main", "other"] {
            std::fs::create_dir_all(dir.path().join(vault)).expect("vault folder");
        }
        // Embeddings off unless `extra` has its own block: lexical, no model download.
        let mut config = json!({
            "vaults": [{"id": "main", "path": "main"}, {"id": "other", "path": "other"}],
            "embeddings": {"provider": "none"}
        });
        if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
            root.extend(extra);
        }
        let path = dir.path().join("config.json");
        std::fs::write(&path, config.to_string()).expect("config file");
        let clock = Arc::new(ManualClock::new(START_MS));
        let server = open_server(dir.path(), clock.clone(), tools);
        Fixture { dir, clock, server }
    }

    /// A second server on this fixture's config file and cache (a restart), with the
    /// built-in tools.
    pub fn reopen(&self) -> Dispatcher {
        open_server(self.dir.path(), self.clock.clone(), Vec::new())
    }

    pub fn vault_dir(&self, vault: &str) -> PathBuf {
        self.dir.path().join(vault)
    }

    /// Writes a file into a vault folder directly.
    pub fn write(&self, vault: &str, rel: &str, content: &str) {
        let path = self.vault_dir(vault).join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("folders");
        }
        std::fs::write(path, content).expect("file");
    }

    pub fn exists(&self, vault: &str, rel: &str) -> bool {
        self.vault_dir(vault).join(rel).exists()
    }

    pub fn call(&self, caller: &Caller, tool: &str, args: Value) -> CallOutcome {
        self.server.call(caller, tool, args)
    }

    /// Calls as the stdio caller and expects success.
    pub fn ok(&self, tool: &str, args: Value) -> Value {
        match self.call(&Caller::stdio(), tool, args).result {
            Ok(value) => value,
            Err(error) => panic!("{tool} failed: {error}"),
        }
    }

    /// Calls as `caller` and expects the error `code`.
    pub fn err_as(&self, caller: &Caller, tool: &str, args: Value, code: ErrorCode) -> ToolError {
        match self.call(caller, tool, args).result {
            Ok(value) => panic!("{tool} succeeded with {value}, expected {code}"),
            Err(error) => {
                assert_eq!(error.code, code, "{tool}: {error}");
                error
            }
        }
    }

    /// Calls as the stdio caller and expects the error `code`.
    pub fn err(&self, tool: &str, args: Value, code: ErrorCode) -> ToolError {
        self.err_as(&Caller::stdio(), tool, args, code)
    }

    /// Every audit row, oldest first.
    pub fn events(&self) -> Vec<LoggedEvent> {
        let mut events = self
            .server
            .runtime()
            .store()
            .events()
            .recent(None, 1000)
            .expect("events");
        events.reverse();
        events
    }

    /// Approves, in the store, the call with this `args_hash` (as the human would: any vault,
    /// any caller, for 300 s).
    pub fn approve(&self, args_hash: &str) {
        self.server
            .runtime()
            .store()
            .elicit()
            .approve(args_hash, None, None, 300, self.now_s())
            .expect("approve");
    }

    /// The pending approval requests (and unused approved tokens) of `vault`, or of all.
    pub fn pending_elicits(&self, vault: Option<&str>) -> Vec<PendingElicit> {
        self.server
            .runtime()
            .store()
            .elicit()
            .list(vault, self.now_s())
            .expect("list pending approvals")
    }

    /// Approves the call an `elicit_required` error is about.
    pub fn approve_error(&self, error: &ToolError) {
        self.approve(error.details["args_hash"].as_str().expect("args_hash"));
    }

    pub fn now_s(&self) -> i64 {
        (self.clock_ms() / 1000) as i64
    }

    pub fn clock_ms(&self) -> u64 {
        use obsidian_tc::runtime::Clock;
        self.clock.now_ms()
    }
}

/// A caller with these scopes, optionally bound to a vault (as a token's `vault` claim
/// binds it; without one it sees every vault, as stdio does).
pub fn caller(id: &str, scopes: &[&str], vault: Option<&str>) -> Caller {
    Caller {
        id: id.to_owned(),
        scopes: scopes
            .iter()
            .map(|s| Scope::parse(s).expect("scope"))
            .collect(),
        vault_binding: vault.map(str::to_owned),
        token_without_vault: false,
    }
}

/// A caller holding a bearer JWT without a `vault` claim, with these scopes.
pub fn claimless_token_caller(id: &str, scopes: &[&str]) -> Caller {
    Caller {
        token_without_vault: true,
        ..caller(id, scopes, None)
    }
}

pub fn root_of(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Every keyword of `schema` is one the validator applies or deliberately ignores, so a value
/// cannot pass only because a keyword was skipped.
pub fn assert_known_keywords(schema: &Value) {
    /// `name_map`: `value` maps property or definition names to schemas (not keywords).
    fn walk(value: &Value, name_map: bool) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    if name_map {
                        walk(child, false);
                        continue;
                    }
                    assert!(KNOWN_KEYWORDS.contains(&key.as_str()), "keyword {key}");
                    if !["default", "examples", "const", "enum"].contains(&key.as_str()) {
                        walk(child, key == "properties" || key == "$defs");
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|item| walk(item, false)),
            _ => {}
        }
    }
    walk(schema, false);
}

/// The `path` of each item of a search answer's `results`, in order.
pub fn result_paths(found: &Value) -> Vec<String> {
    found["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["path"].as_str().expect("path").to_owned())
        .collect()
}

/// Makes the vault refuse every change to the file at `path` (as `chattr +i` would, through
/// the `fault-injection` feature, so it works in containers without `CAP_LINUX_IMMUTABLE`)
/// until the guard is dropped. Only with that feature: the tests using it are in `faults`.
#[cfg(feature = "fault-injection")]
pub struct Immutable {
    _guard: obsidian_tc::vault::fault::RefuseChanges,
}

#[cfg(feature = "fault-injection")]
impl Immutable {
    pub fn set(path: std::path::PathBuf) -> Immutable {
        let guard = obsidian_tc::vault::fault::RefuseChanges::mark(&path)
            .unwrap_or_else(|error| panic!("cannot mark {}: {error}", path.display()));
        Immutable { _guard: guard }
    }
}

/// Every file under `root` (dot folders included, but not the vaults' lock files) with its
/// bytes.
pub fn snapshot(root: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    walk(root, root, &mut out);
    out
}

fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
    for entry in std::fs::read_dir(dir).expect("read_dir") {
        let entry = entry.expect("entry");
        let path = entry.path();
        if entry.file_type().expect("type").is_dir() {
            if !crate::support::gates::is_lock_folder(&path) {
                walk(root, &path, out);
            }
        } else {
            let rel = path
                .strip_prefix(root)
                .expect("inside")
                .to_string_lossy()
                .into_owned();
            out.insert(rel, std::fs::read(&path).expect("read"));
        }
    }
}

/// A `write:notes` test tool whose one argument is the string `path`.
pub fn path_tool(naming: Naming, handler: Handler) -> ToolDef {
    ToolDef::new(
        naming,
        "test",
        (
            json!({
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
                "additionalProperties": false
            }),
            None,
        ),
        handler,
    )
    .scopes(&["write:notes"])
}

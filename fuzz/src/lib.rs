//! What the fuzz targets over the server share: a real dispatcher on a vault in a fresh
//! temporary folder (embeddings off, every built-in tool), opened once per fuzzing process
//! and removed when the process exits, and the invariants of a tool call's outcome.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use obsidian_tc::auth::Caller;
use obsidian_tc::config::disk::load_for_command_line;
use obsidian_tc::config::flags::ConfigFlags;
use obsidian_tc::dispatch::Dispatcher;
use obsidian_tc::errors::{ErrorCode, ToolError};
use obsidian_tc::runtime::SystemClock;
use serde_json::{Value, json};

/// The server every target of one process drives: its dispatcher and its vault folder.
pub struct Fixture {
    /// The dispatcher over vault `main`.
    pub dispatcher: Arc<Dispatcher>,
    /// The folder of vault `main`.
    pub vault: PathBuf,
}

/// The folder holding the fixture's config, vault and cache (removed at exit).
static ROOT: OnceLock<PathBuf> = OnceLock::new();

extern "C" fn remove_root() {
    if let Some(root) = ROOT.get() {
        let _ = std::fs::remove_dir_all(root);
    }
}

/// The fixture of this process: a dispatcher on a config file naming one vault, `main`, with
/// one note in it; opened on first use.
pub fn fixture() -> &'static Fixture {
    static FIXTURE: OnceLock<Fixture> = OnceLock::new();
    FIXTURE.get_or_init(|| {
        let root = std::env::temp_dir().join(format!("obsidian-tc-fuzz-{}", std::process::id()));
        let vault = root.join("main");
        std::fs::create_dir_all(&vault).expect("fuzz vault folder");
        ROOT.set(root.clone()).expect("one fixture per process");
        // SAFETY: `remove_root` is a plain `extern "C" fn` that only reads a static set above.
        unsafe { libc::atexit(remove_root) };
        std::fs::write(
            vault.join("Note.md"),
            "---\ntags: [a]\n---\n# Note\n\nText [[Other]] #b\n- [ ] task\n",
        )
        .expect("fuzz note");
        let config = json!({
            "vaults": [{"id": "main", "path": "main"}],
            "embeddings": {"provider": "none"},
            "throttle": {"enabled": false}
        });
        let path = root.join("config.json");
        std::fs::write(&path, config.to_string()).expect("fuzz config");
        // Loaded as `obsidian-tc --config <file>` loads it, without the process environment.
        let flags = ConfigFlags {
            config: Some(path),
            ..ConfigFlags::default()
        };
        let loaded =
            load_for_command_line(&flags, BTreeMap::new(), &root).expect("the fuzz config loads");
        let dispatcher = Dispatcher::new(loaded, Arc::new(SystemClock)).expect("fuzz dispatcher");
        Fixture {
            dispatcher: Arc::new(dispatcher),
            vault,
        }
    })
}

impl Fixture {
    /// Runs `name` with `args` as the trusted stdio caller, checking [`check_outcome`].
    pub fn call(&self, name: &str, args: Value) -> Result<Value, ToolError> {
        let outcome = self.dispatcher.call(&Caller::stdio(), name, args);
        check_outcome(name, &outcome.result);
        outcome.result
    }

    /// Writes `bytes` at `relative` inside the vault (creating folders).
    pub fn write(&self, relative: &str, bytes: &[u8]) {
        let path = self.vault.join(relative);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("fuzz vault folder");
        }
        std::fs::write(path, bytes).expect("fuzz vault file");
    }

    /// The bytes at `relative` inside the vault.
    pub fn read(&self, relative: &str) -> Vec<u8> {
        std::fs::read(self.vault.join(relative)).expect("fuzz vault file")
    }

    /// The vault folder.
    pub fn vault(&self) -> &Path {
        &self.vault
    }
}

/// The invariants of any tool call's outcome: a success is a JSON object; a failure is a
/// typed error, never `internal` (the code the server gives a bug), with a message and a
/// JSON object of details.
pub fn check_outcome(name: &str, result: &Result<Value, ToolError>) {
    match result {
        Ok(value) => assert!(
            value.is_object(),
            "{name}: a result that is not an object: {value}"
        ),
        Err(error) => {
            assert_ne!(
                error.code,
                ErrorCode::Internal,
                "{name}: internal error: {error:?}"
            );
            assert!(
                !error.message.is_empty(),
                "{name}: an error without a message"
            );
            assert!(
                error.details.is_object(),
                "{name}: details not an object: {error:?}"
            );
        }
    }
}

//! The product under test: a real [`Dispatcher`] on a real config file and `cache.db`, every
//! built-in tool registered, called through [`Dispatcher::call`] as the stdio caller (what an
//! MCP client on stdio reaches), exactly as the integration tests do.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use obsidian_tc::config::{ConfigOrigin, LoadInput, load};
use obsidian_tc::dispatch::{Caller, Dispatcher, SystemClock};
use serde_json::{Value, json};

/// The id the vault under test is served as.
pub const VAULT_ID: &str = "eval";

/// The most results `search_vault` returns per page.
const PAGE_LIMIT: usize = 100;

/// A server on one vault, its cache in a folder of its own.
pub struct Product {
    config_path: PathBuf,
    server: Dispatcher,
    caller: Caller,
}

/// What one `index_vault` call did.
pub struct IndexRun {
    /// Wall time of the call, milliseconds.
    pub wall_ms: f64,
    /// The tool's result (`added`, `failed`, `duration_ms`, ...).
    pub report: Value,
}

impl Product {
    /// Writes `<work>/config.json` serving `vault` (read-only for the product: the cache goes
    /// to `<work>/cache`; no watcher, no start-up scan, no throttle) and opens a server on it.
    pub fn create(work: &Path, vault: &Path) -> Result<Product, String> {
        let config = json!({
            "vaults": [{"id": VAULT_ID, "path": vault.to_string_lossy()}],
            "cacheDir": work.join("cache").to_string_lossy(),
            "throttle": {"enabled": false},
            "index": {"scanOnStart": false, "watch": false},
        });
        let config_path = work.join("config.json");
        std::fs::write(&config_path, config.to_string())
            .map_err(|e| format!("{}: {e}", config_path.display()))?;
        Product::open(&config_path)
    }

    /// A new server on an existing config file (a restart: same cache).
    pub fn open(config_path: &Path) -> Result<Product, String> {
        let text = std::fs::read_to_string(config_path)
            .map_err(|e| format!("{}: {e}", config_path.display()))?;
        let loaded = load(&LoadInput {
            origin: ConfigOrigin::File {
                path: config_path.to_path_buf(),
                text,
            },
            env: BTreeMap::new(),
            overrides: Vec::new(),
        })
        .map_err(|e| format!("invalid config: {e}"))?;
        let server = Dispatcher::new(loaded, Arc::new(SystemClock))
            .map_err(|e| format!("cannot start the server: {e}"))?;
        Ok(Product {
            config_path: config_path.to_path_buf(),
            server,
            caller: Caller::stdio(),
        })
    }

    /// The config file this server runs on.
    pub fn config_path(&self) -> &Path {
        &self.config_path
    }

    /// The server.
    pub fn dispatcher(&self) -> &Dispatcher {
        &self.server
    }

    /// Calls `tool` with `args` (the vault added) and returns its result.
    pub fn call(&self, tool: &str, mut args: Value) -> Result<Value, String> {
        if let Value::Object(map) = &mut args {
            map.insert("vault".to_owned(), json!(VAULT_ID));
        }
        self.server
            .call(&self.caller, tool, args)
            .result
            .map_err(|e| format!("{tool}: {e}"))
    }

    /// Runs `index_vault`, timed.
    pub fn index(&self) -> Result<IndexRun, String> {
        let start = Instant::now();
        let report = self.call("index_vault", json!({}))?;
        Ok(IndexRun {
            wall_ms: start.elapsed().as_secs_f64() * 1e3,
            report,
        })
    }

    /// The paths `search_vault` ranks for `query` in `mode`, best first, down to `depth`
    /// (paged with `cursor` past the tool's page limit).
    pub fn search(&self, query: &str, mode: &str, depth: usize) -> Result<Vec<String>, String> {
        let mut paths = Vec::with_capacity(depth);
        let mut cursor: Option<String> = None;
        while paths.len() < depth {
            let mut args = json!({
                "query": query,
                "mode": mode,
                "limit": (depth - paths.len()).min(PAGE_LIMIT),
            });
            if let Some(cursor) = &cursor {
                args["cursor"] = json!(cursor);
            }
            let page = self.call("search_vault", args)?;
            let results = page["results"]
                .as_array()
                .ok_or("search_vault: no results array")?;
            for result in results {
                let path = result["path"]
                    .as_str()
                    .ok_or("search_vault: a result without a path")?;
                paths.push(path.to_owned());
            }
            match page["cursor"].as_str() {
                Some(next) if !results.is_empty() => cursor = Some(next.to_owned()),
                _ => break,
            }
        }
        Ok(paths)
    }
}

//! The product under test: a real [`Dispatcher`] on a real config file and `cache.db`, every
//! built-in tool registered, called through [`Dispatcher::call`] as the stdio caller (what an
//! MCP client on stdio reaches), exactly as the integration tests do.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use obsidian_tc::auth::Caller;
use obsidian_tc::config::{ConfigOrigin, LoadInput, load};
use obsidian_tc::dispatch::Dispatcher;
use obsidian_tc::runtime::SystemClock;
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
    /// With `model`, the `local` embedding provider runs that sentence-transformers folder.
    /// A cache left in `<work>` by an earlier run is used as is (index_vault then only
    /// catches up), so a slow embedding is paid once.
    pub fn create(
        work: &Path,
        vault: &Path,
        model: Option<&Path>,
        search: Option<&str>,
    ) -> Result<Product, String> {
        // The config lives in `work`: paths in it must not be relative to the caller's folder.
        let vault = vault
            .canonicalize()
            .map_err(|e| format!("{}: {e}", vault.display()))?;
        let model = match model {
            Some(model) => Some(
                model
                    .canonicalize()
                    .map_err(|e| format!("{}: {e}", model.display()))?,
            ),
            None => None,
        };
        let mut config = json!({
            "vaults": [{"id": VAULT_ID, "path": vault.to_string_lossy()}],
            "cacheDir": work.join("cache").to_string_lossy(),
            "throttle": {"enabled": false},
            "index": {"scanOnStart": false, "watch": false},
        });
        if let Some(search) = search {
            config["search"] =
                serde_json::from_str(search).map_err(|e| format!("--search {search}: {e}"))?;
        }
        config["embeddings"] = match &model {
            Some(model) => json!({"provider": "local", "modelPath": model.to_string_lossy()}),
            None => json!({"provider": "none"}),
        };
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
        Ok(self
            .search_scored(query, mode, depth)?
            .into_iter()
            .map(|(path, _)| path)
            .collect())
    }

    /// Like [`Product::search`], with each note's rank score.
    pub fn search_scored(
        &self,
        query: &str,
        mode: &str,
        depth: usize,
    ) -> Result<Vec<(String, f64)>, String> {
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
                let score = result["score"]
                    .as_f64()
                    .ok_or("search_vault: a result without a score")?;
                paths.push((path.to_owned(), score));
            }
            match page["cursor"].as_str() {
                Some(next) if !results.is_empty() => cursor = Some(next.to_owned()),
                _ => break,
            }
        }
        Ok(paths)
    }
}

/// Where a suite keeps its files (a written-out corpus, the cache): a temp folder removed at
/// the end, or `<cache>/<suite>` kept between runs.
pub enum WorkDir {
    /// Removed when dropped.
    Temp(tempfile::TempDir),
    /// Kept.
    Kept(PathBuf),
}

impl WorkDir {
    /// `<cache>/<suite>` (created) when `cache` is given, else a new temp folder.
    pub fn new(cache: Option<&Path>, suite: &str) -> Result<WorkDir, String> {
        match cache {
            Some(cache) => {
                let dir = cache.join(suite);
                std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
                Ok(WorkDir::Kept(dir))
            }
            None => tempfile::TempDir::new()
                .map(WorkDir::Temp)
                .map_err(|e| format!("temp dir: {e}")),
        }
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        match self {
            WorkDir::Temp(dir) => dir.path(),
            WorkDir::Kept(dir) => dir,
        }
    }
}

/// How every suite sets up the product.
pub struct Setup {
    /// The `search_vault` mode measured.
    pub mode: String,
    /// The local embedding model's folder, when embeddings are on.
    pub model: Option<PathBuf>,
    /// Where suites keep their work between runs (`--cache`).
    pub cache: Option<PathBuf>,
    /// The config's `search` section (JSON), when given.
    pub search: Option<String>,
}

impl Setup {
    /// The product on `vault` in the suite's work folder.
    pub fn product(&self, work: &WorkDir, vault: &Path) -> Result<Product, String> {
        Product::create(
            work.path(),
            vault,
            self.model.as_deref(),
            self.search.as_deref(),
        )
    }
}

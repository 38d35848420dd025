//! [`Dispatcher`]: everything one server needs to run tool calls, opened from the config.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use engine_core::acl::{AclConfig, AclConfigError, AclOp, AclPolicy, CaseMode};

use tokio::sync::watch;

use crate::companion::Companions;
use crate::config::{LoadedConfig, ServerConfig, VaultConfig};
use crate::dispatch::caller::Caller;
use crate::dispatch::clock::Clock;
use crate::dispatch::metrics::Metrics;
use crate::dispatch::registry::{Registry, RegistryError};
use crate::errors::ToolError;
use crate::governor::Governor;
use crate::index::Indexes;
use crate::store::{CACHE_DB_FILE, IdempotencyPolicy, Store, StoreError};
use crate::throttle::Throttle;
use crate::tools;
use crate::vault::{Vault, VaultError, VaultOptions};

/// The glob case mode of ACLs on this platform: case-insensitive where the usual filesystem
/// is (macOS, Windows), exact elsewhere.
const ACL_CASE_MODE: CaseMode = if cfg!(any(target_os = "macos", target_os = "windows")) {
    CaseMode::Insensitive
} else {
    CaseMode::Sensitive
};

/// One served vault: its handle and its compiled folder ACL.
#[derive(Debug)]
pub struct VaultEntry {
    /// The vault id callers name it by.
    pub id: String,
    /// The filesystem backend.
    pub vault: Vault,
    /// The compiled ACL (an empty policy when none is configured: only hard-deny applies).
    pub policy: AclPolicy,
    /// Whether an ACL is configured for this vault (its own or the root one).
    pub acl_configured: bool,
    /// The ACL's read-only kill switch.
    pub read_only: bool,
}

impl VaultEntry {
    /// The folder ACL on one path: `Ok` when `granted` may perform `op` on `path`, else
    /// `acl_denied`, `read_only_mode` or `path_invalid`. The one check behind gate 8 and
    /// every tool that meets paths the gate does not see (lists, listings, destinations).
    pub fn check_path(
        &self,
        path: &str,
        op: AclOp,
        granted: &[engine_core::acl::Scope],
    ) -> Result<(), ToolError> {
        let decision = self.policy.evaluate(path, op, granted);
        if decision.allowed {
            Ok(())
        } else {
            Err(ToolError::from_acl_denial(path, &decision))
        }
    }
}

/// Why the dispatcher could not start.
#[derive(Debug)]
pub enum StartError {
    /// The cache database could not be opened.
    Store(StoreError),
    /// A vault folder could not be opened.
    Vault {
        /// The vault id.
        id: String,
        /// Why.
        error: VaultError,
    },
    /// A vault's ACL does not compile (the config loader normally catches this first).
    Acl {
        /// The vault id.
        id: String,
        /// Why.
        error: AclConfigError,
    },
    /// A tool declaration is wrong.
    Registry(RegistryError),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Store(error) => write!(f, "cannot open the cache database: {error}"),
            StartError::Vault { id, error } => write!(f, "cannot open vault {id:?}: {error}"),
            StartError::Acl { id, error } => write!(f, "the ACL of vault {id:?}: {error:?}"),
            StartError::Registry(error) => write!(f, "cannot register the tools: {error}"),
        }
    }
}

impl std::error::Error for StartError {}

/// What one call sees of a server that a reload can change: the configuration, the tools
/// with their visibility rules, and the vaults. A call takes one `Served` when it starts and
/// keeps it to the end, so a reload never changes a call in flight.
#[derive(Debug)]
pub struct Served {
    config: Arc<LoadedConfig>,
    registry: Arc<Registry>,
    vaults: Vec<VaultEntry>,
}

impl Served {
    /// The effective configuration.
    pub fn config(&self) -> &LoadedConfig {
        &self.config
    }

    /// The registered tools and the visibility rules.
    pub fn registry(&self) -> &Registry {
        &self.registry
    }

    /// The served vaults, in config order (the first is the default).
    pub fn vaults(&self) -> &[VaultEntry] {
        &self.vaults
    }

    /// The vaults `caller` may see: its bound vault only, or all.
    pub fn vaults_for<'a>(&'a self, caller: &'a Caller) -> impl Iterator<Item = &'a VaultEntry> {
        self.vaults.iter().filter(move |entry| {
            caller
                .vault_binding
                .as_deref()
                .is_none_or(|bound| bound == entry.id)
        })
    }

    /// The vault with id `id`.
    pub fn vault(&self, id: &str) -> Option<&VaultEntry> {
        self.vaults.iter().find(|entry| entry.id == id)
    }

    /// Whether `id` is the default vault (the first configured).
    pub fn is_default_vault(&self, id: &str) -> bool {
        self.vaults.first().is_some_and(|first| first.id == id)
    }
}

/// Runs tool calls through the dispatch pipeline (see [`crate::dispatch`]). `Send + Sync`:
/// share it in an `Arc` across transports and threads.
pub struct Dispatcher {
    pub(crate) served: RwLock<Arc<Served>>,
    pub(crate) reload_lock: Mutex<()>,
    pub(crate) tool_list: watch::Sender<u64>,
    pub(crate) store: Store,
    pub(crate) throttle: Throttle,
    pub(crate) governor: Governor,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) metrics: Metrics,
    pub(crate) started_ms: u64,
    pub(crate) indexes: Indexes,
    pub(crate) companions: Companions,
}

impl fmt::Debug for Dispatcher {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Dispatcher")
            .field("vaults", &self.served().vaults)
            .field("store", &self.store)
            .field("started_ms", &self.started_ms)
            .finish_non_exhaustive()
    }
}

impl Dispatcher {
    /// Opens everything `config` describes with every built-in tool registered
    /// ([`tools::register_all`]).
    pub fn new(config: LoadedConfig, clock: Arc<dyn Clock>) -> Result<Dispatcher, StartError> {
        let mut registry = Registry::new(config.config.tool_visibility.clone());
        tools::register_all(&mut registry).map_err(StartError::Registry)?;
        Dispatcher::with_registry(config, clock, registry)
    }

    /// Opens everything `config` describes, serving the tools of `registry`: the store at
    /// `<cacheDir>/cache.db`, each vault (hard-link guard on when it has an ACL), each
    /// vault's ACL (its own, else the root one), the throttle and the governor.
    pub fn with_registry(
        config: LoadedConfig,
        clock: Arc<dyn Clock>,
        registry: Registry,
    ) -> Result<Dispatcher, StartError> {
        let server = &config.config;
        let policy = IdempotencyPolicy {
            ttl_seconds: i64::try_from(server.idempotency_ttl_seconds).unwrap_or(i64::MAX),
            reclaim_seconds: i64::try_from(server.idempotency_reclaim_seconds).unwrap_or(i64::MAX),
        };
        let store = Store::open(&config.cache_dir().join(CACHE_DB_FILE), policy)
            .map_err(StartError::Store)?;
        let throttle = Throttle::new(server.throttle);
        let governor = Governor::new(server.governor);
        let served = Served::open(config, registry)?;
        let companions = Companions::default();
        companions.start(&served.config.config.vaults);
        let started_ms = clock.now_ms();
        Ok(Dispatcher {
            throttle,
            governor,
            store,
            clock,
            metrics: Metrics::default(),
            started_ms,
            indexes: Indexes::default(),
            companions,
            reload_lock: Mutex::new(()),
            tool_list: watch::Sender::new(0),
            served: RwLock::new(Arc::new(served)),
        })
    }

    /// What calls starting now see: the configuration, tools and vaults in force.
    pub fn served(&self) -> Arc<Served> {
        Arc::clone(&self.served.read().unwrap_or_else(PoisonError::into_inner))
    }

    /// Replaces what calls starting from now see (a reload); calls in flight keep theirs.
    pub(crate) fn swap_served(&self, served: Served) {
        *self.served.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(served);
    }

    /// The effective configuration.
    pub fn config(&self) -> Arc<LoadedConfig> {
        Arc::clone(&self.served().config)
    }

    /// The registered tools and the visibility rules.
    pub fn registry(&self) -> Arc<Registry> {
        Arc::clone(&self.served().registry)
    }

    /// The generation of the tool list: it moves on each time a reload changes which tools
    /// are visible. Transports watch it to send `notifications/tools/list_changed`.
    pub fn watch_tool_list(&self) -> watch::Receiver<u64> {
        self.tool_list.subscribe()
    }

    /// The TC Bridge companion of each vault that has one.
    pub fn companions(&self) -> &Companions {
        &self.companions
    }

    /// The live search index of every vault.
    pub fn indexes(&self) -> &Indexes {
        &self.indexes
    }

    /// The cache database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The time source.
    pub fn clock(&self) -> &dyn Clock {
        self.clock.as_ref()
    }

    /// The call counters.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// Milliseconds since the dispatcher started.
    pub fn uptime_ms(&self) -> u64 {
        self.clock.now_ms().saturating_sub(self.started_ms)
    }
}

impl Served {
    /// What `config` describes with the tools of `registry`, its vaults opened.
    pub(crate) fn open(config: LoadedConfig, registry: Registry) -> Result<Served, StartError> {
        let vaults = open_vaults(&config.config)?;
        Ok(Served {
            config: Arc::new(config),
            registry: Arc::new(registry),
            vaults,
        })
    }
}

/// Opens every vault of `server` with its compiled ACL (its own, else the root one; the
/// hard-link guard is on when there is one).
fn open_vaults(server: &ServerConfig) -> Result<Vec<VaultEntry>, StartError> {
    server
        .vaults
        .iter()
        .map(|vault| open_vault(server, vault))
        .collect()
}

fn open_vault(server: &ServerConfig, vault: &VaultConfig) -> Result<VaultEntry, StartError> {
    let acl = server.acl_for(vault);
    let options = VaultOptions {
        hard_link_guard: acl.is_some(),
    };
    let handle = Vault::open(std::path::Path::new(&vault.path), options).map_err(|error| {
        StartError::Vault {
            id: vault.id.clone(),
            error,
        }
    })?;
    let acl_config = acl.cloned().unwrap_or_else(AclConfig::default);
    let policy =
        AclPolicy::compile_for(&acl_config, ACL_CASE_MODE).map_err(|error| StartError::Acl {
            id: vault.id.clone(),
            error,
        })?;
    Ok(VaultEntry {
        id: vault.id.clone(),
        vault: handle,
        policy,
        acl_configured: acl.is_some(),
        read_only: acl_config.read_only,
    })
}

//! [`Runtime`]: what every tool call of one running server shares — the cache database, the
//! live search indexes, the TC Bridge companions, the tool catalog's embeddings, the byte
//! governor, the clock, the call counters, and the [`Served`] snapshot a reload swaps.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError, RwLock};

use tokio::sync::watch;

use crate::companion::Companions;
use crate::config::LoadedConfig;
use crate::governor::Governor;
use crate::index::Indexes;
use crate::index::contradictions::ContradictionJudge;
use crate::runtime::catalog_vectors::CatalogVectors;
use crate::runtime::clock::Clock;
use crate::runtime::metrics::Metrics;
use crate::runtime::registry::Registry;
use crate::runtime::served::{Served, StartError};
use crate::sessions::Sessions;
use crate::store::{CACHE_DB_FILE, IdempotencyPolicy, Store};
use crate::vault_cache;

/// The state of one running server. `Send + Sync`: share it across transports and threads.
pub struct Runtime {
    pub(crate) served: RwLock<Arc<Served>>,
    pub(crate) reload_lock: Mutex<()>,
    pub(crate) tool_list: watch::Sender<u64>,
    pub(crate) store: Store,
    pub(crate) governor: Governor,
    pub(crate) clock: Arc<dyn Clock>,
    pub(crate) metrics: Metrics,
    pub(crate) started_ms: u64,
    pub(crate) indexes: Indexes,
    pub(crate) companions: Companions,
    pub(crate) catalog_vectors: CatalogVectors,
    pub(crate) sessions: Sessions,
    pub(crate) contradiction_judge: RwLock<Option<Arc<dyn ContradictionJudge>>>,
}

impl fmt::Debug for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Runtime")
            .field("vaults", &self.served().vaults())
            .field("store", &self.store)
            .field("started_ms", &self.started_ms)
            .finish_non_exhaustive()
    }
}

impl Runtime {
    /// Opens everything `config` describes, serving the tools of `registry`: the cache folder
    /// placed ([`vault_cache::place`]: a zero-config vault's found again, an older in-vault
    /// one moved), the store at `<cacheDir>/cache.db`, each vault (hard-link guard on when it has an ACL), each
    /// vault's ACL (its own, else the root one) and the governor; starts the probe of each
    /// vault's companion.
    pub fn open(
        mut config: LoadedConfig,
        clock: Arc<dyn Clock>,
        registry: Registry,
    ) -> Result<Runtime, StartError> {
        for note in vault_cache::place(&mut config).map_err(StartError::Cache)? {
            tracing::info!("{note}");
        }
        let server = &config.config;
        let policy = IdempotencyPolicy {
            ttl_seconds: i64::try_from(server.idempotency_ttl_seconds).unwrap_or(i64::MAX),
            reclaim_seconds: i64::try_from(server.idempotency_reclaim_seconds).unwrap_or(i64::MAX),
        };
        let store = Store::open(&config.cache_dir().join(CACHE_DB_FILE), policy)
            .map_err(StartError::Store)?;
        let governor = Governor::new(server.governor);
        let metrics = Metrics::new(server.observability.metrics.enabled);
        let sessions = Sessions::new(config.cache_dir());
        let served = Served::open(config, registry)?;
        let companions = Companions::default();
        companions.start(&served.config().config.vaults);
        let started_ms = clock.now_ms();
        Ok(Runtime {
            governor,
            store,
            clock,
            metrics,
            started_ms,
            indexes: Indexes::default(),
            companions,
            catalog_vectors: CatalogVectors::default(),
            sessions,
            contradiction_judge: RwLock::new(None),
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

    /// The tool catalog's embeddings, made once per catalog and model.
    pub fn catalog_vectors(&self) -> &CatalogVectors {
        &self.catalog_vectors
    }

    /// The cache database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The open sessions and their traces.
    pub fn sessions(&self) -> &Sessions {
        &self.sessions
    }

    /// The byte governor every result passes.
    pub fn governor(&self) -> &Governor {
        &self.governor
    }

    /// The time source.
    pub fn clock(&self) -> &dyn Clock {
        self.clock.as_ref()
    }

    /// The call counters.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }

    /// The model set by hand to judge contradictions (an embedder's or a test's); without
    /// one, the configured chat endpoint judges ([`Runtime::judges_contradictions`]).
    pub fn contradiction_judge(&self) -> Option<Arc<dyn ContradictionJudge>> {
        self.contradiction_judge
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Whether a model judges contradictions: one set by hand, or the configured chat
    /// endpoint (`inference.endpoint` and `model`).
    pub fn judges_contradictions(&self) -> bool {
        let config = self.config();
        let inference = &config.config.inference;
        self.contradiction_judge().is_some()
            || (inference.endpoint.is_some() && inference.model.is_some())
    }

    /// Sets (or, with `None`, removes) the model that judges contradictions.
    pub fn set_contradiction_judge(&self, judge: Option<Arc<dyn ContradictionJudge>>) {
        *self
            .contradiction_judge
            .write()
            .unwrap_or_else(PoisonError::into_inner) = judge;
    }

    /// Milliseconds since the server started.
    pub fn uptime_ms(&self) -> u64 {
        self.clock.now_ms().saturating_sub(self.started_ms)
    }
}

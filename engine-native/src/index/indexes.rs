//! [`Indexes`]: the live index of every served vault, shared by the tools, the startup scan
//! and (later) the watcher. A vault's lexical view opens from its saved snapshot (or its
//! stored rows) on first use, so queries never wait for a scan: while one runs, they see
//! every note indexed so far and the status says how far it got.

use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::time::{Duration, Instant};

use engine_core::markdown::ChunkOptions;
use serde::Serialize;

use super::lexical::LexicalView;
use super::links::LinkTables;
use super::lock::WriterLock;
use super::rerank::{Reranker, Rerankers};
use super::scan::{ScanError, ScanReport, Scanner};
use super::semantic::{Coverage, SemanticError, SemanticIndex};
use super::task_table::TaskTables;
use crate::config::{EmbeddingsConfig, RerankConfig};
use crate::embed::settings::EmbeddingProvider as ProviderName;
use crate::embed::{AutoModel, Phase, provider_from_config};
use crate::store::{Store, StoreError};
use crate::vault::Vault;

/// The longest [`Indexes::load_model_first`] waits for `auto`'s model to load.
const MODEL_FIRST_WAIT: Duration = Duration::from_secs(30);

/// How often [`Indexes::load_model_first`] looks whether `auto`'s model has loaded.
const MODEL_POLL: Duration = Duration::from_millis(20);

/// Why an index operation did not run.
#[derive(Debug)]
pub enum IndexError {
    /// Another scan of this vault is running (in this process or another one).
    Busy,
    /// The scan failed.
    Scan(ScanError),
    /// The cache database failed.
    Store(StoreError),
    /// The lock file could not be opened.
    Lock(std::io::Error),
}

impl std::fmt::Display for IndexError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IndexError::Busy => f.write_str(
                "this vault is being indexed right now (by this or another obsidian-tc process)",
            ),
            IndexError::Scan(error) => error.fmt(f),
            IndexError::Store(error) => write!(f, "the cache database failed: {error}"),
            IndexError::Lock(error) => write!(f, "the index lock file failed: {error}"),
        }
    }
}

impl std::error::Error for IndexError {}

impl From<StoreError> for IndexError {
    fn from(error: StoreError) -> Self {
        IndexError::Store(error)
    }
}

/// Where a vault's index stands.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct IndexStatus {
    /// Whether a scan is running.
    pub scanning: bool,
    /// Notes the running scan has looked at.
    pub done: usize,
    /// Notes the running scan will look at.
    pub total: usize,
    /// Chunks in the lexical index.
    pub chunks: usize,
    /// What the last finished scan did.
    pub last_scan: Option<ScanReport>,
    /// How long it took, milliseconds.
    pub last_scan_ms: Option<u64>,
    /// When it finished, Unix seconds.
    pub last_scan_at: Option<i64>,
    /// Changed paths waiting for the writer (see [`Indexes::refresh`]).
    pub queued: usize,
}

/// One vault's live index.
#[derive(Debug)]
pub struct VaultIndex {
    /// The lexical view searches read.
    pub view: RwLock<LexicalView>,
    writer: Mutex<()>,
    status: Mutex<IndexStatus>,
    /// Paths to refresh that arrived while the writer was busy; whoever holds the writer
    /// next takes them.
    pending: Mutex<Vec<String>>,
    /// This index's vault id, looked up in `starting`.
    id: String,
    /// The vaults whose start-up scan has not ended yet, shared with [`Indexes`]: while this
    /// one's has not (it may wait for the model first), the index is reported scanning, its
    /// results possibly incomplete.
    starting: StartingScans,
}

impl VaultIndex {
    /// Where this index stands.
    pub fn status(&self) -> IndexStatus {
        let mut status = lock(&self.status).clone();
        status.scanning |= lock(&self.starting).contains(&self.id);
        status.chunks = self
            .view
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .len();
        status.queued = lock(&self.pending).len();
        status
    }
}

/// The live indexes, by vault id, and the vectors of every vault.
#[derive(Debug, Default)]
pub struct Indexes {
    vaults: Mutex<HashMap<String, Arc<VaultIndex>>>,
    chunking: ChunkOptions,
    semantic: Mutex<Option<Arc<SemanticIndex>>>,
    /// The model of provider `auto`, found or downloaded in the background.
    auto: AutoModel,
    links: LinkTables,
    tasks: TaskTables,
    rerankers: Rerankers,
    /// The vaults whose start-up scan has not ended yet ([`Indexes::start_up_scans`]), the
    /// one record of it: every index of the vaults reads it.
    starting: StartingScans,
}

/// A set of vault ids shared by [`Indexes`] and each of its [`VaultIndex`]es.
type StartingScans = Arc<Mutex<HashSet<String>>>;

impl Indexes {
    /// The index of vault `id`, opened on first use from its snapshot when that matches the
    /// stored rows, else rebuilt from the rows (empty before the first scan).
    pub fn vault(&self, store: &Store, id: &str) -> Result<Arc<VaultIndex>, StoreError> {
        if let Some(index) = lock(&self.vaults).get(id) {
            return Ok(Arc::clone(index));
        }
        let view = open_view(store, id)?;
        let index = Arc::new(VaultIndex {
            view: RwLock::new(view),
            writer: Mutex::new(()),
            status: Mutex::new(IndexStatus::default()),
            pending: Mutex::new(Vec::new()),
            id: id.to_owned(),
            starting: Arc::clone(&self.starting),
        });
        // Two first uses may race: the first one stored wins, both get it.
        let mut vaults = lock(&self.vaults);
        Ok(Arc::clone(vaults.entry(id.to_owned()).or_insert(index)))
    }

    /// Vaults `ids` are to be scanned at start: each is reported scanning from now until
    /// [`Indexes::start_up_scan_ended`], also while the model loads before the scan (an index
    /// opened meanwhile is not yet complete). Opens no index.
    pub fn start_up_scans(&self, ids: &[String]) {
        lock(&self.starting).extend(ids.iter().cloned());
    }

    /// Vault `id`'s start-up scan ended, done or not (a scan of its own, running, still
    /// reports itself).
    pub fn start_up_scan_ended(&self, id: &str) {
        lock(&self.starting).remove(id);
    }

    /// Where vault `id`'s live index stands, `None` while it is not open (never opens it).
    pub fn status_if_open(&self, id: &str) -> Option<IndexStatus> {
        let index = lock(&self.vaults).get(id).map(Arc::clone)?;
        Some(index.status())
    }

    /// Scans every note of vault `id` (`vault` its files), reporting `progress(done, total)`,
    /// then saves the lexical snapshot; the report counts only the notes `counted` admits
    /// (every note is scanned: a caller is told only about the notes it may read). Refused
    /// with [`IndexError::Busy`] while another scan of the vault runs, here or in another
    /// process, or a refresh of this process holds the index (never waits: a caller that
    /// must scan asks again).
    pub fn scan(
        &self,
        store: &Store,
        id: &str,
        vault: &Vault,
        now: i64,
        progress: &mut dyn FnMut(usize, usize),
        counted: &dyn Fn(&str) -> bool,
    ) -> Result<ScanReport, IndexError> {
        let index = self.vault(store, id)?;
        let _writer = index.writer.try_lock().map_err(|_| IndexError::Busy)?;
        let _lock = acquire(store, id)?;
        let started = Instant::now();
        lock(&index.status).scanning = true;
        let scanner = Scanner {
            counted,
            ..self.scanner(store, id, vault, &index.view, now)
        };
        let result = scanner.scan_all(&mut |done, total| {
            {
                let mut status = lock(&index.status);
                status.done = done;
                status.total = total;
            }
            progress(done, total);
        });
        let mut status = lock(&index.status);
        status.scanning = false;
        let report = result.map_err(IndexError::Scan)?;
        status.last_scan = Some(report.clone());
        let took = started.elapsed();
        status.last_scan_ms = Some(u64::try_from(took.as_millis()).unwrap_or(u64::MAX));
        status.last_scan_at =
            Some(now.saturating_add(i64::try_from(took.as_secs()).unwrap_or(i64::MAX)));
        drop(status);
        let snapshot = save_snapshot(store, id, &index);
        drop(_writer);
        self.take_pending(store, id, vault, now, &index)?;
        snapshot?;
        Ok(report)
    }

    /// Re-reads the notes at `paths` of vault `id` (a write obsidian-tc made, a change seen
    /// by the watcher). Never waits for a running scan: the paths are handed to it instead,
    /// and it takes them before it finishes (the report is then empty).
    pub fn refresh(
        &self,
        store: &Store,
        id: &str,
        vault: &Vault,
        paths: &[String],
        now: i64,
    ) -> Result<ScanReport, IndexError> {
        let index = self.vault(store, id)?;
        lock(&index.pending).extend(paths.iter().cloned());
        self.take_pending(store, id, vault, now, &index)
    }

    /// Refreshes the pending paths if the writer is free (else its holder will).
    fn take_pending(
        &self,
        store: &Store,
        id: &str,
        vault: &Vault,
        now: i64,
        index: &VaultIndex,
    ) -> Result<ScanReport, IndexError> {
        let mut report = ScanReport::default();
        while let Ok(_writer) = index.writer.try_lock() {
            let paths = std::mem::take(&mut *lock(&index.pending));
            if paths.is_empty() {
                break;
            }
            let scanner = self.scanner(store, id, vault, &index.view, now);
            report.merge(scanner.refresh(&paths).map_err(IndexError::Scan)?);
        }
        Ok(report)
    }

    /// A scanner of vault `id` that keeps `view` in step.
    fn scanner<'a>(
        &'a self,
        store: &'a Store,
        id: &'a str,
        vault: &'a Vault,
        view: &'a RwLock<LexicalView>,
        now: i64,
    ) -> Scanner<'a> {
        Scanner {
            store,
            vault_id: id,
            vault,
            view,
            chunking: &self.chunking,
            now,
            semantic: self.semantic_if_open(),
            links: &self.links,
            counted: &|_| true,
        }
    }

    /// The vectors of the configured provider, opened (and the provider loaded) on first use;
    /// `None` when no provider is configured (`embeddings.provider: none`), and for `auto`
    /// until its model is loaded: the first call starts finding or downloading it in the
    /// background and returns at once ([`Indexes::auto_model`] says how far it is).
    pub fn semantic(
        &self,
        store: &Store,
        config: &EmbeddingsConfig,
    ) -> Result<Option<Arc<SemanticIndex>>, SemanticError> {
        let mut slot = lock(&self.semantic);
        if let Some(semantic) = slot.as_ref() {
            return Ok(Some(Arc::clone(semantic)));
        }
        let env = |name: &str| std::env::var(name).ok();
        let provider = match config.provider {
            ProviderName::Auto => match self.auto.poll(config, &env) {
                Some(provider) => provider,
                None => return Ok(None),
            },
            _ => match provider_from_config(config, &env)? {
                Some(provider) => provider,
                None => return Ok(None),
            },
        };
        let semantic = match SemanticIndex::open(store, provider) {
            Ok(semantic) => Arc::new(semantic),
            Err(error) => {
                // The provider went with the failed open: load it again next time.
                self.auto.reset();
                return Err(error);
            }
        };
        *slot = Some(Arc::clone(&semantic));
        Ok(Some(semantic))
    }

    /// Starts getting the `auto` model in the background (a serving process calls this at
    /// start so the download overlaps the first scan); does nothing for other providers.
    pub fn prepare_embeddings(&self, store: &Store, config: &EmbeddingsConfig) {
        if config.provider == ProviderName::Auto
            && let Err(error) = self.semantic(store, config)
        {
            tracing::warn!("the embedding vectors could not be opened: {error}");
        }
    }

    /// Loads the embedding model before a scan opens the vaults' indexes, so that the
    /// runtime's load-time copies (65-80 MiB above what the default model then holds) do not
    /// stack on an index already in memory: a `local` model loads now; `auto`'s starts (as
    /// [`Indexes::prepare_embeddings`]) and is waited for while it is found on disk and
    /// loaded, at most 30 s (never while it downloads). A remote provider is
    /// left alone (nothing of its model is in this process). A failure is left to the next use
    /// of the vectors to report.
    pub fn load_model_first(&self, store: &Store, config: &EmbeddingsConfig) {
        if !matches!(config.provider, ProviderName::Auto | ProviderName::Local) {
            return;
        }
        let deadline = Instant::now() + MODEL_FIRST_WAIT;
        loop {
            match self.semantic(store, config) {
                Ok(None)
                    if config.provider == ProviderName::Auto
                        && self.auto.phase() == Phase::Loading
                        && Instant::now() < deadline =>
                {
                    std::thread::sleep(MODEL_POLL);
                }
                Ok(_) => return,
                Err(error) => {
                    tracing::debug!("the embedding model did not load before the scan: {error}");
                    return;
                }
            }
        }
    }

    /// The model of provider `auto`: where finding, downloading or loading it stands.
    pub fn auto_model(&self) -> &AutoModel {
        &self.auto
    }

    /// The cross-encoder of `search.rerank`, loaded on first use (see [`Rerankers::get`]).
    pub fn reranker(&self, config: &RerankConfig) -> Result<Arc<dyn Reranker>, String> {
        self.rerankers.get(config)
    }

    /// The vectors, if they are open (never loads a provider).
    pub fn semantic_if_open(&self) -> Option<Arc<SemanticIndex>> {
        lock(&self.semantic).clone()
    }

    /// Embeds every chunk of vault `id` that has no vector yet, when a provider is configured;
    /// `progress(note paths)` after each batch, the note of every chunk embedded (see
    /// [`SemanticIndex::embed_pending`]). Returns the vault's coverage afterwards, `None` without a
    /// provider. A provider failure is recorded against the vault's notes it was embedding
    /// and returned.
    pub fn embed_pending(
        &self,
        store: &Store,
        id: &str,
        config: &EmbeddingsConfig,
        now: i64,
        progress: &mut dyn FnMut(&[&str]),
    ) -> Result<Option<Coverage>, SemanticError> {
        let Some(semantic) = self.semantic(store, config)? else {
            return Ok(None);
        };
        let batch = semantic.batch_size();
        let secrets = config.provider.secrets_action(config.secrets);
        semantic.embed_pending(store, id, batch, now, secrets, progress)?;
        semantic.coverage(store, id).map(Some)
    }

    /// The resolved link tables of the vaults.
    pub fn links(&self) -> &LinkTables {
        &self.links
    }

    /// The parsed task tables of the vaults.
    pub fn tasks(&self) -> &TaskTables {
        &self.tasks
    }

    /// Forgets vault `id`'s live index (its rows were dropped): the next use reopens it.
    pub fn forget(&self, id: &str) {
        lock(&self.vaults).remove(id);
        self.links.forget(id);
        self.tasks.forget(id);
        if let Some(semantic) = self.semantic_if_open() {
            semantic.forget_vault(id);
        }
    }
}

/// The lexical view of `id` from the store.
fn open_view(store: &Store, id: &str) -> Result<LexicalView, StoreError> {
    let rows = store.note_index();
    let mut chunks = rows.chunks(id)?;
    if let Some(bytes) = rows.current_snapshot(id)? {
        match LexicalView::restore(&bytes, chunks) {
            Ok(view) => return Ok(view),
            Err(back) => chunks = back,
        }
    }
    let fields = rows.note_fields(id)?;
    Ok(LexicalView::build(chunks, &fields))
}

/// Saves the view as the snapshot of the current generation (the writer lock is held, so no
/// change of this process runs in between).
fn save_snapshot(store: &Store, id: &str, index: &VaultIndex) -> Result<(), StoreError> {
    let rows = store.note_index();
    let generation = rows.generation(id)?;
    let bytes = index
        .view
        .read()
        .unwrap_or_else(PoisonError::into_inner)
        .snapshot();
    rows.save_snapshot(id, generation, &bytes)
}

/// The cross-process writer lock of `id`, in the cache database's folder.
fn acquire(store: &Store, id: &str) -> Result<WriterLock, IndexError> {
    let dir = store.path().parent().unwrap_or(Path::new("."));
    WriterLock::try_acquire(dir, id)
        .map_err(IndexError::Lock)?
        .ok_or(IndexError::Busy)
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

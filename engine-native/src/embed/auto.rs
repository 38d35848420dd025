//! [`AutoModel`]: the model of `embeddings.provider: "auto"`, had without making anyone wait.
//! The first [`AutoModel::poll`] starts a thread that finds the model on disk
//! (`embeddings.modelPath`, or the pinned model's snapshot in the Hugging Face cache) or
//! downloads it ([`crate::embed::hub::fetch_model`]), then loads it; until a poll hands the
//! loaded provider over, search is lexical and [`AutoModel::phase`] says why. A download that
//! failed for a passing reason (offline, the hub down) is tried again after a wait that
//! doubles up to an hour; any other failure stays until the server restarts.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use crate::embed::from_config::load_local;
use crate::embed::hub::cache::{Env, HOME_VAR};
use crate::embed::hub::{HubError, HubSettings, ModelSpec, Transfer, fetch_model};
use crate::embed::local::{Located, locate, weights_format};
use crate::embed::provider::EmbeddingProvider;
use crate::embed::settings::EmbeddingsConfig;
use crate::embed::throughput::Throughput;

/// The variables the background thread reads (taken when it starts): the hub's, and where the
/// ONNX Runtime library is (`crate::embed::local::onnx_library`).
const HUB_VARS: [&str; 8] = [
    "OBSIDIAN_TC_ONNXRUNTIME",
    "ORT_DYLIB_PATH",
    "HF_ENDPOINT",
    "HF_HUB_OFFLINE",
    "HF_HUB_CACHE",
    "HF_HOME",
    "XDG_CACHE_HOME",
    HOME_VAR,
];

/// The first wait before a passing failure is tried again.
const FIRST_RETRY: Duration = Duration::from_secs(60);

/// The longest wait before a passing failure is tried again.
const LAST_RETRY: Duration = Duration::from_secs(3600);

/// Where getting the model stands.
#[derive(Debug, Clone, PartialEq)]
pub enum Phase {
    /// Nothing started yet.
    Idle,
    /// Downloading.
    Downloading {
        /// The bytes so far and in all.
        transfer: Transfer,
        /// Seconds until the download ends at the rate so far.
        eta_seconds: Option<u64>,
        /// Where from (`HF_ENDPOINT`).
        endpoint: String,
    },
    /// Looking for the model on disk, or loading it into memory.
    Loading,
    /// Loaded.
    Loaded,
    /// It could not be had.
    Failed {
        /// Why, and what to do.
        reason: String,
        /// When it is tried again (a passing failure), else never.
        retry_at: Option<Instant>,
    },
}

#[derive(Default)]
struct State {
    phase: Option<Phase>,
    provider: Option<Box<dyn EmbeddingProvider>>,
    /// The failures in a row, for the growing wait.
    failures: u32,
}

/// The `auto` model of one server.
#[derive(Default)]
pub struct AutoModel {
    state: Arc<Mutex<State>>,
}

impl std::fmt::Debug for AutoModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AutoModel")
            .field("phase", &self.phase())
            .finish()
    }
}

impl AutoModel {
    /// The loaded provider, handed over once; else `None`, after starting the work when
    /// nothing runs (first call, or a passing failure whose wait is over). `env` reads the
    /// hub's variables. Never blocks on the work.
    pub fn poll(
        &self,
        config: &EmbeddingsConfig,
        env: Env<'_>,
    ) -> Option<Box<dyn EmbeddingProvider>> {
        let mut state = lock(&self.state);
        if let Some(provider) = state.provider.take() {
            return Some(provider);
        }
        let start = match &state.phase {
            None | Some(Phase::Idle) => true,
            Some(Phase::Failed {
                retry_at: Some(at), ..
            }) => Instant::now() >= *at,
            Some(_) => false,
        };
        if start {
            state.phase = Some(Phase::Loading);
            let vars: HashMap<String, String> = HUB_VARS
                .iter()
                .filter_map(|name| Some(((*name).to_owned(), env(name)?)))
                .collect();
            let config = config.clone();
            let shared = Arc::clone(&self.state);
            let spawned = std::thread::Builder::new()
                .name("embedding-model".to_owned())
                .spawn(move || run(&config, &vars, &shared));
            if let Err(error) = spawned {
                state.phase = Some(Phase::Failed {
                    reason: format!("cannot start the model thread: {error}"),
                    retry_at: None,
                });
            }
        }
        None
    }

    /// Where getting the model stands.
    pub fn phase(&self) -> Phase {
        lock(&self.state).phase.clone().unwrap_or(Phase::Idle)
    }

    /// Starts over on the next poll (the provider handed over could not be used).
    pub fn reset(&self) {
        *lock(&self.state) = State::default();
    }
}

/// The background work: get the model, then record the outcome.
fn run(config: &EmbeddingsConfig, vars: &HashMap<String, String>, shared: &Mutex<State>) {
    let env = |name: &str| vars.get(name).cloned();
    let started = Instant::now();
    let outcome = acquire(config, &env, shared);
    let mut state = lock(shared);
    match outcome {
        Ok(provider) => {
            tracing::info!(
                model = %provider.fingerprint().model,
                ms = started.elapsed().as_millis() as u64,
                "embedding model loaded: semantic and hybrid search are on"
            );
            state.provider = Some(provider);
            state.phase = Some(Phase::Loaded);
            state.failures = 0;
        }
        Err(Failure { reason, transient }) => {
            let retry_at = transient.then(|| {
                let wait = FIRST_RETRY.saturating_mul(1 << state.failures.min(6));
                Instant::now() + wait.min(LAST_RETRY)
            });
            state.failures += 1;
            tracing::warn!("search stays lexical: {reason}");
            state.phase = Some(Phase::Failed { reason, retry_at });
        }
    }
}

/// Why the model could not be had.
struct Failure {
    reason: String,
    transient: bool,
}

impl Failure {
    fn lasting(reason: impl ToString) -> Failure {
        Failure {
            reason: reason.to_string(),
            transient: false,
        }
    }
}

impl From<HubError> for Failure {
    fn from(error: HubError) -> Self {
        Failure {
            transient: error.is_transient(),
            reason: error.to_string(),
        }
    }
}

/// The model on disk, else downloaded, loaded.
fn acquire(
    config: &EmbeddingsConfig,
    env: Env<'_>,
    shared: &Mutex<State>,
) -> Result<Box<dyn EmbeddingProvider>, Failure> {
    // A folder of the user's, or a model without pins: loaded as found, never downloaded.
    let format = weights_format(config.engine, env);
    let spec = match ModelSpec::of_config(config, format) {
        Some(spec) if config.model_path.is_none() => spec,
        _ => {
            let located = locate(config, env).map_err(Failure::lasting)?;
            return load_local(config, &located, env).map_err(Failure::lasting);
        }
    };
    if let Ok(located) = locate(config, env) {
        match load_local(config, &located, env) {
            Ok(provider) => return Ok(provider),
            // A damaged copy is downloaded again below.
            Err(error) => tracing::warn!("{error}; downloading the model again"),
        }
    }
    // A build without the engine says so before downloading anything.
    if !crate::embed::local::HAS_ENGINE {
        return load_local(config, &Located::default(), env).map_err(Failure::lasting);
    }
    let settings = HubSettings::from_env(env);
    if !settings.offline {
        tracing::info!(
            "downloading the embedding model {} ({} MB) from {} into {}; search is lexical \
             until it is loaded",
            spec.repo,
            spec.total_size().unwrap_or(0) / 1_000_000,
            settings.endpoint,
            settings
                .roots
                .first()
                .map_or_else(String::new, |root| root.display().to_string())
        );
        // Downloading from now on, though no byte has come yet (a hub that answers slowly or
        // not at all is waited out): nothing waits for this model as for one on disk.
        lock(shared).phase = Some(Phase::Downloading {
            transfer: Transfer {
                bytes: 0,
                total: spec.total_size(),
            },
            eta_seconds: None,
            endpoint: settings.endpoint.clone(),
        });
    }
    let mut rate = Throughput::default();
    let folder = fetch_model(&spec, &settings, &mut |transfer| {
        rate.observe(transfer.bytes);
        let remaining = transfer
            .total
            .map(|total| total.saturating_sub(transfer.bytes));
        lock(shared).phase = Some(Phase::Downloading {
            transfer,
            eta_seconds: remaining.and_then(|r| rate.eta_seconds(r)),
            endpoint: settings.endpoint.clone(),
        });
    })?;
    lock(shared).phase = Some(Phase::Loading);
    let located = Located {
        folder,
        pins: spec.files,
    };
    load_local(config, &located, env).map_err(Failure::lasting)
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

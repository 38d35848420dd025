//! [`EmbeddingStatus`]: where semantic search of a vault stands: the provider and model, the
//! state (off, downloading, loading, embedding, ready, unavailable) and why, the download's
//! progress, how many chunks have vectors, and an ETA. `get_index_status` reports it; the
//! tools that answer lexically for want of vectors quote [`lexical_reason`].

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Serialize;

use super::indexes::Indexes;
use super::semantic::SemanticError;
use crate::config::LoadedConfig;
use crate::content::secrets::SecretsAction;
use crate::embed::hub::{DEFAULT_MODEL, Transfer};
use crate::embed::local::model_name as local_model_name;
use crate::embed::settings::{EmbeddingProvider as ProviderName, EmbeddingsConfig};
use crate::embed::{Phase, RemoteApi};
use crate::schema::JsonPath;
use crate::store::Store;
use crate::vectors::SecretFindings;

/// The state of semantic search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum EmbeddingState {
    /// Turned off (`embeddings.provider: none`): search is lexical.
    Off,
    /// The model is being downloaded: search is lexical until it is loaded.
    Downloading,
    /// The model is being found or loaded: search is lexical until it is loaded.
    Loading,
    /// The model is loaded and chunks are still being embedded: hybrid search covers the
    /// embedded ones.
    Embedding,
    /// Every chunk has its vector.
    Ready,
    /// The model or provider could not be had (offline, a refused download, a missing
    /// model, a failing provider): search is lexical; `reason` says why and what to do.
    Unavailable,
}

/// Where semantic search of a vault stands.
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct EmbeddingStatus {
    /// `embeddings.provider`: `auto`, `none`, `local`, `ollama`, `openai`, `voyage`, `cohere`.
    pub provider: String,
    /// The model (absent when off).
    pub model: Option<String>,
    /// What runs an in-process model and why that engine: `onnx (ONNX Runtime …)` or
    /// `candle (…; ONNX Runtime not used: why)` (absent until it is loaded, and for remote
    /// providers).
    pub engine: Option<String>,
    /// The state.
    pub state: EmbeddingState,
    /// Why search is lexical, or what is running (absent when embedding or ready).
    pub reason: Option<String>,
    /// The download's bytes so far and in all (while downloading).
    pub download: Option<Transfer>,
    /// Chunks of the vault with a vector.
    pub embedded: usize,
    /// Chunks of the vault.
    pub total: usize,
    /// Seconds until the download or the embedding ends at the pace so far (absent while
    /// unknown).
    pub eta_seconds: Option<u64>,
    /// Remote providers: the credentials found in chunks before they were sent, by class
    /// name and count only (absent for the in-process model, which sends nothing, and while
    /// the vectors are not open).
    pub secrets: Option<SecretsReport>,
}

/// The credentials found in a vault's chunks before they went to a remote embedding
/// provider (`embeddings.secrets`).
#[derive(Debug, Clone, PartialEq, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecretsReport {
    /// What the setting does with such a chunk: `skip`, `redact` or `off` (no scan).
    pub action: SecretsAction,
    /// Chunks not sent (they have no vector; lexical search still finds them).
    pub withheld_chunks: usize,
    /// Chunks sent with their credentials replaced by `[REDACTED:<class>]`.
    pub redacted_chunks: usize,
    /// Credentials found, by class (`aws_access_key_id`, `private_key`, …) and count.
    pub found: BTreeMap<String, usize>,
}

/// Where semantic search of vault `vault` stands for a caller who may read the notes
/// `readable` admits, `chunks` chunks of them indexed, under the configuration `loaded`
/// (counts and the ETA cover those notes only). Opens the vectors when the provider can be had (an `auto` model
/// starts loading or downloading in the background; another provider loads now).
pub fn embedding_status(
    indexes: &Indexes,
    store: &Store,
    vault: &str,
    loaded: &LoadedConfig,
    (chunks, readable): (usize, &dyn Fn(&str) -> bool),
) -> Result<EmbeddingStatus, SemanticError> {
    let config = &loaded.config.embeddings;
    let mut status = EmbeddingStatus {
        provider: config.provider.name().to_owned(),
        model: model_name(config),
        engine: None,
        state: EmbeddingState::Off,
        reason: None,
        download: None,
        embedded: 0,
        total: chunks,
        eta_seconds: None,
        secrets: None,
    };
    let semantic = match indexes.semantic(store, config) {
        Ok(semantic) => semantic,
        Err(SemanticError::Embed(error)) => {
            status.state = EmbeddingState::Unavailable;
            status.reason = Some(lexical_because(&error.to_string()));
            return Ok(status);
        }
        Err(other) => return Err(other),
    };
    let Some(semantic) = semantic else {
        let waiting = waiting(indexes, loaded);
        status.state = waiting.state;
        status.reason = Some(waiting.reason);
        status.download = waiting.download;
        status.eta_seconds = waiting.eta_seconds;
        return Ok(status);
    };
    status.engine = semantic.engine().map(str::to_owned);
    status.embedded = semantic.embedded_readable(vault, readable);
    let mut withheld = 0;
    if config.provider.remote_api().is_some() {
        let summary = SecretFindings::new(store)
            .summary(semantic.fingerprint(), vault, readable)
            .map_err(SemanticError::Vectors)?;
        withheld = summary.withheld_chunks;
        status.secrets = Some(SecretsReport {
            action: config.secrets,
            withheld_chunks: summary.withheld_chunks,
            redacted_chunks: summary.redacted_chunks,
            found: summary.classes,
        });
    }
    let remaining = chunks
        .saturating_sub(status.embedded)
        .saturating_sub(withheld);
    status.state = if remaining > 0 {
        EmbeddingState::Embedding
    } else {
        EmbeddingState::Ready
    };
    status.eta_seconds = semantic.eta_seconds(remaining);
    Ok(status)
}

/// Why search is lexical when [`Indexes::semantic`] gave no vectors.
pub fn lexical_reason(indexes: &Indexes, loaded: &LoadedConfig) -> String {
    waiting(indexes, loaded).reason
}

/// What a vault without vectors waits for.
struct Waiting {
    state: EmbeddingState,
    reason: String,
    download: Option<Transfer>,
    eta_seconds: Option<u64>,
}

/// The state of a configuration whose vectors are not open.
fn waiting(indexes: &Indexes, loaded: &LoadedConfig) -> Waiting {
    let config = &loaded.config.embeddings;
    let model = model_name(config).unwrap_or_default();
    let wait = |state, reason: String| Waiting {
        state,
        reason,
        download: None,
        eta_seconds: None,
    };
    if config.provider == ProviderName::None {
        return wait(EmbeddingState::Off, off_reason(loaded));
    }
    match indexes.auto_model().phase() {
        Phase::Downloading {
            transfer,
            eta_seconds,
            endpoint,
        } => Waiting {
            state: EmbeddingState::Downloading,
            reason: format!(
                "the embedding model {model} is downloading from {endpoint} ({} of {} MB); \
                 search is lexical until it is loaded",
                transfer.bytes / 1_000_000,
                transfer
                    .total
                    .map_or_else(|| "?".to_owned(), |t| (t / 1_000_000).to_string())
            ),
            download: Some(transfer),
            eta_seconds,
        },
        Phase::Failed { reason, .. } => wait(EmbeddingState::Unavailable, lexical_because(&reason)),
        Phase::Idle | Phase::Loading | Phase::Loaded => wait(
            EmbeddingState::Loading,
            format!("the embedding model {model} is loading; search is lexical until it is loaded"),
        ),
    }
}

/// Why search is lexical under `embeddings.provider: none`, naming where that came from.
pub fn off_reason(loaded: &LoadedConfig) -> String {
    let at = JsonPath::keys("embeddings").key("provider");
    let source = loaded
        .provenance
        .source_of(&at)
        .map_or_else(|| "default".to_owned(), ToString::to_string);
    format!(
        "semantic search is off: embeddings.provider is \"none\" ({source}); search is \
         lexical. Set it to \"auto\" (the default) to turn semantic search on"
    )
}

/// `reason`, saying that search is lexical because of it.
fn lexical_because(reason: &str) -> String {
    format!("search is lexical: {reason}")
}

/// The model `config` uses (`None` when off).
fn model_name(config: &EmbeddingsConfig) -> Option<String> {
    let default = match config.provider {
        ProviderName::None => return None,
        ProviderName::Auto | ProviderName::Local => return Some(local_model_name(config)),
        remote => remote
            .remote_api()
            .map_or(DEFAULT_MODEL, RemoteApi::default_model),
    };
    Some(config.model.clone().unwrap_or_else(|| default.to_owned()))
}

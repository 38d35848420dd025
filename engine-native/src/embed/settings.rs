//! The `embeddings` section of the configuration: which provider computes the vectors of
//! semantic search. [`crate::embed::provider_from_config`] builds the provider.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::content::secrets::SecretsAction;
use crate::embed::RemoteApi;
use crate::embed::hub::HubFile;

/// The embedding provider for semantic search (`embeddings`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct EmbeddingsConfig {
    /// Which provider computes embeddings: `auto` (default) the local model, downloaded on
    /// first use when missing; `none` turns semantic search off.
    pub provider: EmbeddingProvider,
    /// The model (omitted: `intfloat/multilingual-e5-small` for `auto` and `local`, or the
    /// folder's name with `modelPath`; `nomic-embed-text` for `ollama`, `text-embedding-3-small` for `openai`, `voyage-3.5`
    /// for `voyage`, `embed-v4.0` for `cohere`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 256))]
    pub model: Option<String>,
    /// `auto` and `local`: the sentence-transformers folder (`config.json`, `tokenizer.json`,
    /// `model.safetensors`, `1_Pooling/`), relative to the config file. Omitted: the model's
    /// snapshot in the Hugging Face cache (`$HF_HUB_CACHE`, `$HF_HOME/hub` or
    /// `~/.cache/huggingface/hub`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub model_path: Option<String>,
    /// `auto` and `local`: the commit (or branch) of `model` on the Hugging Face hub to use
    /// and download, with `files`. Omitted for the default model: the commit pinned in
    /// obsidian-tc.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 128))]
    pub revision: Option<String>,
    /// `auto` and `local`: the files of `model` at `revision`, each with its SHA-256; a file
    /// whose content has another digest is refused. Omitted for the default model: the
    /// files and digests pinned in obsidian-tc.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 64))]
    pub files: Option<Vec<HubFile>>,
    /// `auto` and `local`: the engine that runs the model: `auto` (default) ONNX Runtime when
    /// the model folder has an ONNX file (`onnx/model_qint8_avx512_vnni.onnx`,
    /// `onnx/model_quantized.onnx`, `onnx/model.onnx` or `model.onnx`) and the ONNX Runtime
    /// library loads, else the built-in candle engine (why is logged and shown by
    /// `get_index_status` and `doctor`); `onnx` ONNX Runtime or an error saying what is
    /// missing; `candle` the built-in engine over `model.safetensors`.
    pub engine: EmbeddingEngine,
    /// `auto` and `local` with ONNX Runtime: the threads one embedding call uses, each running
    /// a batch on a session of its own (omitted: one per core).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 256))]
    pub threads: Option<u32>,
    /// The API's base URL (omitted: `http://127.0.0.1:11434` for `ollama`,
    /// `https://api.openai.com/v1` for `openai`, `https://api.voyageai.com/v1` for `voyage`,
    /// `https://api.cohere.com` for `cohere`). Any OpenAI-compatible server works as `openai`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// The API key; better kept out of the file with `apiKeyEnv` or
    /// `OBSIDIAN_TC_EMBEDDINGS_API_KEY`. Never shown by `config show` or `get_server_config`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub api_key: Option<String>,
    /// The environment variable holding the API key (omitted: `OPENAI_API_KEY`,
    /// `VOYAGE_API_KEY` or `CO_API_KEY` by provider).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1, max = 128))]
    pub api_key_env: Option<String>,
    /// The vector length. Hosted models that can shorten their vectors are asked for it;
    /// otherwise it must equal the model's. Omitted: the model's own (learned from one probe
    /// request for remote providers).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 65536))]
    pub dimensions: Option<u32>,
    /// The most texts per request (omitted: 8 for `auto` and `local`, 32 for `ollama`, 128 for
    /// `openai` and `voyage`, 96 for `cohere`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 2048))]
    pub batch_size: Option<u32>,
    /// The time budget of one request, in milliseconds.
    #[schemars(range(min = 100, max = 600000))]
    pub timeout_ms: u64,
    /// How many times a request failing for a passing reason (unreachable, timeout, HTTP 429
    /// or 5xx) is retried, with growing waits; other errors are never retried.
    #[schemars(range(min = 0, max = 10))]
    pub retries: u32,
    /// Remote providers (`ollama`, `openai`, `voyage`, `cohere`): what happens to a chunk
    /// holding a credential (API key, private key, token, password) before it is sent:
    /// `skip` (default) sends nothing of it (it gets no vector; lexical search still finds
    /// it), `redact` sends it with each credential replaced by `[REDACTED:<class>]`, `off`
    /// sends it as it is. `get_index_status` reports what was found by class and count only.
    /// The in-process model (`auto`, `local`) sends nothing anywhere and is not scanned.
    pub secrets: SecretsAction,
}

impl Default for EmbeddingsConfig {
    fn default() -> EmbeddingsConfig {
        EmbeddingsConfig {
            provider: EmbeddingProvider::Auto,
            model: None,
            model_path: None,
            revision: None,
            files: None,
            engine: EmbeddingEngine::Auto,
            threads: None,
            endpoint: None,
            api_key: None,
            api_key_env: None,
            dimensions: None,
            batch_size: None,
            timeout_ms: 30_000,
            retries: 3,
            secrets: SecretsAction::Skip,
        }
    }
}

/// The engine of the in-process model (`embeddings.engine`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum EmbeddingEngine {
    /// ONNX Runtime when the model folder has an ONNX file and the library loads, else candle.
    #[default]
    Auto,
    /// ONNX Runtime, or an error saying what is missing.
    Onnx,
    /// The built-in candle engine over `model.safetensors`.
    Candle,
}

impl EmbeddingEngine {
    /// The config name, e.g. `auto`.
    pub fn name(self) -> &'static str {
        match self {
            EmbeddingEngine::Auto => "auto",
            EmbeddingEngine::Onnx => "onnx",
            EmbeddingEngine::Candle => "candle",
        }
    }
}

/// An embedding provider.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum EmbeddingProvider {
    /// The in-process sentence-transformer, found on disk or downloaded from the Hugging Face
    /// hub in the background on first use; search is lexical until it is loaded, and stays
    /// lexical (saying why) when it cannot be had.
    #[default]
    Auto,
    /// No embeddings: semantic search is off.
    None,
    /// An in-process sentence-transformer loaded from a local folder (never downloaded).
    Local,
    /// A local Ollama server.
    Ollama,
    /// Any OpenAI-compatible endpoint.
    Openai,
    /// Voyage AI.
    Voyage,
    /// Cohere.
    Cohere,
}

impl EmbeddingProvider {
    /// The HTTP API of a remote provider (`None` for `auto`, `none` and `local`).
    pub fn remote_api(self) -> Option<RemoteApi> {
        match self {
            EmbeddingProvider::Auto | EmbeddingProvider::None | EmbeddingProvider::Local => None,
            EmbeddingProvider::Ollama => Some(RemoteApi::Ollama),
            EmbeddingProvider::Openai => Some(RemoteApi::OpenAi),
            EmbeddingProvider::Voyage => Some(RemoteApi::Voyage),
            EmbeddingProvider::Cohere => Some(RemoteApi::Cohere),
        }
    }

    /// The config name, e.g. `auto`.
    pub fn name(self) -> &'static str {
        match self {
            EmbeddingProvider::Auto => "auto",
            EmbeddingProvider::None => "none",
            EmbeddingProvider::Local => "local",
            EmbeddingProvider::Ollama => "ollama",
            EmbeddingProvider::Openai => "openai",
            EmbeddingProvider::Voyage => "voyage",
            EmbeddingProvider::Cohere => "cohere",
        }
    }

    /// Whether the provider runs the model in process (`auto`, `local`).
    pub fn is_in_process(self) -> bool {
        matches!(self, EmbeddingProvider::Auto | EmbeddingProvider::Local)
    }

    /// What happens to a chunk holding a credential before this provider embeds it under
    /// `configured` (`embeddings.secrets`): `None` for the in-process model, which sends
    /// nothing anywhere, and when the scan is off.
    pub fn secrets_action(self, configured: SecretsAction) -> Option<SecretsAction> {
        (self.remote_api().is_some() && configured != SecretsAction::Off).then_some(configured)
    }
}

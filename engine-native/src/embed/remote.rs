//! [`RemoteProvider`]: an embedding API over HTTP (Ollama, OpenAI-compatible, Voyage,
//! Cohere), batched, checked and normalised. A request that gets no answer within
//! `embeddings.timeoutMs` is not sent again whole: its texts go in two halves (down to one
//! text, which is retried as configured), and every later request keeps the smaller size, so
//! a slow (CPU-bound) server still finishes instead of timing out on every batch. Each split
//! is logged with the rate the answered requests reached.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::embed::error::EmbedError;
use crate::embed::fingerprint::{EmbeddingFingerprint, Pooling};
use crate::embed::http::{HttpSettings, JsonPoster};
use crate::embed::local::Prompts;
use crate::embed::local::known::known_model;
use crate::embed::provider::{EmbedKind, EmbeddingProvider, embed_in_batches};
use crate::embed::{cohere, ollama, openai, voyage};

/// Which HTTP API a [`RemoteProvider`] speaks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RemoteApi {
    /// Ollama's `/api/embed`.
    Ollama,
    /// OpenAI's `/v1/embeddings`, or any server speaking it.
    OpenAi,
    /// Voyage AI's `/v1/embeddings`.
    Voyage,
    /// Cohere's `/v2/embed`.
    Cohere,
}

impl RemoteApi {
    /// The provider's config name.
    pub fn name(self) -> &'static str {
        match self {
            RemoteApi::Ollama => "ollama",
            RemoteApi::OpenAi => "openai",
            RemoteApi::Voyage => "voyage",
            RemoteApi::Cohere => "cohere",
        }
    }

    /// The base URL used when `embeddings.endpoint` is omitted.
    pub fn default_endpoint(self) -> &'static str {
        match self {
            RemoteApi::Ollama => ollama::DEFAULT_ENDPOINT,
            RemoteApi::OpenAi => openai::DEFAULT_ENDPOINT,
            RemoteApi::Voyage => voyage::DEFAULT_ENDPOINT,
            RemoteApi::Cohere => cohere::DEFAULT_ENDPOINT,
        }
    }

    /// The model used when `embeddings.model` is omitted.
    pub fn default_model(self) -> &'static str {
        match self {
            RemoteApi::Ollama => ollama::DEFAULT_MODEL,
            RemoteApi::OpenAi => openai::DEFAULT_MODEL,
            RemoteApi::Voyage => voyage::DEFAULT_MODEL,
            RemoteApi::Cohere => cohere::DEFAULT_MODEL,
        }
    }

    /// The environment variable holding the key when the config names none (Ollama: none).
    pub fn key_var(self) -> Option<&'static str> {
        match self {
            RemoteApi::Ollama => None,
            RemoteApi::OpenAi => Some(openai::KEY_VAR),
            RemoteApi::Voyage => Some(voyage::KEY_VAR),
            RemoteApi::Cohere => Some(cohere::KEY_VAR),
        }
    }

    /// The most texts one request may carry.
    pub fn max_batch(self) -> usize {
        match self {
            RemoteApi::Ollama => ollama::MAX_BATCH,
            RemoteApi::OpenAi => openai::MAX_BATCH,
            RemoteApi::Voyage => voyage::MAX_BATCH,
            RemoteApi::Cohere => cohere::MAX_BATCH,
        }
    }

    /// The batch size used when `embeddings.batchSize` is omitted.
    pub fn default_batch(self) -> usize {
        match self {
            RemoteApi::Ollama => ollama::DEFAULT_BATCH,
            RemoteApi::OpenAi => openai::DEFAULT_BATCH,
            RemoteApi::Voyage => voyage::DEFAULT_BATCH,
            RemoteApi::Cohere => cohere::DEFAULT_BATCH,
        }
    }

    /// The prefixes `model` wants before queries and documents when this API has no input
    /// type of its own (Ollama, OpenAI-compatible servers): a known model's, e5's `query: ` /
    /// `passage: `, nomic-embed's `search_query: ` / `search_document: `; none otherwise.
    /// Voyage and Cohere say the kind in `input_type` instead.
    pub fn prompts(self, model: &str) -> Prompts {
        if !matches!(self, RemoteApi::Ollama | RemoteApi::OpenAi) {
            return Prompts::default();
        }
        let name = model
            .rsplit('/')
            .next()
            .unwrap_or(model)
            .to_ascii_lowercase();
        let (query, document) = if let Some(known) = known_model(model) {
            (known.query, known.document)
        } else if name.starts_with("nomic-embed") {
            ("search_query: ", "search_document: ")
        } else if name.starts_with("e5-") || name.contains("-e5-") {
            ("query: ", "passage: ")
        } else {
            ("", "")
        };
        Prompts {
            query: query.to_owned(),
            document: document.to_owned(),
        }
    }

    fn path(self) -> &'static str {
        match self {
            RemoteApi::Ollama => "/api/embed",
            RemoteApi::OpenAi | RemoteApi::Voyage => "/embeddings",
            RemoteApi::Cohere => "/v2/embed",
        }
    }

    fn request(
        self,
        model: &str,
        dimensions: Option<usize>,
        texts: &[&str],
        kind: EmbedKind,
    ) -> Value {
        match self {
            RemoteApi::Ollama => ollama::request(model, texts),
            RemoteApi::OpenAi => openai::request(model, dimensions, texts),
            RemoteApi::Voyage => voyage::request(model, dimensions, texts, kind),
            RemoteApi::Cohere => cohere::request(model, dimensions, texts, kind),
        }
    }

    fn vectors(self, answer: Value, count: usize) -> Result<Vec<Vec<f32>>, String> {
        match self {
            RemoteApi::Ollama => ollama::vectors(answer),
            RemoteApi::OpenAi | RemoteApi::Voyage => openai::vectors(answer, count),
            RemoteApi::Cohere => cohere::vectors(answer),
        }
    }
}

/// An embedding API over HTTP.
pub struct RemoteProvider {
    api: RemoteApi,
    model: String,
    /// The vector length asked of the API (`dimensions`, `output_dimension`), when configured.
    requested_dimensions: Option<usize>,
    poster: JsonPoster,
    /// The prefixes the model wants before queries and documents, sent as part of the text.
    prompts: Prompts,
    fingerprint: EmbeddingFingerprint,
    /// The most texts per request: the configured batch, halved at each timeout.
    max_batch: AtomicUsize,
    /// The texts of the answered requests and the time those requests took.
    answered: Mutex<(usize, Duration)>,
}

impl RemoteProvider {
    /// A provider for `api` with `model`, sending at most `batch` texts per request. With
    /// `dimensions`, vectors of any other length are refused (and the API is asked for that
    /// length where it can shorten vectors); without, one probe request learns the model's
    /// length now, so that the fingerprint is known before anything is indexed.
    pub fn new(
        api: RemoteApi,
        model: impl Into<String>,
        dimensions: Option<usize>,
        batch: usize,
        settings: &HttpSettings,
    ) -> Result<RemoteProvider, EmbedError> {
        let model = model.into();
        let poster = JsonPoster::new(api.name(), settings, api.path())?;
        let prompts = api.prompts(&model);
        let mut provider = RemoteProvider {
            api,
            requested_dimensions: dimensions.filter(|_| api != RemoteApi::Ollama),
            poster,
            fingerprint: EmbeddingFingerprint {
                provider: api.name().to_owned(),
                engine: String::new(),
                model: model.clone(),
                dimensions: dimensions.unwrap_or_default(),
                pooling: Pooling::Provider,
                normalized: true,
                prompts: prompts.digest(),
            },
            prompts,
            model,
            max_batch: AtomicUsize::new(batch.clamp(1, api.max_batch())),
            answered: Mutex::new((0, Duration::ZERO)),
        };
        if dimensions.is_none() {
            let probe = provider.call(&["dimension probe"], EmbedKind::Document)?;
            provider.fingerprint.dimensions = probe.first().map_or(0, Vec::len);
            if provider.fingerprint.dimensions == 0 {
                return Err(EmbedError::bad_response(api.name(), "an empty vector"));
            }
        }
        Ok(provider)
    }

    /// The vectors of `texts`, unchecked and unnormalised: one request per batch of the
    /// current size; a request that times out is split in two (see the module doc).
    fn call(&self, texts: &[&str], kind: EmbedKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        let size = self.max_batch.load(Ordering::Relaxed).max(1);
        if texts.len() > size {
            let mut vectors = Vec::with_capacity(texts.len());
            for batch in texts.chunks(size) {
                vectors.extend(self.call(batch, kind)?);
            }
            return Ok(vectors);
        }
        let inputs = self.prompts.apply(texts, kind);
        let inputs: Vec<&str> = inputs.iter().map(AsRef::as_ref).collect();
        let body = self
            .api
            .request(&self.model, self.requested_dimensions, &inputs, kind);
        let started = Instant::now();
        let Some(answer) = self.poster.post(&body, texts.len() > 1)? else {
            let half = texts.len() / 2;
            self.max_batch.fetch_min(half, Ordering::Relaxed);
            let rate = self.rate().map_or_else(
                || "no request answered yet".to_owned(),
                |rate| format!("the answered requests reached {rate:.1} texts/s"),
            );
            tracing::warn!(
                provider = self.api.name(),
                texts = texts.len(),
                batch = half,
                "an embedding request got no answer within embeddings.timeoutMs: its texts go {half} at a time from now on ({rate})"
            );
            let mut vectors = self.call(&texts[..half], kind)?;
            vectors.extend(self.call(&texts[half..], kind)?);
            return Ok(vectors);
        };
        let mut answered = self.answered.lock().unwrap_or_else(PoisonError::into_inner);
        answered.0 += texts.len();
        answered.1 += started.elapsed();
        drop(answered);
        self.api
            .vectors(answer, texts.len())
            .map_err(|e| EmbedError::bad_response(self.api.name(), e))
    }

    /// Texts per second over the answered requests (`None` before the first answer).
    fn rate(&self) -> Option<f64> {
        let (texts, took) = *self.answered.lock().unwrap_or_else(PoisonError::into_inner);
        (texts > 0 && !took.is_zero()).then(|| texts as f64 / took.as_secs_f64())
    }
}

impl EmbeddingProvider for RemoteProvider {
    fn fingerprint(&self) -> &EmbeddingFingerprint {
        &self.fingerprint
    }

    fn max_batch(&self) -> usize {
        self.max_batch.load(Ordering::Relaxed)
    }

    fn embed(&self, texts: &[&str], kind: EmbedKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        embed_in_batches(
            &self.fingerprint,
            self.api.name(),
            self.max_batch(),
            texts,
            |batch| self.call(batch, kind),
        )
    }
}

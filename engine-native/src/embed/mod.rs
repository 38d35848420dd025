//! Embeddings for semantic and hybrid search: texts in, L2-normalised vectors out.
//!
//! - [`EmbeddingProvider`]: the blocking, batched interface every provider implements, with
//!   [`EmbedKind`] (query or document) and the [`EmbeddingFingerprint`] of its vector space.
//! - [`LocalProvider`]: an in-process BERT sentence-transformer (all-MiniLM-L6-v2 class).
//! - [`hub`]: models from the Hugging Face hub: pinned, checked, resumable downloads into the
//!   shared cache.
//! - [`AutoModel`]: provider `auto`: the local model, found or downloaded in the background.
//! - [`RemoteProvider`]: Ollama, OpenAI-compatible, Voyage and Cohere over HTTP, with time
//!   budgets and bounded retries of transient failures.
//! - [`provider_from_config`]: the provider of the `embeddings` config block.
//! - [`Throughput`]: rates and ETAs of downloads and embedding.
//! - [`EmbedError`]: every failure, with what to do; it becomes the tool error
//!   `embedding_provider_error`.

pub mod auto;
pub mod cohere;
pub mod error;
pub mod fingerprint;
pub mod from_config;
pub mod http;
pub mod hub;
pub mod local;
pub mod ollama;
pub mod openai;
pub mod provider;
pub mod remote;
pub mod settings;
pub mod throughput;
pub mod vector;
pub mod voyage;

pub use auto::{AutoModel, Phase};
pub use error::EmbedError;
pub use fingerprint::{EmbeddingFingerprint, Pooling};
pub use from_config::provider_from_config;
pub use http::{ApiKey, HttpSettings};
#[cfg(feature = "local-embeddings")]
pub use local::LocalProvider;
pub use provider::{EmbedKind, EmbeddingProvider};
pub use remote::{RemoteApi, RemoteProvider};
pub use throughput::Throughput;
pub use vector::l2_normalize;

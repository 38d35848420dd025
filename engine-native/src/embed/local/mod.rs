//! The local embedding engine: a sentence-transformer model folder found on disk
//! ([`mod@locate`]), what it says about its model for any engine ([`ModelFiles`]: the
//! architecture, [`pipeline`], the [`known`] models, [`Prompts`]), and the model run in
//! process (with the default-on cargo feature `local-embeddings`; without it,
//! `embeddings.provider: "local"` is refused with what to do) by one of two engines, picked by
//! [`engine`]: ONNX Runtime ([`OnnxProvider`], default-on cargo feature `onnx-runtime`, the
//! library loaded at run time by [`onnx_library`]) or candle ([`LocalProvider`] over its
//! [`transformer`]). Both share [`encoder`] (tokenizer, prefixes, batches by word pieces,
//! [`pool`]ing, fingerprint; the [`tokenizer`], whose XLM-R Unigram is a compact [`unigram`]) and
//! [`weights`]. A [`CrossEncoder`] (a reranking model) runs on
//! ONNX Runtime with the same tokenizer and session code.

#[cfg(feature = "local-embeddings")]
mod bert;
#[cfg(feature = "onnx-runtime")]
pub mod cross_encoder;
#[cfg(feature = "local-embeddings")]
pub mod encoder;
#[cfg(feature = "local-embeddings")]
pub mod engine;
pub mod known;
pub mod locate;
pub mod model_files;
#[cfg(feature = "onnx-runtime")]
pub mod onnx;
#[cfg(feature = "onnx-runtime")]
pub mod onnx_initializers;
#[cfg(feature = "onnx-runtime")]
pub mod onnx_library;
pub mod pipeline;
#[cfg(feature = "local-embeddings")]
pub mod pool;
pub mod prompts;
#[cfg(feature = "local-embeddings")]
pub mod tokenizer;
#[cfg(feature = "local-embeddings")]
pub mod transformer;
#[cfg(feature = "local-embeddings")]
pub mod unigram;
#[cfg(feature = "local-embeddings")]
pub mod weights;

#[cfg(feature = "local-embeddings")]
pub use bert::LocalProvider;
#[cfg(feature = "onnx-runtime")]
pub use cross_encoder::CrossEncoder;
pub use known::{KNOWN_MODELS, KnownModel, known_model};
pub use locate::{Located, locate, locate_model, model_name, weights_format};
pub use model_files::{Architecture, ModelFiles};
#[cfg(feature = "onnx-runtime")]
pub use onnx::OnnxProvider;
pub use prompts::Prompts;

/// The model used when `embeddings.model` is omitted.
pub use crate::embed::hub::DEFAULT_MODEL;

/// Whether this build has the local embedding engine (cargo feature `local-embeddings`).
pub const HAS_ENGINE: bool = cfg!(feature = "local-embeddings");

/// The batch size used when `embeddings.batchSize` is omitted: 8 beat 32 on both engines
/// (SciFact abstracts cut at 256 word pieces, 2 threads: ONNX Runtime int8 20.6 against 18.3
/// chunks/s, candle 8.6 against 5.4; `bench/embed_throughput.rs`).
pub const DEFAULT_BATCH: usize = 8;

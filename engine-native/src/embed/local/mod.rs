//! The local embedding engine: a sentence-transformer model folder found on disk
//! ([`mod@locate`]), what it says about its model for any engine ([`ModelFiles`]: the
//! architecture, [`pipeline`], the [`known`] models, [`Prompts`]), and the model run in
//! process ([`LocalProvider`] over candle's [`encoder`], with the default-on cargo feature
//! `local-embeddings`; without it, `embeddings.provider: "local"` is refused with what to do).

#[cfg(feature = "local-embeddings")]
mod bert;
#[cfg(feature = "local-embeddings")]
pub mod encoder;
pub mod known;
pub mod locate;
pub mod model_files;
pub mod pipeline;
#[cfg(feature = "local-embeddings")]
pub mod pool;
pub mod prompts;

#[cfg(feature = "local-embeddings")]
pub use bert::LocalProvider;
pub use known::{KNOWN_MODELS, KnownModel, known_model};
pub use locate::{Located, locate, locate_model};
pub use model_files::{Architecture, ModelFiles};
pub use prompts::Prompts;

/// The model used when `embeddings.model` is omitted.
pub use crate::embed::hub::DEFAULT_MODEL;

/// Whether this build has the local embedding engine (cargo feature `local-embeddings`).
pub const HAS_ENGINE: bool = cfg!(feature = "local-embeddings");

/// The batch size used when `embeddings.batchSize` is omitted.
pub const DEFAULT_BATCH: usize = 32;

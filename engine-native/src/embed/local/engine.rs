//! Which engine runs a local model (`embeddings.engine`): ONNX Runtime
//! ([`super::OnnxProvider`], cargo feature `onnx-runtime`) over the folder's ONNX file, or
//! candle ([`super::LocalProvider`]) over `model.safetensors`. `auto` takes ONNX Runtime when
//! the folder has a file of [`ONNX_FILES`] and the library loads, else candle, saying why;
//! the provider reports its engine ([`EmbeddingProvider::engine`]).

use std::path::Path;

use crate::embed::error::EmbedError;
use crate::embed::fingerprint::EmbeddingFingerprint;
use crate::embed::hub::cache::{Env, WEIGHTS_FILE};
use crate::embed::provider::{EmbedKind, EmbeddingProvider};
use crate::embed::settings::{EmbeddingEngine, EmbeddingsConfig};

use super::locate::{Located, ONNX_FILES, model_name, onnx_file};
use super::{DEFAULT_BATCH, LocalProvider};

/// The engine chosen for a model folder.
pub enum Plan {
    /// ONNX Runtime over `file`.
    #[cfg(feature = "onnx-runtime")]
    Onnx {
        /// The ONNX file.
        file: std::path::PathBuf,
        /// The loaded library.
        runtime: &'static super::onnx_library::OnnxRuntime,
    },
    /// Candle over `model.safetensors`.
    Candle {
        /// Why not ONNX Runtime, under `auto`.
        why_not_onnx: Option<String>,
    },
}

impl Plan {
    /// The engine of `setting` for the model in `folder`: ONNX Runtime needs an ONNX file
    /// there and the library (found through `env`), candle `model.safetensors`. `onnx`
    /// without either, or `auto` with neither engine usable, is an error saying what to do.
    pub fn choose(
        setting: EmbeddingEngine,
        folder: &Path,
        env: Env<'_>,
    ) -> Result<Plan, EmbedError> {
        if setting == EmbeddingEngine::Candle {
            return Ok(Plan::Candle { why_not_onnx: None });
        }
        let why_not_onnx = match onnx_plan(folder, env) {
            Ok(plan) => return Ok(plan),
            Err(why) if setting == EmbeddingEngine::Onnx => return Err(why),
            Err(EmbedError::Setup { message, .. }) => message,
            Err(why) => why.to_string(),
        };
        if !folder.join(WEIGHTS_FILE).is_file() && onnx_file(folder).is_some() {
            // An ONNX-only folder: candle has nothing to run, ONNX Runtime's error stands.
            return Err(EmbedError::setup(
                "local",
                format!(
                    "{} has an ONNX model but no {WEIGHTS_FILE} for the candle engine, and \
                     ONNX Runtime cannot run it: {why_not_onnx}",
                    folder.display()
                ),
            ));
        }
        tracing::info!("the local model runs on candle: {why_not_onnx}");
        Ok(Plan::Candle {
            why_not_onnx: Some(why_not_onnx),
        })
    }

    /// What runs the model, for status and `doctor`: `onnx (ONNX Runtime 1.32 from …, file
    /// …)` or `candle (model.safetensors; ONNX Runtime not used: why)`.
    pub fn describe(&self) -> String {
        match self {
            #[cfg(feature = "onnx-runtime")]
            Plan::Onnx { file, runtime } => format!(
                "onnx (ONNX Runtime 1.{} from {}, {})",
                runtime.minor,
                runtime.library.display(),
                file.display()
            ),
            Plan::Candle { why_not_onnx } => match why_not_onnx {
                Some(why) => format!("candle ({WEIGHTS_FILE}; ONNX Runtime not used: {why})"),
                None => format!("candle ({WEIGHTS_FILE}; embeddings.engine is candle)"),
            },
        }
    }
}

/// ONNX Runtime for `folder`, or why not.
#[cfg(feature = "onnx-runtime")]
fn onnx_plan(folder: &Path, env: Env<'_>) -> Result<Plan, EmbedError> {
    let file = onnx_file(folder).ok_or_else(|| no_onnx_file(folder))?;
    let runtime = super::onnx_library::load(env)?;
    Ok(Plan::Onnx { file, runtime })
}

/// This build has no ONNX Runtime engine.
#[cfg(not(feature = "onnx-runtime"))]
fn onnx_plan(folder: &Path, _env: Env<'_>) -> Result<Plan, EmbedError> {
    onnx_file(folder).ok_or_else(|| no_onnx_file(folder))?;
    Err(EmbedError::setup(
        "local",
        "this obsidian-tc was built without its ONNX Runtime engine (cargo feature \
         onnx-runtime): use a build with it, or set embeddings.engine to \"candle\"",
    ))
}

fn no_onnx_file(folder: &Path) -> EmbedError {
    EmbedError::setup(
        "local",
        format!(
            "{} has no ONNX model (looked for {}): put one there, or set embeddings.engine to \
             \"candle\"",
            folder.display(),
            ONNX_FILES.join(", ")
        ),
    )
}

/// Loads the located model of `config` on the engine [`Plan::choose`] picks (the library
/// found through `env`), checking the weights' pinned digest.
pub fn load(
    config: &EmbeddingsConfig,
    located: &Located,
    env: Env<'_>,
) -> Result<Box<dyn EmbeddingProvider>, EmbedError> {
    let name = model_name(config);
    let model = name.as_str();
    let folder = &located.folder;
    let batch = config.batch_size.map_or(DEFAULT_BATCH, |b| b as usize);
    let plan = Plan::choose(config.engine, folder, env)?;
    let engine = plan.describe();
    let inner: Box<dyn EmbeddingProvider> = match plan {
        #[cfg(feature = "onnx-runtime")]
        Plan::Onnx { file, runtime } => {
            let settings = super::onnx::OnnxSettings {
                batch,
                threads: config.threads.map(|t| t as usize),
            };
            Box::new(super::OnnxProvider::load(
                runtime,
                folder,
                &file,
                model,
                settings,
                located.pin_of(&file),
            )?)
        }
        Plan::Candle { .. } => Box::new(LocalProvider::load_checked(
            folder,
            model,
            batch,
            located.pin_of(Path::new(WEIGHTS_FILE)),
        )?),
    };
    Ok(Box::new(WithEngine { inner, engine }))
}

/// A local provider with the description of its engine.
struct WithEngine {
    inner: Box<dyn EmbeddingProvider>,
    engine: String,
}

impl EmbeddingProvider for WithEngine {
    fn fingerprint(&self) -> &EmbeddingFingerprint {
        self.inner.fingerprint()
    }

    fn max_batch(&self) -> usize {
        self.inner.max_batch()
    }

    fn embed(&self, texts: &[&str], kind: EmbedKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.inner.embed(texts, kind)
    }

    fn engine(&self) -> Option<&str> {
        Some(&self.engine)
    }
}

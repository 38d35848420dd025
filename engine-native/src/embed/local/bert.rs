//! [`LocalProvider`]: a sentence-transformer run in process on the CPU with candle: the text
//! side of [`TextEncoder`] (prefixes, word pieces, batches, pooling) around a BERT or
//! XLM-RoBERTa forward pass over `model.safetensors` ([`Transformer`]).

use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;

use crate::embed::error::EmbedError;

use super::encoder::{Network, TextEncoder, TokenBatch};
use super::model_files::ModelFiles;
use super::transformer::Transformer;
use super::weights::Weights;

/// The engine named in the fingerprint.
const ENGINE: &str = "candle";

/// A sentence-transformer loaded in memory.
pub struct LocalProvider {
    model: Transformer,
    text: TextEncoder,
}

impl LocalProvider {
    /// Loads the model in `folder` (see [`super::locate()`]) under the name `model` (which
    /// picks the known model's pooling and prefixes where the folder does not say them),
    /// encoding at most `batch` texts at once. The fingerprint's model is `model@` the start
    /// of the weights' SHA-256, so that other weights under the same name are another space;
    /// it also names the engine and the prefixes.
    pub fn load(folder: &Path, model: &str, batch: usize) -> Result<LocalProvider, EmbedError> {
        LocalProvider::load_checked(folder, model, batch, None)
    }

    /// [`LocalProvider::load`], refusing weights whose SHA-256 is not `weights_sha256` (a
    /// pinned model: a damaged or other file is never loaded).
    pub fn load_checked(
        folder: &Path,
        model: &str,
        batch: usize,
        weights_sha256: Option<&str>,
    ) -> Result<LocalProvider, EmbedError> {
        let files = ModelFiles::read(folder, model)?;
        let weights_path = folder.join("model.safetensors");
        let weights = Weights::read(&weights_path, model, weights_sha256)?;
        let vars = VarBuilder::from_buffered_safetensors(weights.bytes, DType::F32, &Device::Cpu)
            .map_err(|e| model_error(&weights_path, e))?;
        let transformer = Transformer::load(files.architecture, folder, vars)?;
        Ok(LocalProvider {
            model: transformer,
            text: TextEncoder::new(folder, &files, ENGINE, weights.model_id, batch)?,
        })
    }

    /// The most word pieces (special tokens included) of one input; the rest is cut.
    pub fn max_tokens(&self) -> usize {
        self.text.max_tokens()
    }
}

impl Network for LocalProvider {
    fn text(&self) -> &TextEncoder {
        &self.text
    }

    fn forward(&self, batch: &TokenBatch) -> Result<Vec<f32>, EmbedError> {
        let shape = (batch.rows, batch.width);
        let run = || -> candle_core::Result<Vec<f32>> {
            let ids = Tensor::from_slice(&batch.ids, shape, &Device::Cpu)?;
            let mask = Tensor::from_slice(&batch.mask, shape, &Device::Cpu)?;
            let hidden = self.model.forward(&ids, &mask)?;
            hidden.flatten_all()?.to_vec1::<f32>()
        };
        run().map_err(|e| EmbedError::Model {
            message: e.to_string(),
        })
    }
}

fn model_error(path: &Path, error: candle_core::Error) -> EmbedError {
    EmbedError::setup(
        "local",
        format!(
            "{} is not a safetensors file this server can load: {error}",
            path.display()
        ),
    )
}

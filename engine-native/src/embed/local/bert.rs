//! [`LocalProvider`]: a BERT sentence-transformer run in process on the CPU with candle:
//! `tokenizer.json` word pieces cut at the model's longest input, a BERT forward pass over
//! `model.safetensors`, the pooling of `1_Pooling`, L2 normalisation. Queries and documents
//! are encoded alike.

use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use candle_transformers::models::bert::BertModel;

use crate::embed::error::EmbedError;
use crate::embed::fingerprint::EmbeddingFingerprint;
use crate::embed::provider::{EmbedKind, EmbeddingProvider};

use super::encoder::{TextEncoder, TokenBatch};
use super::model_files::ModelFiles;
use super::weights::Weights;

/// A sentence-transformer loaded in memory.
pub struct LocalProvider {
    model: BertModel,
    text: TextEncoder,
}

impl LocalProvider {
    /// Loads the model in `folder` (see [`super::locate()`]) under the name `model`, encoding
    /// at most `batch` texts at once. The fingerprint's model is `model@` the start of the
    /// weights' SHA-256, so that other weights under the same name are another space.
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
        let files = ModelFiles::read(folder)?;
        let weights_path = folder.join("model.safetensors");
        let weights = Weights::read(&weights_path, model, weights_sha256)?;
        let vars = VarBuilder::from_buffered_safetensors(weights.bytes, DType::F32, &Device::Cpu)
            .map_err(|e| model_error(&weights_path, e))?;
        let bert = BertModel::load(vars, &files.bert).map_err(|e| model_error(&weights_path, e))?;
        Ok(LocalProvider {
            model: bert,
            text: TextEncoder::new(folder, &files, weights.model_id, batch)?,
        })
    }

    /// The most word pieces (special tokens included) of one input; the rest is cut.
    pub fn max_tokens(&self) -> usize {
        self.text.max_tokens()
    }

    /// The token vectors of one batch, flat.
    fn forward(&self, batch: &TokenBatch) -> Result<Vec<f32>, EmbedError> {
        let shape = (batch.rows, batch.width);
        let run = || -> candle_core::Result<Vec<f32>> {
            let ids = Tensor::from_slice(&batch.ids, shape, &Device::Cpu)?;
            let mask = Tensor::from_slice(&batch.mask, shape, &Device::Cpu)?;
            let hidden = self.model.forward(&ids, &ids.zeros_like()?, Some(&mask))?;
            hidden.flatten_all()?.to_vec1::<f32>()
        };
        run().map_err(|e| EmbedError::Model {
            message: e.to_string(),
        })
    }
}

impl EmbeddingProvider for LocalProvider {
    fn fingerprint(&self) -> &EmbeddingFingerprint {
        self.text.fingerprint()
    }

    fn max_batch(&self) -> usize {
        self.text.max_batch()
    }

    /// Queries and documents are encoded alike.
    fn embed(&self, texts: &[&str], _kind: EmbedKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        self.text.embed(texts, |batch| self.forward(batch))
    }
}

fn model_error(path: &Path, error: candle_core::Error) -> EmbedError {
    EmbedError::setup(
        "local",
        format!(
            "{} is not a BERT model this server can load: {error}",
            path.display()
        ),
    )
}

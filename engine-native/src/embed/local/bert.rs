//! [`LocalProvider`]: a sentence-transformer run in process on the CPU with candle: the
//! model's prefix of queries or documents ([`Prompts`]), `tokenizer.json` word pieces cut at
//! the model's longest input, a BERT or XLM-RoBERTa forward pass over `model.safetensors`
//! ([`Encoder`]), the model's pooling, L2 normalisation.

use std::path::Path;

use candle_core::{DType, Device, Tensor};
use candle_nn::VarBuilder;
use engine_core::hash::sha256_hex;
use tokenizers::{PaddingParams, PaddingStrategy, Tokenizer, TruncationParams};

use crate::embed::error::EmbedError;
use crate::embed::fingerprint::{EmbeddingFingerprint, Pooling};
use crate::embed::provider::{EmbedKind, EmbeddingProvider, embed_in_batches};

use super::encoder::Encoder;
use super::model_files::ModelFiles;
use super::pool;
use super::prompts::Prompts;

/// The engine named in the fingerprint.
const ENGINE: &str = "candle";

/// How many hex digits of the weights' SHA-256 go into the fingerprint.
const DIGEST_CHARS: usize = 12;

/// A sentence-transformer loaded in memory.
pub struct LocalProvider {
    model: Encoder,
    prompts: Prompts,
    tokenizer: Tokenizer,
    pooling: Pooling,
    max_tokens: usize,
    max_batch: usize,
    fingerprint: EmbeddingFingerprint,
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
        let weights = std::fs::read(&weights_path).map_err(|e| {
            EmbedError::setup(
                "local",
                format!("cannot read {}: {e}", weights_path.display()),
            )
        })?;
        let digest = sha256_hex(&weights);
        if let Some(expected) = weights_sha256
            && !digest.eq_ignore_ascii_case(expected)
        {
            return Err(EmbedError::setup(
                "local",
                format!(
                    "{} has SHA-256 {digest}, not the pinned {expected}: it is damaged or \
                     another model, and was not loaded; delete it and run `obsidian-tc model \
                     pull`",
                    weights_path.display()
                ),
            ));
        }
        let vars = VarBuilder::from_buffered_safetensors(weights, DType::F32, &Device::Cpu)
            .map_err(|e| model_error(&weights_path, e))?;
        let encoder = Encoder::load(files.architecture, folder, vars)?;
        let tokenizer = load_tokenizer(&folder.join("tokenizer.json"), files.max_tokens)?;
        Ok(LocalProvider {
            model: encoder,
            tokenizer,
            pooling: files.pooling,
            max_tokens: files.max_tokens,
            max_batch: batch.max(1),
            fingerprint: EmbeddingFingerprint {
                provider: "local".to_owned(),
                engine: ENGINE.to_owned(),
                model: format!("{model}@{}", &digest[..DIGEST_CHARS]),
                dimensions: files.dimensions,
                pooling: files.pooling,
                normalized: true,
                prompts: files.prompts.digest(),
            },
            prompts: files.prompts,
        })
    }

    /// The most word pieces (special tokens included) of one input; the rest is cut.
    pub fn max_tokens(&self) -> usize {
        self.max_tokens
    }

    /// The pooled, unnormalised vectors of one batch.
    fn encode(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let encodings = self
            .tokenizer
            .encode_batch(texts.to_vec(), true)
            .map_err(|e| EmbedError::Model {
                message: format!("tokenizing failed: {e}"),
            })?;
        let rows = encodings.len();
        let width = encodings.first().map_or(0, |e| e.get_ids().len());
        let flat = |part: fn(&tokenizers::Encoding) -> &[u32]| -> Vec<u32> {
            encodings
                .iter()
                .flat_map(|e| part(e).iter().copied())
                .collect()
        };
        let run = || -> candle_core::Result<Vec<Vec<f32>>> {
            let ids = Tensor::from_vec(
                flat(tokenizers::Encoding::get_ids),
                (rows, width),
                &Device::Cpu,
            )?;
            let mask = Tensor::from_vec(
                flat(tokenizers::Encoding::get_attention_mask),
                (rows, width),
                &Device::Cpu,
            )?;
            let hidden = self.model.forward(&ids, &mask)?;
            pool::pool(&hidden, &mask, self.pooling)?.to_vec2::<f32>()
        };
        run().map_err(|e| EmbedError::Model {
            message: e.to_string(),
        })
    }
}

impl EmbeddingProvider for LocalProvider {
    fn fingerprint(&self) -> &EmbeddingFingerprint {
        &self.fingerprint
    }

    fn max_batch(&self) -> usize {
        self.max_batch
    }

    /// Texts get the model's prefix of `kind`, are encoded shortest first, so that each batch
    /// pads to similar lengths, and are returned in the caller's order.
    fn embed(&self, texts: &[&str], kind: EmbedKind) -> Result<Vec<Vec<f32>>, EmbedError> {
        let inputs = self.prompts.apply(texts, kind);
        let texts: Vec<&str> = inputs.iter().map(AsRef::as_ref).collect();
        let mut order: Vec<usize> = (0..texts.len()).collect();
        order.sort_by_key(|&i| texts[i].len());
        let sorted: Vec<&str> = order.iter().map(|&i| texts[i]).collect();
        let vectors = embed_in_batches(
            &self.fingerprint,
            "local",
            self.max_batch,
            &sorted,
            |batch| self.encode(batch),
        )?;
        let mut out = vec![Vec::new(); texts.len()];
        for (vector, index) in vectors.into_iter().zip(order) {
            out[index] = vector;
        }
        Ok(out)
    }
}

/// The tokenizer of `path`, cutting inputs at `max_tokens` and padding each batch to its
/// longest input (the file's own fixed padding and truncation, if any, are replaced).
fn load_tokenizer(path: &Path, max_tokens: usize) -> Result<Tokenizer, EmbedError> {
    let mut tokenizer = Tokenizer::from_file(path)
        .map_err(|e| EmbedError::setup("local", format!("cannot load {}: {e}", path.display())))?;
    let padding = PaddingParams {
        strategy: PaddingStrategy::BatchLongest,
        ..tokenizer.get_padding().cloned().unwrap_or_default()
    };
    tokenizer.with_padding(Some(padding));
    tokenizer
        .with_truncation(Some(TruncationParams {
            max_length: max_tokens,
            ..TruncationParams::default()
        }))
        .map_err(|e| EmbedError::setup("local", format!("cannot truncate at {max_tokens}: {e}")))?;
    Ok(tokenizer)
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

//! [`CrossEncoder`]: a reranking model (a BERT or XLM-RoBERTa sequence classifier with one
//! label, as sentence-transformers' `CrossEncoder` saves it, exported to ONNX) run by ONNX
//! Runtime. It reads the query and a passage together and scores how well the passage
//! answers the query: slower than comparing vectors, so search runs it only over its first
//! notes (`search.rerank`). The tokenizer, truncation (the longer of the two texts cut first,
//! as `truncation=True` does in transformers) and the session are those of the embedding
//! engine ([`super::encoder`], [`super::onnx::OnnxGraph`]).

use std::path::{Path, PathBuf};

use crate::embed::error::EmbedError;
use crate::embed::hub::cache::Env;

use super::encoder::{TokenBatch, load_tokenizer};
use super::locate::{ONNX_FILES, locate_model, onnx_file};
use super::model_files::ModelFiles;
use super::onnx::OnnxGraph;
use super::tokenizer::TextTokenizer;
use super::weights::Weights;

/// The graph output of the scores; without it, the first output.
const LOGITS_OUTPUT: &str = "logits";
/// The most pairs scored in one session run.
const PAIRS_PER_RUN: usize = 8;

/// A cross-encoder loaded in ONNX Runtime.
pub struct CrossEncoder {
    graph: OnnxGraph,
    output: String,
    tokenizer: TextTokenizer,
    /// `model@` the start of the ONNX file's SHA-256.
    model_id: String,
    /// The ONNX file run.
    file: PathBuf,
}

impl CrossEncoder {
    /// The cross-encoder `model`: a folder path, else a repository id found in the Hugging
    /// Face cache (through `env`, as embedding models are; it is not downloaded), run on the
    /// ONNX Runtime library `env` points at with `threads` intra-op threads (`None`: one per
    /// core). The folder needs `config.json`, `tokenizer.json` and an ONNX file of
    /// [`ONNX_FILES`].
    pub fn load(
        model: &str,
        env: Env<'_>,
        threads: Option<usize>,
    ) -> Result<CrossEncoder, EmbedError> {
        let path = Path::new(model);
        let folder = if path.is_dir() {
            path.to_path_buf()
        } else {
            locate_model(model, None, env)?
        };
        let file = onnx_file(&folder).ok_or_else(|| {
            EmbedError::setup(
                "local",
                format!(
                    "the reranker {} has no ONNX model (looked for {}): export it with \
                     `optimum-cli export onnx --task text-classification`",
                    folder.display(),
                    ONNX_FILES.join(", ")
                ),
            )
        })?;
        let runtime = super::onnx_library::load(env)?;
        let files = ModelFiles::read(&folder, model)?;
        let model_id = Weights::identify(&file, model, None)?;
        let graph = OnnxGraph::open(runtime, &file, threads, 1)?;
        let output = graph.output(LOGITS_OUTPUT, &file)?;
        Ok(CrossEncoder {
            graph,
            output,
            tokenizer: load_tokenizer(&folder.join("tokenizer.json"), files.max_tokens)?,
            model_id,
            file,
        })
    }

    /// Which model this is: `model@` the start of its ONNX file's SHA-256.
    pub fn model_id(&self) -> &str {
        &self.model_id
    }

    /// The ONNX file run.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The score of each of `passages` for `query` (the model's logit: higher is better),
    /// in order.
    pub fn score(&self, query: &str, passages: &[&str]) -> Result<Vec<f32>, EmbedError> {
        let mut scores = Vec::with_capacity(passages.len());
        for group in passages.chunks(PAIRS_PER_RUN) {
            let batch = TokenBatch::encode_pairs(&self.tokenizer, query, group)?;
            let (shape, logits) = self.graph.run(&batch, &self.output)?;
            if shape != [batch.rows, 1] {
                return Err(EmbedError::Model {
                    message: format!(
                        "the reranker's output {} has shape {shape:?}, not one score per pair \
                         [{}, 1]: a cross-encoder with a single label is needed",
                        self.output, batch.rows
                    ),
                });
            }
            scores.extend(logits);
        }
        Ok(scores)
    }
}

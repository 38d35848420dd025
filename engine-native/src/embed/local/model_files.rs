//! What a sentence-transformers folder says about its model: the BERT config
//! (`config.json`), the pooling (`1_Pooling/config.json`) and the longest input
//! (`sentence_bert_config.json`).

use std::path::Path;

use candle_transformers::models::bert::Config as BertConfig;
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::embed::error::EmbedError;
use crate::embed::fingerprint::Pooling;

/// The settings read from a model folder.
#[derive(Debug, Clone)]
pub struct ModelFiles {
    /// The BERT architecture.
    pub bert: BertConfig,
    /// How token vectors are pooled.
    pub pooling: Pooling,
    /// The most word pieces (special tokens included) fed to the model; longer texts are
    /// truncated.
    pub max_tokens: usize,
    /// The vector length (`hidden_size`).
    pub dimensions: usize,
}

#[derive(Deserialize)]
struct PoolingFile {
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
    #[serde(default)]
    pooling_mode_max_tokens: bool,
    #[serde(default)]
    pooling_mode_mean_sqrt_len_tokens: bool,
}

#[derive(Deserialize)]
struct SentenceBertFile {
    max_seq_length: Option<usize>,
}

impl ModelFiles {
    /// Reads the settings of the model in `folder`. Without `1_Pooling/config.json` the
    /// pooling is the mean; without `sentence_bert_config.json` inputs are cut at the model's
    /// position limit.
    pub fn read(folder: &Path) -> Result<ModelFiles, EmbedError> {
        let bert: BertConfig = read_json(&folder.join("config.json"))?;
        let pooling_path = folder.join("1_Pooling").join("config.json");
        let pooling = if pooling_path.is_file() {
            pooling_of(&read_json(&pooling_path)?, &pooling_path)?
        } else {
            Pooling::Mean
        };
        let sentence_path = folder.join("sentence_bert_config.json");
        let max_seq = if sentence_path.is_file() {
            read_json::<SentenceBertFile>(&sentence_path)?.max_seq_length
        } else {
            None
        };
        Ok(ModelFiles {
            pooling,
            max_tokens: max_seq
                .unwrap_or(bert.max_position_embeddings)
                .min(bert.max_position_embeddings),
            dimensions: bert.hidden_size,
            bert,
        })
    }
}

/// The one pooling mode a pooling file switches on.
fn pooling_of(file: &PoolingFile, path: &Path) -> Result<Pooling, EmbedError> {
    match (
        file.pooling_mode_mean_tokens,
        file.pooling_mode_cls_token,
        file.pooling_mode_max_tokens,
        file.pooling_mode_mean_sqrt_len_tokens,
    ) {
        (true, false, false, false) => Ok(Pooling::Mean),
        (false, true, false, false) => Ok(Pooling::Cls),
        (false, false, true, false) => Ok(Pooling::Max),
        _ => Err(EmbedError::setup(
            "local",
            format!(
                "{} asks for a pooling other than exactly one of mean, cls or max: use a model \
                 with one of those",
                path.display()
            ),
        )),
    }
}

fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, EmbedError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| EmbedError::setup("local", format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        EmbedError::setup(
            "local",
            format!(
                "{} is not a model file this server understands: {e}",
                path.display()
            ),
        )
    })
}

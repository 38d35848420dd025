//! [`Transformer`]: the candle network of a model folder, BERT or XLM-RoBERTa as
//! [`ModelFiles::architecture`](super::ModelFiles::architecture) says, each through its `candle_transformers` model with the
//! config that model reads from `config.json`.

use std::path::Path;

use candle_core::Tensor;
use candle_nn::VarBuilder;
use candle_transformers::models::bert::{BertModel, Config as BertConfig};
use candle_transformers::models::xlm_roberta::{Config as XlmRobertaConfig, XLMRobertaModel};
use serde_json::Value;

use crate::embed::error::EmbedError;

use super::model_files::{Architecture, read_json};

/// A loaded transformer that turns token ids into token vectors.
pub enum Transformer {
    /// A BERT model.
    Bert(BertModel),
    /// An XLM-RoBERTa model.
    XlmRoberta(XLMRobertaModel),
}

impl Transformer {
    /// The `architecture` model of `folder`'s `config.json` over the weights `vars`.
    pub fn load(
        architecture: Architecture,
        folder: &Path,
        vars: VarBuilder,
    ) -> Result<Transformer, EmbedError> {
        let config_path = folder.join("config.json");
        let failed = |e: candle_core::Error| {
            EmbedError::setup(
                "local",
                format!(
                    "{} is not a {} model this server can load: {e}",
                    folder.display(),
                    architecture.as_str()
                ),
            )
        };
        match architecture {
            Architecture::Bert => {
                let config: BertConfig = read_json(&config_path)?;
                BertModel::load(vars, &config)
                    .map(Transformer::Bert)
                    .map_err(failed)
            }
            Architecture::XlmRoberta => {
                let config = xlm_roberta_config(&config_path)?;
                // Saved from XLMRobertaModel the names start at `embeddings.`; from a model
                // with a head, under `roberta.`.
                let vars = if vars.contains_tensor("roberta.embeddings.word_embeddings.weight") {
                    vars.pp("roberta")
                } else {
                    vars
                };
                XLMRobertaModel::new(&config, vars)
                    .map(Transformer::XlmRoberta)
                    .map_err(failed)
            }
        }
    }

    /// The token vectors `(batch, tokens, dims)` of `ids` `(batch, tokens)`, where `mask` is
    /// 1 for real tokens and 0 for padding.
    pub fn forward(&self, ids: &Tensor, mask: &Tensor) -> candle_core::Result<Tensor> {
        let types = ids.zeros_like()?;
        match self {
            Transformer::Bert(model) => model.forward(ids, &types, Some(mask)),
            Transformer::XlmRoberta(model) => model.forward(ids, mask, &types, None, None, None),
        }
    }
}

/// The XLM-R config of `path`. transformers 5 no longer writes `position_embedding_type`,
/// which candle requires: absent, it is `absolute`; any other (relative positions, which
/// candle's model does not compute) is refused.
fn xlm_roberta_config(path: &Path) -> Result<XlmRobertaConfig, EmbedError> {
    let mut config: Value = read_json(path)?;
    let positions = config
        .get("position_embedding_type")
        .and_then(Value::as_str)
        .unwrap_or("absolute")
        .to_owned();
    if positions != "absolute" {
        return Err(EmbedError::setup(
            "local",
            format!(
                "{} asks for {positions:?} position embeddings; the local engine computes only \
                 absolute ones: use another model",
                path.display()
            ),
        ));
    }
    if let Some(object) = config.as_object_mut() {
        object.insert("position_embedding_type".to_owned(), positions.into());
    }
    serde_json::from_value(config).map_err(|e| {
        EmbedError::setup(
            "local",
            format!("{} is not an XLM-RoBERTa config: {e}", path.display()),
        )
    })
}

//! [`TextTokenizer`]: a model folder's `tokenizer.json` read by the `tokenizers` crate, with
//! one change: a Unigram model without byte fallback (XLM-R's, so multilingual-e5-small's) is
//! a [`CompactUnigram`] instead of the crate's, which holds 280 MB for e5's 250,002 pieces.
//! Normalizer, pre-tokenizer, added tokens, post-processor, truncation and padding are the
//! crate's, read from the same file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};
use tokenizers::models::{ModelWrapper, TrainerWrapper};
use tokenizers::{
    DecoderWrapper, Model, NormalizerWrapper, PostProcessorWrapper, PreTokenizerWrapper, Token,
    TokenizerImpl,
};

use super::unigram::CompactUnigram;

/// A tokenizer whose model is a [`TextModel`].
pub type TextTokenizer = TokenizerImpl<
    TextModel,
    NormalizerWrapper,
    PreTokenizerWrapper,
    PostProcessorWrapper,
    DecoderWrapper,
>;

/// The model of a `tokenizer.json`: the crate's, or a [`CompactUnigram`].
pub enum TextModel {
    /// WordPiece, BPE, WordLevel, or a Unigram with byte fallback: the crate's model.
    Crate(ModelWrapper),
    /// A Unigram without byte fallback.
    Compact(CompactUnigram),
}

/// The fields of a `Unigram` model entry in `tokenizer.json`.
#[derive(Deserialize)]
struct UnigramEntry {
    unk_id: Option<usize>,
    vocab: Vec<(String, f64)>,
}

impl<'de> Deserialize<'de> for TextModel {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let entry = serde_json::Value::deserialize(deserializer)?;
        let unigram = entry.get("type").and_then(|kind| kind.as_str()) == Some("Unigram");
        let byte_fallback = entry
            .get("byte_fallback")
            .and_then(serde_json::Value::as_bool)
            .unwrap_or(false);
        if unigram && !byte_fallback {
            let UnigramEntry { unk_id, vocab } =
                UnigramEntry::deserialize(entry).map_err(serde::de::Error::custom)?;
            return CompactUnigram::new(vocab, unk_id)
                .map(TextModel::Compact)
                .map_err(serde::de::Error::custom);
        }
        ModelWrapper::deserialize(entry)
            .map(TextModel::Crate)
            .map_err(serde::de::Error::custom)
    }
}

impl Model for TextModel {
    type Trainer = TrainerWrapper;

    fn tokenize(&self, sequence: &str) -> tokenizers::Result<Vec<Token>> {
        match self {
            TextModel::Crate(model) => model.tokenize(sequence),
            TextModel::Compact(model) => model.tokenize(sequence),
        }
    }

    fn token_to_id(&self, token: &str) -> Option<u32> {
        match self {
            TextModel::Crate(model) => model.token_to_id(token),
            TextModel::Compact(model) => model.token_to_id(token),
        }
    }

    fn id_to_token(&self, id: u32) -> Option<String> {
        match self {
            TextModel::Crate(model) => model.id_to_token(id),
            TextModel::Compact(model) => model.id_to_token(id),
        }
    }

    fn get_vocab(&self) -> HashMap<String, u32> {
        match self {
            TextModel::Crate(model) => model.get_vocab(),
            TextModel::Compact(model) => model.get_vocab(),
        }
    }

    fn get_vocab_size(&self) -> usize {
        match self {
            TextModel::Crate(model) => model.get_vocab_size(),
            TextModel::Compact(model) => model.get_vocab_size(),
        }
    }

    fn save(&self, folder: &Path, prefix: Option<&str>) -> tokenizers::Result<Vec<PathBuf>> {
        match self {
            TextModel::Crate(model) => model.save(folder, prefix),
            TextModel::Compact(model) => model.save(folder, prefix),
        }
    }

    fn get_trainer(&self) -> TrainerWrapper {
        match self {
            TextModel::Crate(model) => model.get_trainer(),
            TextModel::Compact(model) => model.get_trainer(),
        }
    }
}

//! [`EmbeddingFingerprint`]: what makes two vectors comparable. It is stored with an index;
//! vectors made under another fingerprint are never mixed with it.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How token vectors become one text vector.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Pooling {
    /// The mean of the token vectors (padding excluded).
    Mean,
    /// The vector of the first (`[CLS]`) token.
    Cls,
    /// The element-wise maximum of the token vectors (padding excluded).
    Max,
    /// Whatever the remote provider does inside its API (not visible to us).
    Provider,
}

impl Pooling {
    /// The wire name, e.g. `mean`.
    pub fn as_str(self) -> &'static str {
        match self {
            Pooling::Mean => "mean",
            Pooling::Cls => "cls",
            Pooling::Max => "max",
            Pooling::Provider => "provider",
        }
    }
}

/// The identity of an embedding space: equal fingerprints produce comparable vectors.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EmbeddingFingerprint {
    /// The provider's config name: `local`, `ollama`, `openai`, `voyage` or `cohere`.
    pub provider: String,
    /// The engine that computes the vectors in process: `candle` or `onnxruntime` for the
    /// local provider (the same weights give slightly different vectors on each); empty for a
    /// remote provider, whose service is named by `provider`.
    #[serde(default)]
    pub engine: String,
    /// The model name; for a local model, its name and a digest of its weights file.
    pub model: String,
    /// The length of every vector.
    pub dimensions: usize,
    /// How token vectors are pooled into one.
    pub pooling: Pooling,
    /// Whether vectors are L2-normalised (always true for this module's providers).
    pub normalized: bool,
    /// A short digest of the texts put before queries and documents (the model's prompts,
    /// see [`crate::embed::local::Prompts::digest`]); empty when the model uses none.
    #[serde(default)]
    pub prompts: String,
}

impl EmbeddingFingerprint {
    /// The stable string form: provider, model, dimensions, pooling and normalisation, then
    /// the engine and `prompts:` digest when there are any, e.g.
    /// `local|intfloat/multilingual-e5-small@1a2b3c4d5e6f|384|mean|l2|candle|prompts:9f3c0a1b`
    /// or `openai|text-embedding-3-small|512|provider|l2`.
    pub fn id(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for EmbeddingFingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let norm = if self.normalized { "l2" } else { "raw" };
        write!(
            f,
            "{}|{}|{}|{}|{norm}",
            self.provider,
            self.model,
            self.dimensions,
            self.pooling.as_str()
        )?;
        if !self.engine.is_empty() {
            write!(f, "|{}", self.engine)?;
        }
        if !self.prompts.is_empty() {
            write!(f, "|prompts:{}", self.prompts)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(model: &str, dimensions: usize) -> EmbeddingFingerprint {
        EmbeddingFingerprint {
            provider: "openai".to_owned(),
            engine: String::new(),
            model: model.to_owned(),
            dimensions,
            pooling: Pooling::Provider,
            normalized: true,
            prompts: String::new(),
        }
    }

    #[test]
    fn the_id_names_every_field_and_differs_when_any_does() {
        let a = print("text-embedding-3-small", 512);
        assert_eq!(a.id(), "openai|text-embedding-3-small|512|provider|l2");
        assert_ne!(a.id(), print("text-embedding-3-small", 1536).id());
        assert_ne!(a.id(), print("text-embedding-3-large", 512).id());
        assert_eq!(a, print("text-embedding-3-small", 512));
    }

    #[test]
    fn a_local_id_adds_the_engine_and_the_prompts_and_differs_by_each() {
        let candle = EmbeddingFingerprint {
            provider: "local".to_owned(),
            engine: "candle".to_owned(),
            model: "intfloat/multilingual-e5-small@1a2b3c4d5e6f".to_owned(),
            dimensions: 384,
            pooling: Pooling::Mean,
            normalized: true,
            prompts: "9f3c0a1b".to_owned(),
        };
        assert_eq!(
            candle.id(),
            "local|intfloat/multilingual-e5-small@1a2b3c4d5e6f|384|mean|l2|candle|prompts:9f3c0a1b"
        );
        let onnx = EmbeddingFingerprint {
            engine: "onnxruntime".to_owned(),
            ..candle.clone()
        };
        let bare = EmbeddingFingerprint {
            prompts: String::new(),
            ..candle.clone()
        };
        let cls = EmbeddingFingerprint {
            pooling: Pooling::Cls,
            ..candle.clone()
        };
        assert_ne!(candle.id(), onnx.id());
        assert_ne!(candle.id(), bare.id());
        assert_ne!(candle.id(), cls.id());
        assert_eq!(
            bare.id(),
            "local|intfloat/multilingual-e5-small@1a2b3c4d5e6f|384|mean|l2|candle"
        );
    }
}

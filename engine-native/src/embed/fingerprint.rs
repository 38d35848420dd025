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
    /// The model name; for a local model, its name and a digest of its weights file.
    pub model: String,
    /// The length of every vector.
    pub dimensions: usize,
    /// How token vectors are pooled into one.
    pub pooling: Pooling,
    /// Whether vectors are L2-normalised (always true for this module's providers).
    pub normalized: bool,
}

impl EmbeddingFingerprint {
    /// The stable string form, e.g. `local|all-MiniLM-L6-v2@1a2b3c4d5e6f|384|mean|l2`.
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
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn print(model: &str, dimensions: usize) -> EmbeddingFingerprint {
        EmbeddingFingerprint {
            provider: "openai".to_owned(),
            model: model.to_owned(),
            dimensions,
            pooling: Pooling::Provider,
            normalized: true,
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
}

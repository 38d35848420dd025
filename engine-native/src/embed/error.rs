//! [`EmbedError`]: why an embedding could not be computed, and what to do about it.

use std::fmt;

use crate::errors::{ErrorCode, ToolError};

/// A failed embedding. Every message names the provider and says what to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EmbedError {
    /// The provider is misconfigured or its model is missing; retrying will not help.
    Setup {
        /// The provider's config name.
        provider: &'static str,
        /// What is wrong and how to fix it.
        message: String,
    },
    /// The provider refused the request (a 4xx other than 429: bad key, unknown model...).
    Rejected {
        /// The provider's config name.
        provider: &'static str,
        /// The HTTP status.
        status: u16,
        /// The start of the provider's answer.
        body: String,
    },
    /// The provider stayed unreachable, busy or failing (connect errors, timeouts, 429, 5xx)
    /// through every retry.
    Unavailable {
        /// The provider's config name.
        provider: &'static str,
        /// How many attempts were made.
        attempts: u32,
        /// The last failure.
        last: String,
    },
    /// The provider answered something unusable (bad JSON, wrong count or length of vectors).
    BadResponse {
        /// The provider's config name.
        provider: &'static str,
        /// What was wrong with the answer.
        message: String,
    },
    /// The local model failed while computing (tokenizer or tensor error).
    Model {
        /// What failed.
        message: String,
    },
    /// The local model folder holds an architecture no local engine runs (its vectors would
    /// be wrong), e.g. `model_type: "t5"`.
    UnsupportedArchitecture {
        /// The `config.json` read.
        config: String,
        /// Its `model_type`, empty when it has none.
        model_type: String,
        /// The architectures that are supported, e.g. `["bert", "xlm-roberta"]`.
        supported: &'static [&'static str],
    },
}

impl EmbedError {
    /// A setup error of `provider`.
    pub fn setup(provider: &'static str, message: impl Into<String>) -> EmbedError {
        EmbedError::Setup {
            provider,
            message: message.into(),
        }
    }

    /// A bad answer of `provider`.
    pub fn bad_response(provider: &'static str, message: impl Into<String>) -> EmbedError {
        EmbedError::BadResponse {
            provider,
            message: message.into(),
        }
    }

    /// Whether the same request can succeed later without a change of config.
    pub fn is_transient(&self) -> bool {
        matches!(self, EmbedError::Unavailable { .. })
    }

    /// The tool error `embedding_provider_error` carrying this message; `retryable` only
    /// when the provider was unavailable.
    pub fn to_tool_error(&self) -> ToolError {
        let mut error = ToolError::new(ErrorCode::EmbeddingProviderError, self.to_string());
        error.retryable = self.is_transient();
        error
    }
}

impl fmt::Display for EmbedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmbedError::Setup { provider, message } => {
                write!(f, "embedding provider {provider}: {message}")
            }
            EmbedError::Rejected {
                provider,
                status,
                body,
            } => {
                let hint = match status {
                    401 | 403 => {
                        "check the API key (embeddings.apiKey, embeddings.apiKeyEnv or the provider's usual variable)"
                    }
                    404 => "check embeddings.endpoint and embeddings.model",
                    _ => {
                        "check embeddings.model and embeddings.dimensions against the provider's documentation"
                    }
                };
                write!(
                    f,
                    "embedding provider {provider} refused the request with HTTP {status}: {hint}; it said: {body}"
                )
            }
            EmbedError::Unavailable {
                provider,
                attempts,
                last,
            } => write!(
                f,
                "embedding provider {provider} is unavailable after {attempts} attempt(s) ({last}): check that it is running and reachable at embeddings.endpoint, then retry"
            ),
            EmbedError::BadResponse { provider, message } => write!(
                f,
                "embedding provider {provider} answered something unusable: {message}; check embeddings.endpoint points at the right API"
            ),
            EmbedError::Model { message } => write!(
                f,
                "embedding provider local: the model failed: {message}; check that embeddings.modelPath holds an intact sentence-transformers model"
            ),
            EmbedError::UnsupportedArchitecture {
                config,
                model_type,
                supported,
            } => {
                let found = if model_type.is_empty() {
                    "names no model_type".to_owned()
                } else {
                    format!("is model_type {model_type:?}")
                };
                write!(
                    f,
                    "embedding provider local: {config} {found}, which no local engine runs; supported architectures: {}; pick a model of one of those (see docs/guide.md, \"Local models\", in the obsidian-tc repository)",
                    supported.join(", ")
                )
            }
        }
    }
}

impl std::error::Error for EmbedError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_unavailable_is_retryable_and_every_message_names_the_provider() {
        let rejected = EmbedError::Rejected {
            provider: "voyage",
            status: 401,
            body: "invalid key".to_owned(),
        };
        let unavailable = EmbedError::Unavailable {
            provider: "ollama",
            attempts: 4,
            last: "HTTP 503".to_owned(),
        };
        assert!(!rejected.to_tool_error().retryable);
        assert!(unavailable.to_tool_error().retryable);
        assert_eq!(
            rejected.to_tool_error().code,
            ErrorCode::EmbeddingProviderError
        );
        assert!(rejected.to_string().contains("voyage"));
        assert!(rejected.to_string().contains("401"));
        assert!(rejected.to_string().contains("API key"));
        assert!(unavailable.to_string().contains("4 attempt"));
    }
}

//! The language model (`inference`) and the knowledge tools' choices (`knowledge`): which
//! model the `synthesize` and `judge` roles call, how much they may call it, and what never
//! leaves the process ([`crate::inference`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Which provider answers when both could.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum InferencePreference {
    /// The calling MCP client's own model (`sampling/createMessage`) when it offers one,
    /// else the configured endpoint.
    Sampling,
    /// The configured endpoint when there is one, else the client's model.
    Endpoint,
}

/// The model behind `reflect`, `knowledge_challenge` and the other judges: an
/// OpenAI-compatible chat endpoint (`POST {endpoint}/chat/completions`: Ollama, llama.cpp,
/// LM Studio, a hosted API) and/or the calling client's own model through MCP sampling. With
/// neither, those tools answer `available: false` and still return their evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct InferenceConfig {
    /// The chat endpoint's base URL, e.g. `http://127.0.0.1:11434/v1` (absent: no endpoint).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub endpoint: Option<String>,
    /// The model name sent to the endpoint.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The environment variable holding the endpoint's API key (the key itself is never in
    /// the config); absent: no `Authorization` header.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub api_key_env: Option<String>,
    /// How long one model call may take, milliseconds (endpoint and client sampling).
    #[schemars(range(min = 100, max = 600_000))]
    pub timeout_ms: u64,
    /// The most tokens one answer may have.
    #[schemars(range(min = 16, max = 32_768))]
    pub max_tokens: u32,
    /// The most model calls one tool call may make.
    #[schemars(range(min = 1, max = 100))]
    pub max_calls_per_request: u32,
    /// The most model calls per UTC day, over every caller and vault (counted from the audit
    /// log, so a restart does not reset it).
    #[schemars(range(min = 1))]
    pub max_calls_per_day: u32,
    /// Vault paths (globs) whose text is never sent to a model.
    pub exclude_paths: Vec<String>,
    /// Which provider answers when both could.
    pub prefer: InferencePreference,
}

impl Default for InferenceConfig {
    fn default() -> InferenceConfig {
        InferenceConfig {
            endpoint: None,
            model: None,
            api_key_env: None,
            timeout_ms: 60_000,
            max_tokens: 1024,
            max_calls_per_request: 4,
            max_calls_per_day: 500,
            exclude_paths: Vec::new(),
            prefer: InferencePreference::Sampling,
        }
    }
}

/// What the knowledge tools treat as decision-bearing (`knowledge_challenge` weighs a
/// proposal against these notes only).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct KnowledgeConfig {
    /// Folders (vault-relative, every depth below) whose notes record decisions.
    pub decision_folders: Vec<String>,
    /// Tags (without `#`) that mark a note as recording a decision, an outcome or a lesson.
    pub decision_tags: Vec<String>,
}

impl Default for KnowledgeConfig {
    fn default() -> KnowledgeConfig {
        KnowledgeConfig {
            decision_folders: vec!["Decisions".to_owned(), "Projects".to_owned()],
            decision_tags: [
                "decision",
                "adr",
                "audit",
                "outcome",
                "postmortem",
                "reversal",
                "lesson",
                "review",
                "retrospective",
            ]
            .map(str::to_owned)
            .to_vec(),
        }
    }
}

//! What a model call asks and what it answers.

use serde::Serialize;

/// Which of the gateway's roles a call plays (the original's gateway roles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Writes an answer from numbered evidence (`reflect`).
    Synthesize,
    /// Judges evidence against a claim and answers strict JSON (`knowledge_challenge`, the
    /// contradiction and wiki judges).
    Judge,
}

impl Role {
    /// The role's name, as the audit log writes it (`model.<name>`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Synthesize => "synthesize",
            Role::Judge => "judge",
        }
    }
}

/// Who says a message of the conversation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Speaker {
    /// The user (the tool, on the user's behalf).
    User,
    /// The model, earlier in the conversation.
    Assistant,
}

/// One message of the conversation sent to the model.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ChatMessage {
    /// Who says it.
    pub speaker: Speaker,
    /// Its text.
    pub text: String,
}

impl ChatMessage {
    /// A user message saying `text`.
    pub fn user(text: impl Into<String>) -> ChatMessage {
        ChatMessage {
            speaker: Speaker::User,
            text: text.into(),
        }
    }
}

/// One model call: `{system?, messages, max_tokens, temperature?}` in a role.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ModelRequest {
    /// The role played.
    pub role: Role,
    /// The system prompt, when there is one.
    pub system: Option<String>,
    /// The conversation, oldest first (at least one message).
    pub messages: Vec<ChatMessage>,
    /// The most tokens of the answer (lowered to `inference.maxTokens`).
    pub max_tokens: u32,
    /// The sampling temperature, when the role wants one.
    pub temperature: Option<f32>,
}

/// Which provider answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Provider {
    /// The calling MCP client's model (`sampling/createMessage`).
    Sampling,
    /// The configured OpenAI-compatible chat endpoint.
    Endpoint,
}

impl Provider {
    /// The provider's name, as answers and the audit log write it.
    pub fn as_str(self) -> &'static str {
        match self {
            Provider::Sampling => "sampling",
            Provider::Endpoint => "endpoint",
        }
    }
}

/// A model's answer: `{text, model, tokens_in?, tokens_out?}` and who gave it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelAnswer {
    /// The answer's text.
    pub text: String,
    /// The model that wrote it, as its provider names it.
    pub model: String,
    /// The provider that answered.
    pub provider: Provider,
    /// Prompt tokens, when the provider counts them.
    pub tokens_in: Option<u64>,
    /// Answer tokens, when the provider counts them.
    pub tokens_out: Option<u64>,
}

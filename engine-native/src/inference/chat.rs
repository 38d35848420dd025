//! An OpenAI-compatible chat endpoint: `POST {endpoint}/chat/completions` (Ollama,
//! llama.cpp, LM Studio, vLLM, hosted APIs). One attempt per model call, bounded by
//! `inference.timeoutMs`; the key comes only from the environment variable the config names.
//!
//! reqwest's blocking client: a tool call runs on a blocking thread (never build or drop it
//! on an async task).

use std::time::Duration;

use serde::Deserialize;
use serde_json::{Value, json};

use crate::inference::{InferenceError, ModelRequest, Speaker};

/// How much of an error answer is quoted.
const EXCERPT_CHARS: usize = 200;

/// Where the chat endpoint is and how to call it.
#[derive(Clone)]
pub struct ChatEndpoint {
    /// The base URL, without a trailing `/`.
    pub endpoint: String,
    /// The model name sent.
    pub model: String,
    /// The bearer token, when the config names a variable that holds one.
    pub api_key: Option<String>,
    /// The time budget of the call.
    pub timeout: Duration,
}

impl std::fmt::Debug for ChatEndpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ChatEndpoint")
            .field("endpoint", &self.endpoint)
            .field("model", &self.model)
            .field("api_key", &self.api_key.as_ref().map(|_| "<redacted>"))
            .field("timeout", &self.timeout)
            .finish()
    }
}

/// What the endpoint answered: the text, the model it names, the token counts it gives.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatAnswer {
    /// The first choice's message text.
    pub text: String,
    /// The model the endpoint names (the configured one when it names none).
    pub model: String,
    /// `usage.prompt_tokens`.
    pub tokens_in: Option<u64>,
    /// `usage.completion_tokens`.
    pub tokens_out: Option<u64>,
}

/// The request body for `request`, for `model`.
pub fn body(model: &str, request: &ModelRequest) -> Value {
    let mut messages = Vec::with_capacity(request.messages.len() + 1);
    if let Some(system) = &request.system {
        messages.push(json!({"role": "system", "content": system}));
    }
    for message in &request.messages {
        let role = match message.speaker {
            Speaker::User => "user",
            Speaker::Assistant => "assistant",
        };
        messages.push(json!({"role": role, "content": message.text}));
    }
    let mut body = json!({
        "model": model,
        "messages": messages,
        "max_tokens": request.max_tokens,
        "stream": false,
    });
    if let Some(temperature) = request.temperature {
        body["temperature"] = json!(temperature);
    }
    body
}

#[derive(Deserialize)]
struct Completion {
    #[serde(default)]
    model: Option<String>,
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<Usage>,
}

#[derive(Deserialize)]
struct Choice {
    message: Message,
}

#[derive(Deserialize)]
struct Message {
    content: Option<String>,
}

#[derive(Deserialize)]
struct Usage {
    prompt_tokens: Option<u64>,
    completion_tokens: Option<u64>,
}

/// Reads a `chat/completions` answer body; `BadAnswer` when it is not one or has no text.
pub fn parse_answer(body: &str, configured_model: &str) -> Result<ChatAnswer, InferenceError> {
    let completion: Completion = serde_json::from_str(body)
        .map_err(|error| InferenceError::BadAnswer(format!("not a chat completion: {error}")))?;
    let text = completion
        .choices
        .into_iter()
        .next()
        .and_then(|choice| choice.message.content)
        .ok_or_else(|| InferenceError::BadAnswer("no choice with a message text".to_owned()))?;
    let usage = completion.usage;
    Ok(ChatAnswer {
        text,
        model: completion
            .model
            .unwrap_or_else(|| configured_model.to_owned()),
        tokens_in: usage.as_ref().and_then(|usage| usage.prompt_tokens),
        tokens_out: usage.and_then(|usage| usage.completion_tokens),
    })
}

impl ChatEndpoint {
    /// Sends `request` and reads the answer: `Timeout`, `Http` (with the start of the body),
    /// `Unreachable` or `BadAnswer` when it fails.
    pub fn complete(&self, request: &ModelRequest) -> Result<ChatAnswer, InferenceError> {
        let timeout_ms = u64::try_from(self.timeout.as_millis()).unwrap_or(u64::MAX);
        let client = crate::http_client::blocking_builder()
            .timeout(self.timeout)
            .build()
            .map_err(|error| InferenceError::Unreachable(error.to_string()))?;
        let url = format!("{}/chat/completions", self.endpoint.trim_end_matches('/'));
        let mut post = client.post(url).json(&body(&self.model, request));
        if let Some(key) = &self.api_key {
            post = post.bearer_auth(key);
        }
        let failed = |error: reqwest::Error| {
            if error.is_timeout() {
                InferenceError::Timeout { ms: timeout_ms }
            } else {
                InferenceError::Unreachable(error.without_url().to_string())
            }
        };
        let response = post.send().map_err(failed)?;
        let status = response.status();
        let text = response.text().map_err(failed)?;
        if !status.is_success() {
            return Err(InferenceError::Http {
                status: status.as_u16(),
                excerpt: text.chars().take(EXCERPT_CHARS).collect(),
            });
        }
        parse_answer(&text, &self.model)
    }
}

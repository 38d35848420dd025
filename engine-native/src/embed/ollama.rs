//! Ollama's embed API (`POST {endpoint}/api/embed`). It encodes queries and documents alike;
//! models that want prefixes (`search_query: `) need them in the text.

use serde::Deserialize;
use serde_json::{Value, json};

/// A local Ollama's address.
pub const DEFAULT_ENDPOINT: &str = "http://127.0.0.1:11434";
/// The model used when `embeddings.model` is omitted.
pub const DEFAULT_MODEL: &str = "nomic-embed-text";
/// Ollama has no fixed limit; this bounds one request's work.
pub const MAX_BATCH: usize = 512;
/// The batch size used when `embeddings.batchSize` is omitted.
pub const DEFAULT_BATCH: usize = 32;

/// The request body; texts longer than the model's context are truncated by Ollama.
pub(crate) fn request(model: &str, texts: &[&str]) -> Value {
    json!({"model": model, "input": texts, "truncate": true})
}

#[derive(Deserialize)]
struct Answer {
    embeddings: Vec<Vec<f32>>,
}

/// The vectors of an answer `{"embeddings": [[...], ...]}`, in input order.
pub(crate) fn vectors(answer: Value) -> Result<Vec<Vec<f32>>, String> {
    let answer: Answer = serde_json::from_value(answer).map_err(|e| e.to_string())?;
    Ok(answer.embeddings)
}

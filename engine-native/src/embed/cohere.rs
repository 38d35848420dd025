//! The Cohere embed API, version 2 (`POST {endpoint}/v2/embed` with `input_type`).

use serde::Deserialize;
use serde_json::{Value, json};

use crate::embed::provider::EmbedKind;

/// The public endpoint.
pub const DEFAULT_ENDPOINT: &str = "https://api.cohere.com";
/// The model used when `embeddings.model` is omitted.
pub const DEFAULT_MODEL: &str = "embed-v4.0";
/// The variable read for the key when the config names none (the one Cohere's SDKs read).
pub const KEY_VAR: &str = "CO_API_KEY";
/// The most texts the API takes in one request.
pub const MAX_BATCH: usize = 96;
/// The batch size used when `embeddings.batchSize` is omitted.
pub const DEFAULT_BATCH: usize = 96;

/// The request body: `input_type` `search_query` or `search_document`, float vectors,
/// `output_dimension` when configured.
pub(crate) fn request(
    model: &str,
    dimensions: Option<usize>,
    texts: &[&str],
    kind: EmbedKind,
) -> Value {
    let input_type = match kind {
        EmbedKind::Query => "search_query",
        EmbedKind::Document => "search_document",
    };
    let mut body = json!({
        "model": model,
        "texts": texts,
        "input_type": input_type,
        "embedding_types": ["float"],
    });
    if let Some(dimensions) = dimensions {
        body["output_dimension"] = json!(dimensions);
    }
    body
}

#[derive(Deserialize)]
struct Answer {
    embeddings: Embeddings,
}

#[derive(Deserialize)]
struct Embeddings {
    float: Vec<Vec<f32>>,
}

/// The vectors of an answer `{"embeddings": {"float": [[...], ...]}}`, in input order.
pub(crate) fn vectors(answer: Value) -> Result<Vec<Vec<f32>>, String> {
    let answer: Answer = serde_json::from_value(answer).map_err(|e| e.to_string())?;
    Ok(answer.embeddings.float)
}

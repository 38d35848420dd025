//! The Voyage AI embeddings API (`POST {endpoint}/embeddings` with `input_type`).

use serde_json::{Value, json};

use crate::embed::provider::EmbedKind;

/// The public endpoint.
pub const DEFAULT_ENDPOINT: &str = "https://api.voyageai.com/v1";
/// The model used when `embeddings.model` is omitted.
pub const DEFAULT_MODEL: &str = "voyage-3.5";
/// The variable read for the key when the config names none.
pub const KEY_VAR: &str = "VOYAGE_API_KEY";
/// The most inputs the API takes in one request.
pub const MAX_BATCH: usize = 1000;
/// The batch size used when `embeddings.batchSize` is omitted.
pub const DEFAULT_BATCH: usize = 128;

/// The request body: `input_type` `query` or `document`, `output_dimension` when configured.
pub(crate) fn request(
    model: &str,
    dimensions: Option<usize>,
    texts: &[&str],
    kind: EmbedKind,
) -> Value {
    let input_type = match kind {
        EmbedKind::Query => "query",
        EmbedKind::Document => "document",
    };
    let mut body = json!({"model": model, "input": texts, "input_type": input_type});
    if let Some(dimensions) = dimensions {
        body["output_dimension"] = json!(dimensions);
    }
    body
}

//! The OpenAI embeddings API (`POST {endpoint}/embeddings`), also spoken by many local
//! servers (llama.cpp, vLLM, LM Studio...). The API has no input type: the model's query and
//! document prefixes go into the texts ([`crate::embed::RemoteApi::prompts`]).

use serde::Deserialize;
use serde_json::{Value, json};

/// The public endpoint.
pub const DEFAULT_ENDPOINT: &str = "https://api.openai.com/v1";
/// The model used when `embeddings.model` is omitted.
pub const DEFAULT_MODEL: &str = "text-embedding-3-small";
/// The variable read for the key when the config names none.
pub const KEY_VAR: &str = "OPENAI_API_KEY";
/// The most inputs the API takes in one request.
pub const MAX_BATCH: usize = 2048;
/// The batch size used when `embeddings.batchSize` is omitted.
pub const DEFAULT_BATCH: usize = 128;

/// The request body; `dimensions` only when configured (models that cannot shorten their
/// vectors refuse it).
pub(crate) fn request(model: &str, dimensions: Option<usize>, texts: &[&str]) -> Value {
    let mut body = json!({"model": model, "input": texts, "encoding_format": "float"});
    if let Some(dimensions) = dimensions {
        body["dimensions"] = json!(dimensions);
    }
    body
}

#[derive(Deserialize)]
struct Answer {
    data: Vec<Item>,
}

#[derive(Deserialize)]
struct Item {
    embedding: Vec<f32>,
    index: usize,
}

/// The vectors of an answer `{"data": [{"embedding": [...], "index": i}, ...]}`, in input
/// order (the API may list them in any order). Voyage answers the same shape.
pub(crate) fn vectors(answer: Value, count: usize) -> Result<Vec<Vec<f32>>, String> {
    let Answer { data } = serde_json::from_value(answer).map_err(|e| e.to_string())?;
    let mut out: Vec<Option<Vec<f32>>> = vec![None; count];
    for item in data {
        let slot = out
            .get_mut(item.index)
            .ok_or_else(|| format!("index {} for {count} inputs", item.index))?;
        if slot.replace(item.embedding).is_some() {
            return Err(format!("index {} answered twice", item.index));
        }
    }
    out.into_iter()
        .enumerate()
        .map(|(index, v)| v.ok_or_else(|| format!("no vector for input {index}")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_put_back_in_input_order_and_gaps_are_refused() {
        let answer = json!({"data": [
            {"embedding": [2.0], "index": 1},
            {"embedding": [1.0], "index": 0}
        ]});
        assert_eq!(vectors(answer, 2), Ok(vec![vec![1.0], vec![2.0]]));
        let short = json!({"data": [{"embedding": [1.0], "index": 0}]});
        assert_eq!(vectors(short, 2), Err("no vector for input 1".to_owned()));
        let twice =
            json!({"data": [{"embedding": [1.0], "index": 0}, {"embedding": [1.0], "index": 0}]});
        assert!(vectors(twice, 2).is_err());
    }
}

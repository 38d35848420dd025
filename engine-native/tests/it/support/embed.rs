//! A local HTTP server speaking the embedding APIs (Ollama `/api/embed`, OpenAI and Voyage
//! `/v1/embeddings`, Cohere `/v2/embed`), recording every request and failing on demand.
//! Its vectors are `[len(text), 1, 2, 0, ...]` (not normalised) so a test can tell which
//! text a vector belongs to and that the client normalised it.

#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// One request the server received.
#[derive(Debug, Clone)]
pub struct Recorded {
    /// The path, e.g. `/v1/embeddings`.
    pub path: String,
    /// The `Authorization` header, if any.
    pub authorization: Option<String>,
    /// The JSON body.
    pub body: Value,
}

#[derive(Default)]
struct Script {
    /// Statuses answered (with an error body) before answering normally, in order.
    failures: VecDeque<u16>,
    /// A wait before every answer.
    delay: Duration,
    /// A further wait per text of the request (a server that computes on the CPU).
    per_text: Duration,
    /// The vector length answered.
    dimensions: usize,
    requests: Vec<Recorded>,
}

/// The running server.
#[derive(Clone)]
pub struct MockApi {
    /// Its address.
    pub addr: SocketAddr,
    script: Arc<Mutex<Script>>,
}

impl MockApi {
    /// Starts a server answering `dimensions`-long vectors.
    pub fn start(dimensions: usize) -> MockApi {
        let script = Arc::new(Mutex::new(Script {
            dimensions,
            ..Script::default()
        }));
        let app = Router::new().fallback(answer).with_state(script.clone());
        MockApi {
            addr: super::serve_on_loopback(app),
            script,
        }
    }

    /// The base URL, e.g. `http://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// The `embeddings` config block of an `openai` provider on this server (its dimensions,
    /// no retries).
    pub fn provider_config(&self) -> serde_json::Value {
        let dimensions = self.script.lock().expect("script").dimensions;
        serde_json::json!({
            "provider": "openai", "endpoint": format!("{}/v1", self.url()), "apiKey": "sk-test",
            "dimensions": dimensions, "retries": 0
        })
    }

    /// Answers these statuses, in order, before answering normally again.
    pub fn fail_with(&self, statuses: &[u16]) {
        self.script.lock().unwrap().failures.extend(statuses);
    }

    /// Waits this long before every answer.
    pub fn delay(&self, delay: Duration) {
        self.script.lock().unwrap().delay = delay;
    }

    /// Waits this long per text before every answer, as a CPU-bound server does.
    pub fn delay_per_text(&self, per_text: Duration) {
        self.script.lock().unwrap().per_text = per_text;
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Recorded> {
        self.script.lock().unwrap().requests.clone()
    }
}

/// The vector the server answers for `text`: the numbers of a `vec[x,y,...]` marker in it
/// when it has one (a test that needs chosen similarities), else `[len(text), 1, 2, 0...]`.
pub fn raw_vector(text: &str, dimensions: usize) -> Vec<f32> {
    let mut v = vec![0.0; dimensions];
    let marked: Option<Vec<f32>> = text.split_once("vec[").and_then(|(_, rest)| {
        let (numbers, _) = rest.split_once(']')?;
        numbers.split(',').map(|n| n.trim().parse().ok()).collect()
    });
    let values = marked.unwrap_or_else(|| vec![text.len() as f32, 1.0, 2.0]);
    for (slot, value) in v.iter_mut().zip(values) {
        *slot = value;
    }
    v
}

async fn answer(
    State(script): State<Arc<Mutex<Script>>>,
    uri: Uri,
    headers: HeaderMap,
    body: String,
) -> Response {
    let body: Value = serde_json::from_str(&body).unwrap_or(Value::Null);
    let texts: Vec<String> = ["input", "texts"]
        .iter()
        .find_map(|key| body.get(*key))
        .and_then(|v| serde_json::from_value(v.clone()).ok())
        .unwrap_or_default();
    let (failure, delay, dimensions) = {
        let mut script = script.lock().unwrap();
        script.requests.push(Recorded {
            path: uri.path().to_owned(),
            authorization: headers
                .get("authorization")
                .and_then(|v| v.to_str().ok())
                .map(str::to_owned),
            body: body.clone(),
        });
        let delay = script.delay + script.per_text * u32::try_from(texts.len()).unwrap_or(u32::MAX);
        (script.failures.pop_front(), delay, script.dimensions)
    };
    tokio::time::sleep(delay).await;
    if let Some(status) = failure {
        let status = StatusCode::from_u16(status).expect("status");
        let mut response = (status, "{\"error\": \"scripted failure\"}").into_response();
        if status == StatusCode::TOO_MANY_REQUESTS {
            response
                .headers_mut()
                .insert("retry-after", "0".parse().expect("header"));
        }
        return response;
    }
    let vectors: Vec<Vec<f32>> = texts.iter().map(|t| raw_vector(t, dimensions)).collect();
    let answer = match uri.path() {
        "/api/embed" => json!({"model": body["model"], "embeddings": vectors}),
        "/v2/embed" => json!({"id": "x", "embeddings": {"float": vectors}, "texts": texts}),
        "/v1/embeddings" => {
            // Listed last to first: the client must order by `index`.
            let data: Vec<Value> = vectors
                .iter()
                .enumerate()
                .rev()
                .map(|(index, v)| json!({"object": "embedding", "index": index, "embedding": v}))
                .collect();
            json!({"object": "list", "data": data, "model": body["model"]})
        }
        _ => return (StatusCode::NOT_FOUND, "no such API").into_response(),
    };
    axum::Json(answer).into_response()
}

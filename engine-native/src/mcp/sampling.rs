//! The calling client's model for a tool call (`sampling/createMessage`), as the client
//! really speaks it:
//!
//! - Protocol 2025-11-25 and older ([`PeerSampler`]): a server-to-client request on the
//!   session while the tool runs; the tool's blocking thread waits for the answer, at most
//!   `inference.timeoutMs`.
//! - Protocol 2026-07-28 ([`InputSampler`], SEP-2322): server-to-client requests are gone; the
//!   call ends with an input-required result carrying the `sampling/createMessage` request
//!   and a request state sealed for the caller, holding the answers so far. The client asks
//!   its model and calls again with the answer; the tool runs again, builds the same prompt
//!   (same key) and this time gets its answer. The Python SDK's `Client` in `auto` mode and
//!   rmcp's auto lifecycle do this.
//!
//! Either is offered only to a client that declared the `sampling` capability. rmcp marks
//! sampling deprecated (SEP-2577), but it is what the clients offer today.
#![allow(deprecated)]

use std::collections::BTreeMap;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use engine_core::hash::sha256_hex;
use rmcp::ErrorData as McpError;
use rmcp::RoleServer;
use rmcp::model::{
    ClientCapabilities, CreateMessageRequest, CreateMessageRequestParams, InputRequest,
    InputRequests, InputRequiredResult, InputResponses, ProtocolVersion,
};
use rmcp::service::Peer;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::auth::Caller;
use crate::inference::{InferenceError, ModelRequest, Sampled, Sampler, Speaker};
use crate::mcp::confirmation::{codec, seal_options};

/// What every input request key of a sampling round starts with.
const KEY_PREFIX: &str = "sample-";

/// How a client may be asked to sample, from what it declared.
pub enum SamplingRoute {
    /// It declared no `sampling`: no sampler.
    None,
    /// Server-to-client requests (protocol before 2026-07-28).
    Request,
    /// Input requests (protocol 2026-07-28 or later).
    InputRequest,
}

/// How the client of a request with `protocol` and `client` capabilities is asked to sample.
pub fn route(
    protocol: Option<&ProtocolVersion>,
    client: Option<&ClientCapabilities>,
) -> SamplingRoute {
    if client.is_none_or(|capabilities| capabilities.sampling.is_none()) {
        return SamplingRoute::None;
    }
    if protocol.is_some_and(|version| version.as_str() >= ProtocolVersion::V_2026_07_28.as_str()) {
        SamplingRoute::InputRequest
    } else {
        SamplingRoute::Request
    }
}

/// The `sampling/createMessage` parameters of `request`.
fn params(request: &ModelRequest) -> Result<CreateMessageRequestParams, InferenceError> {
    let messages: Vec<Value> = request
        .messages
        .iter()
        .map(|message| {
            let role = match message.speaker {
                Speaker::User => "user",
                Speaker::Assistant => "assistant",
            };
            json!({"role": role, "content": {"type": "text", "text": message.text}})
        })
        .collect();
    let mut params = json!({"messages": messages, "maxTokens": request.max_tokens});
    if let Some(system) = &request.system {
        params["systemPrompt"] = json!(system);
    }
    if let Some(temperature) = request.temperature {
        params["temperature"] = json!(temperature);
    }
    serde_json::from_value(params)
        .map_err(|error| InferenceError::Refused(format!("a sampling request: {error}")))
}

/// The text and model of a `sampling/createMessage` result (JSON).
fn sampled(result: &Value) -> Result<Sampled, InferenceError> {
    let text = match &result["content"] {
        Value::Array(blocks) => blocks
            .iter()
            .filter_map(|block| block["text"].as_str())
            .collect::<Vec<_>>()
            .join(""),
        block => block["text"].as_str().unwrap_or_default().to_owned(),
    };
    if text.is_empty() {
        return Err(InferenceError::BadAnswer(
            "the client's model answered no text".to_owned(),
        ));
    }
    Ok(Sampled {
        text,
        model: result["model"].as_str().unwrap_or("client").to_owned(),
    })
}

/// The client's model through server-to-client requests on its session.
pub struct PeerSampler {
    peer: Peer<RoleServer>,
    runtime: tokio::runtime::Handle,
}

impl PeerSampler {
    /// Asks through `peer`, driving the request on `runtime` (the server's) from the tool's
    /// blocking thread.
    pub fn new(peer: Peer<RoleServer>, runtime: tokio::runtime::Handle) -> PeerSampler {
        PeerSampler { peer, runtime }
    }
}

impl Sampler for PeerSampler {
    fn sample(&self, request: &ModelRequest, timeout: Duration) -> Result<Sampled, InferenceError> {
        let params = params(request)?;
        let peer = self.peer.clone();
        let asked = self.runtime.block_on(async move {
            tokio::time::timeout(timeout, peer.create_message(params)).await
        });
        let result = asked
            .map_err(|_| InferenceError::Timeout {
                ms: u64::try_from(timeout.as_millis()).unwrap_or(u64::MAX),
            })?
            .map_err(|error| InferenceError::Refused(error.to_string()))?;
        let result = serde_json::to_value(result)
            .map_err(|error| InferenceError::BadAnswer(error.to_string()))?;
        sampled(&result)
    }
}

/// What a sampling round's sealed request state holds: the answers so far, by key.
#[derive(Debug, Default, Serialize, Deserialize)]
struct SamplingState {
    /// `sampling/createMessage` results by request key.
    samples: BTreeMap<String, Value>,
}

/// The client's model through input requests (protocol 2026-07-28): answers what earlier
/// rounds brought, and notes what it still has to ask.
pub struct InputSampler {
    answers: BTreeMap<String, Value>,
    asked: Mutex<BTreeMap<String, CreateMessageRequestParams>>,
}

/// The key of `request`: 16 hex digits of the SHA-256 of its parameters (the same prompt
/// asked again has the same key).
fn key(params: &CreateMessageRequestParams) -> String {
    let text = serde_json::to_string(params).unwrap_or_default();
    let mut key = sha256_hex(text.as_bytes());
    key.truncate(16);
    format!("{KEY_PREFIX}{key}")
}

impl InputSampler {
    /// The sampler of a call bringing `request_state` and `responses`: `Ok(None)` when the
    /// state is not a sampling round's (a confirmation's, or none: then no answers), the
    /// answers so far otherwise; an invalid-params error when the state fails verification.
    pub fn resume(
        request_state: Option<&str>,
        responses: Option<&InputResponses>,
        caller: &Caller,
    ) -> Result<Option<InputSampler>, McpError> {
        let Some(sealed) = request_state else {
            return Ok(Some(InputSampler::fresh(BTreeMap::new())));
        };
        let refused = |why: String| {
            McpError::invalid_params(
                format!("requestState failed verification ({why}); call again without it"),
                None,
            )
        };
        let codec = codec().ok_or_else(|| refused("the server cannot verify states".to_owned()))?;
        let opened: Value = codec
            .open_json_with(sealed, caller.id.as_bytes())
            .map_err(|error| refused(error.to_string()))?;
        let Ok(state) = serde_json::from_value::<SamplingState>(opened) else {
            return Ok(None);
        };
        let mut answers = state.samples;
        for (key, value) in responses.into_iter().flatten() {
            if key.starts_with(KEY_PREFIX) {
                answers.insert(key.clone(), value.clone());
            }
        }
        Ok(Some(InputSampler::fresh(answers)))
    }

    fn fresh(answers: BTreeMap<String, Value>) -> InputSampler {
        InputSampler {
            answers,
            asked: Mutex::new(BTreeMap::new()),
        }
    }

    /// The input-required result asking what the call still needs, sealed for `caller`
    /// for `ttl`; `None` when it asked nothing (or nothing can be sealed).
    pub fn input_required(&self, caller: &Caller, ttl: Duration) -> Option<InputRequiredResult> {
        let asked = std::mem::take(&mut *self.asked.lock().unwrap_or_else(PoisonError::into_inner));
        if asked.is_empty() {
            return None;
        }
        let state = SamplingState {
            samples: self.answers.clone(),
        };
        let sealed = codec()?
            .seal_json_with(&state, &seal_options(caller, ttl))
            .ok()?;
        let requests: InputRequests = asked
            .into_iter()
            .map(|(key, params)| {
                (
                    key,
                    InputRequest::CreateMessage(CreateMessageRequest::new(params)),
                )
            })
            .collect();
        Some(InputRequiredResult::new(Some(requests), Some(sealed)))
    }
}

impl Sampler for InputSampler {
    fn sample(
        &self,
        request: &ModelRequest,
        _timeout: Duration,
    ) -> Result<Sampled, InferenceError> {
        let params = params(request)?;
        let key = key(&params);
        if let Some(answer) = self.answers.get(&key) {
            return sampled(answer);
        }
        self.asked
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(key, params);
        Err(InferenceError::AskingClient)
    }
}

//! [`Gateway`]: the one way a tool calls a model, with its bounds, its audit rows and its
//! tracing span.

use std::cell::Cell;
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use crate::config::{InferenceConfig, InferencePreference};
use crate::inference::bounds::{audit_tool, calls_today, check};
use crate::inference::chat::ChatEndpoint;
use crate::inference::egress::holds_credential;
use crate::inference::{InferenceError, ModelAnswer, ModelRequest, Provider, Sampler};
use crate::store::{Event, Outcome, Store};

/// Who a tool call's model calls are for: what their audit rows name.
#[derive(Debug, Clone, Copy)]
pub struct Audience<'a> {
    /// The vault the tool call is bound to.
    pub vault_id: &'a str,
    /// The caller.
    pub caller: &'a str,
    /// The tool that calls the model.
    pub tool: &'a str,
    /// The tool call's args hash (the audit row links the model call to it).
    pub args_hash: &'a str,
}

/// What a tool call spent on the model, as its answer reports it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Usage {
    /// Model calls that reached a provider (answered or not).
    pub model_calls: u32,
    /// Prompt tokens, as far as the provider counted them.
    pub tokens_in: u64,
    /// Answer tokens, as far as the provider counted them.
    pub tokens_out: u64,
}

/// The model of one tool call: the providers it may use, its bounds and what it spent.
pub struct Gateway<'a> {
    config: &'a InferenceConfig,
    sampler: Option<&'a dyn Sampler>,
    endpoint: Option<ChatEndpoint>,
    store: &'a Store,
    audience: Audience<'a>,
    now_ms: Box<dyn Fn() -> u64 + 'a>,
    usage: Cell<Usage>,
}

/// What a tool says when no model is there.
pub const UNAVAILABLE: &str = "no language model: connect with an MCP client that offers \
    sampling, or set inference.endpoint and inference.model (an OpenAI-compatible chat \
    endpoint such as Ollama's http://127.0.0.1:11434/v1) in the config file";

impl<'a> Gateway<'a> {
    /// The gateway of one tool call under `config`: the client's `sampler` when it offers
    /// one, the configured endpoint (its key read from `inference.apiKeyEnv`), audit rows in
    /// `store` for `audience`, time from `now_ms`.
    pub fn new(
        config: &'a InferenceConfig,
        sampler: Option<&'a dyn Sampler>,
        store: &'a Store,
        audience: Audience<'a>,
        now_ms: Box<dyn Fn() -> u64 + 'a>,
    ) -> Gateway<'a> {
        let endpoint = match (&config.endpoint, &config.model) {
            (Some(endpoint), Some(model)) => Some(ChatEndpoint {
                endpoint: endpoint.clone(),
                model: model.clone(),
                api_key: config
                    .api_key_env
                    .as_deref()
                    .and_then(|name| std::env::var(name).ok())
                    .filter(|key| !key.is_empty()),
                timeout: Duration::from_millis(config.timeout_ms),
            }),
            _ => None,
        };
        Gateway {
            config,
            sampler,
            endpoint,
            store,
            audience,
            now_ms,
            usage: Cell::new(Usage::default()),
        }
    }

    /// The provider a call would use (`inference.prefer` decides when both are there);
    /// `None` when there is no model: the tool answers `available: false` with
    /// [`Gateway::unavailable_message`].
    pub fn provider(&self) -> Option<Provider> {
        let sampling = self.sampler.is_some().then_some(Provider::Sampling);
        let endpoint = self.endpoint.is_some().then_some(Provider::Endpoint);
        match self.config.prefer {
            InferencePreference::Sampling => sampling.or(endpoint),
            InferencePreference::Endpoint => endpoint.or(sampling),
        }
    }

    /// What to tell the caller when [`Gateway::provider`] is `None`: how to enable a model.
    pub fn unavailable_message(&self) -> &'static str {
        UNAVAILABLE
    }

    /// The configured endpoint's model (what a judge over it reports), if any.
    pub fn model_name(&self) -> Option<String> {
        self.endpoint
            .as_ref()
            .map(|endpoint| endpoint.model.clone())
    }

    /// What this tool call spent so far.
    pub fn usage(&self) -> Usage {
        self.usage.get()
    }

    /// Asks the model `request` (its `max_tokens` lowered to `inference.maxTokens`) within
    /// the bounds; the prompt must be made of chunks [`crate::inference::egress::guard`]
    /// let through, and is refused whole when it still holds a credential. Every call that
    /// reaches a provider is an audit row and a `model_call` span.
    pub fn complete(&self, request: &ModelRequest) -> Result<ModelAnswer, InferenceError> {
        let provider = self.provider().ok_or(InferenceError::Unavailable)?;
        let today = calls_today(self.store, (self.now_ms)())
            .map_err(|error| InferenceError::Unreachable(format!("the audit log: {error}")))?;
        check(
            self.usage.get().model_calls,
            self.config.max_calls_per_request,
            today,
            self.config.max_calls_per_day,
        )?;
        let texts = request
            .system
            .iter()
            .chain(request.messages.iter().map(|m| &m.text));
        if texts.into_iter().any(|text| holds_credential(text)) {
            return Err(InferenceError::CredentialInPrompt);
        }
        let mut request = request.clone();
        request.max_tokens = request.max_tokens.min(self.config.max_tokens);
        let span = tracing::info_span!(
            "model_call",
            role = request.role.as_str(),
            provider = provider.as_str(),
            for_tool = self.audience.tool,
        );
        let started = Instant::now();
        let answered = span.in_scope(|| self.ask(provider, &request));
        if matches!(answered, Err(InferenceError::AskingClient)) {
            return answered; // asked in an input request: the call comes back with the answer
        }
        let mut usage = self.usage.get();
        usage.model_calls += 1;
        if let Ok(answer) = &answered {
            usage.tokens_in += answer.tokens_in.unwrap_or(0);
            usage.tokens_out += answer.tokens_out.unwrap_or(0);
        }
        self.usage.set(usage);
        self.audit(&request, provider, &answered, started.elapsed());
        answered
    }

    /// One call to `provider`.
    fn ask(
        &self,
        provider: Provider,
        request: &ModelRequest,
    ) -> Result<ModelAnswer, InferenceError> {
        match (provider, self.sampler, &self.endpoint) {
            (Provider::Sampling, Some(sampler), _) => {
                let sampled =
                    sampler.sample(request, Duration::from_millis(self.config.timeout_ms))?;
                Ok(ModelAnswer {
                    text: sampled.text,
                    model: sampled.model,
                    provider,
                    tokens_in: None,
                    tokens_out: None,
                })
            }
            (Provider::Endpoint, _, Some(endpoint)) => {
                let answer = endpoint.complete(request)?;
                Ok(ModelAnswer {
                    text: answer.text,
                    model: answer.model,
                    provider,
                    tokens_in: answer.tokens_in,
                    tokens_out: answer.tokens_out,
                })
            }
            _ => Err(InferenceError::Unavailable),
        }
    }

    /// The audit row of one model call (never its prompt or answer text).
    fn audit(
        &self,
        request: &ModelRequest,
        provider: Provider,
        answered: &Result<ModelAnswer, InferenceError>,
        took: Duration,
    ) {
        let (outcome, model, tokens_in, tokens_out) = match answered {
            Ok(answer) => (
                Outcome::Ok,
                Some(answer.model.clone()),
                answer.tokens_in,
                answer.tokens_out,
            ),
            Err(error) => (
                Outcome::Error {
                    code: error.reason().to_owned(),
                },
                self.endpoint
                    .as_ref()
                    .filter(|_| provider == Provider::Endpoint)
                    .map(|endpoint| endpoint.model.clone()),
                None,
                None,
            ),
        };
        tracing::info!(
            role = request.role.as_str(),
            provider = provider.as_str(),
            model = model.as_deref().unwrap_or(""),
            tokens_in,
            tokens_out,
            ok = answered.is_ok(),
            "model call"
        );
        let event = Event {
            vault_id: self.audience.vault_id.to_owned(),
            ts: i64::try_from((self.now_ms)() / 1000).unwrap_or(i64::MAX),
            tool: audit_tool(request.role.as_str()),
            caller: self.audience.caller.to_owned(),
            outcome,
            duration_ms: i64::try_from(took.as_millis()).unwrap_or(i64::MAX),
            args_hash: self.audience.args_hash.to_owned(),
            details: json!({
                "role": request.role.as_str(),
                "provider": provider.as_str(),
                "model": model,
                "tokens_in": tokens_in,
                "tokens_out": tokens_out,
                "for_tool": self.audience.tool,
            }),
            paths: Vec::new(),
        };
        if let Err(error) = self.store.events().append(&event) {
            tracing::warn!("a model call's audit row was not written: {error}");
        }
    }
}

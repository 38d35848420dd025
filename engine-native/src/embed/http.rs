//! The HTTP side of the remote providers: one JSON POST with a time budget, repeated with
//! exponential backoff while the failure is transient (connect errors, timeouts, 429, 5xx)
//! and at most `retries` more times; any other 4xx fails at once.
//!
//! reqwest's blocking client: the providers' API is blocking (the indexer calls it from
//! blocking threads), and the blocking client drives its own runtime on a thread of its own,
//! so it neither needs nor can starve the server's runtime. It must not be created or dropped
//! on an async task; `spawn_blocking` threads are fine.

use std::fmt;
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::blocking::{Client, Response};
use reqwest::header::RETRY_AFTER;
use serde_json::Value;

use crate::embed::error::EmbedError;

/// The longest wait between two attempts, whatever `Retry-After` asks for.
const MAX_BACKOFF: Duration = Duration::from_secs(20);

/// How much of an error answer is quoted in the message.
const BODY_EXCERPT_CHARS: usize = 300;

/// An API key: never printed, not even by `Debug`.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps `key`.
    pub fn new(key: impl Into<String>) -> ApiKey {
        ApiKey(key.into())
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// Where and how a remote provider is called.
#[derive(Debug, Clone)]
pub struct HttpSettings {
    /// The base URL, e.g. `https://api.openai.com/v1` (no trailing `/`).
    pub endpoint: String,
    /// The bearer token, when the provider takes one.
    pub api_key: Option<ApiKey>,
    /// The time budget of one attempt (connect, send, answer).
    pub timeout: Duration,
    /// How many times a transient failure is retried.
    pub retries: u32,
    /// The wait before the first retry; it doubles at each next one.
    pub backoff: Duration,
}

/// Posts JSON to one URL of one provider.
pub(crate) struct JsonPoster {
    client: Client,
    provider: &'static str,
    url: String,
    api_key: Option<ApiKey>,
    timeout: Duration,
    retries: u32,
    backoff: Duration,
}

/// Why one attempt failed.
enum Failure {
    /// Worth another attempt, after `retry_after` when the server said so; `timed_out` when
    /// no answer came within the time budget.
    Transient {
        reason: String,
        retry_after: Option<Duration>,
        timed_out: bool,
    },
    /// Final.
    Fatal(EmbedError),
}

impl JsonPoster {
    /// A poster for `settings.endpoint` + `path` (e.g. `/embeddings`).
    pub(crate) fn new(
        provider: &'static str,
        settings: &HttpSettings,
        path: &str,
    ) -> Result<JsonPoster, EmbedError> {
        let endpoint = settings.endpoint.trim_end_matches('/');
        if !(endpoint.starts_with("http://") || endpoint.starts_with("https://")) {
            return Err(EmbedError::setup(
                provider,
                format!("embeddings.endpoint {endpoint:?} is not an http:// or https:// URL"),
            ));
        }
        let client = crate::http_client::blocking_builder()
            .timeout(settings.timeout)
            .connect_timeout(settings.timeout)
            .build()
            .map_err(|e| {
                EmbedError::setup(provider, format!("cannot create the HTTP client: {e}"))
            })?;
        Ok(JsonPoster {
            client,
            provider,
            url: format!("{endpoint}{path}"),
            api_key: settings.api_key.clone(),
            timeout: settings.timeout,
            retries: settings.retries,
            backoff: settings.backoff,
        })
    }

    /// POSTs `body` and returns the JSON answer, retrying transient failures. `None` when an
    /// attempt timed out and the request is `splittable`: the caller sends its texts in
    /// smaller requests rather than the same one again.
    pub(crate) fn post(&self, body: &Value, splittable: bool) -> Result<Option<Value>, EmbedError> {
        let mut attempts = 0;
        loop {
            attempts += 1;
            let (reason, retry_after) = match self.attempt(body) {
                Ok(answer) => return Ok(Some(answer)),
                Err(Failure::Fatal(error)) => return Err(error),
                Err(Failure::Transient {
                    timed_out: true, ..
                }) if splittable => return Ok(None),
                Err(Failure::Transient {
                    reason,
                    retry_after,
                    ..
                }) => (reason, retry_after),
            };
            if attempts > self.retries {
                return Err(EmbedError::Unavailable {
                    provider: self.provider,
                    attempts,
                    last: reason,
                });
            }
            let doubling = self.backoff.saturating_mul(1 << (attempts - 1).min(16));
            std::thread::sleep(retry_after.unwrap_or(doubling).min(MAX_BACKOFF));
        }
    }

    fn attempt(&self, body: &Value) -> Result<Value, Failure> {
        let mut request = self.client.post(&self.url).json(body);
        if let Some(ApiKey(key)) = &self.api_key {
            request = request.bearer_auth(key);
        }
        let response = request.send().map_err(|e| self.send_failure(&e))?;
        let status = response.status();
        if status.is_success() {
            return response.json::<Value>().map_err(|e| {
                if e.is_timeout() {
                    self.timed_out()
                } else {
                    Failure::Fatal(EmbedError::bad_response(
                        self.provider,
                        format!("the answer of {} is not JSON: {e}", self.url),
                    ))
                }
            });
        }
        let retry_after = retry_after(&response);
        let body = excerpt(response);
        if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
            Err(Failure::Transient {
                reason: format!("HTTP {} from {}: {body}", status.as_u16(), self.url),
                retry_after,
                timed_out: false,
            })
        } else {
            Err(Failure::Fatal(EmbedError::Rejected {
                provider: self.provider,
                status: status.as_u16(),
                body,
            }))
        }
    }

    fn send_failure(&self, error: &reqwest::Error) -> Failure {
        if error.is_builder() {
            Failure::Fatal(EmbedError::setup(
                self.provider,
                format!("cannot call {}: {error}", self.url),
            ))
        } else if error.is_timeout() {
            self.timed_out()
        } else {
            Failure::Transient {
                reason: format!("cannot reach {}: {error}", self.url),
                retry_after: None,
                timed_out: false,
            }
        }
    }

    fn timed_out(&self) -> Failure {
        Failure::Transient {
            reason: format!(
                "no answer from {} within {} ms (embeddings.timeoutMs)",
                self.url,
                self.timeout.as_millis()
            ),
            retry_after: None,
            timed_out: true,
        }
    }
}

/// The `Retry-After` of an answer, when given in seconds.
fn retry_after(response: &Response) -> Option<Duration> {
    let seconds = response.headers().get(RETRY_AFTER)?.to_str().ok()?;
    seconds.trim().parse::<u64>().ok().map(Duration::from_secs)
}

/// The start of an error answer's body, on one line.
fn excerpt(response: Response) -> String {
    let text = response.text().unwrap_or_default();
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    one_line.chars().take(BODY_EXCERPT_CHARS).collect()
}

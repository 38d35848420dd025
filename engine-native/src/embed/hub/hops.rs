//! [`Hub::follow`]: a GET of a file's hub URL, its redirects followed by hand. The hub
//! answers a large (LFS) file with a redirect to a storage host (its CDN) and puts the
//! file's digest, size and commit on the redirect only; a small file comes from the hub
//! itself, sometimes through a relative redirect. The token goes to the hub's own host and
//! never to another; a host other than the hub's that fails is named.

use std::time::{Duration, SystemTime};

use reqwest::blocking::{Client, Response};
use reqwest::header::{AUTHORIZATION, ETAG, LOCATION, RANGE};
use reqwest::{StatusCode, Url};

use crate::embed::hub::error::HubError;
use crate::embed::hub::wait::asked_wait;
use crate::errors::chain::error_chain;

/// The most redirects followed for one file.
const MAX_HOPS: u32 = 5;

/// The hub's HTTP client with the token for its host.
pub struct Hub {
    client: Client,
    /// The `Authorization` value for the hub, from the token.
    authorization: Option<String>,
}

/// What the hub's own answers (not a CDN's) said of one file, and who answered last.
#[derive(Debug, Default)]
pub struct Arrived {
    /// `X-Linked-Etag`, else `ETag`: the blob's name.
    pub etag: Option<String>,
    /// Whether [`Self::etag`] is an `X-Linked-Etag` (a large file's SHA-256).
    pub linked: bool,
    /// `X-Linked-Size`: the large file's bytes.
    pub size: Option<u64>,
    /// `X-Repo-Commit`.
    pub commit: Option<String>,
    /// The host (and port) of the last answer.
    pub host: String,
    /// The URL of the last answer.
    pub url: String,
    /// Whether the last answer is the hub's own.
    pub own: bool,
}

impl Arrived {
    /// The error of the last answer's host failing for `reason`: the hub's
    /// ([`HubError::Unreachable`]), else its CDN's, named by host.
    pub fn failed(&self, reason: String) -> HubError {
        if self.own {
            HubError::Unreachable {
                url: self.url.clone(),
                reason,
            }
        } else {
            HubError::CdnUnreachable {
                host: self.host.clone(),
                reason,
            }
        }
    }
}

/// Why one attempt failed.
#[derive(Debug)]
pub enum Failure {
    /// Worth another attempt, after the wait the server asked for, if any; the error if
    /// none is made.
    Transient(HubError, Option<Duration>),
    /// Final.
    Fatal(HubError),
}

/// Where [`Hub::follow`] stopped.
pub enum Hop {
    /// The answer after the redirects.
    Answer(Response, Arrived),
    /// The hub's own answers were enough (the caller's `known` said so); nothing more was
    /// asked.
    Known(Arrived),
}

impl Hub {
    /// A client with these timeouts (for a connection, and for an answer's next bytes),
    /// sending `token` to the hub.
    pub fn new(token: Option<&str>, connect: Duration, read: Duration) -> Result<Hub, HubError> {
        let client = crate::http_client::blocking_builder()
            .connect_timeout(connect)
            .timeout(read)
            .user_agent(concat!("obsidian-tc/", env!("CARGO_PKG_VERSION")))
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .map_err(|e| HubError::BadAnswer {
                message: format!("cannot create the HTTP client: {e}"),
            })?;
        Ok(Hub {
            client,
            authorization: token
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .map(|t| format!("Bearer {t}")),
        })
    }

    /// GETs `url` (with a `Range` header when `range` is given), following redirects. When
    /// the hub's part is over (its last answer, or before the first request to another
    /// host) `known` is asked whether what the hub said is enough; then nothing more is
    /// asked. An answer that is neither a success nor a redirect is a [`Failure`].
    pub fn follow(
        &self,
        url: &str,
        range: Option<&str>,
        known: &mut dyn FnMut(&Arrived) -> Result<bool, Failure>,
    ) -> Result<Hop, Failure> {
        let bad = |message: String| Failure::Fatal(HubError::BadAnswer { message });
        let hub = Url::parse(url).map_err(|e| bad(format!("{url}: {e}")))?;
        let mut current = hub.clone();
        let mut arrived = Arrived::default();
        let mut left_hub = false;
        for _ in 0..=MAX_HOPS {
            let own = current.origin() == hub.origin();
            if !own && !std::mem::replace(&mut left_hub, true) && known(&arrived)? {
                return Ok(Hop::Known(arrived));
            }
            let mut request = self.client.get(current.clone());
            if let Some(range) = range {
                request = request.header(RANGE, range);
            }
            if let Some(token) = self.authorization.as_deref().filter(|_| own) {
                request = request.header(AUTHORIZATION, token);
            }
            arrived.host = host_of(&current);
            arrived.url = current.to_string();
            arrived.own = own;
            let response = request
                .send()
                .map_err(|e| Failure::Transient(arrived.failed(error_chain(&e)), None))?;
            if own {
                let linked = header(&response, "x-linked-etag");
                arrived.linked |= linked.is_some();
                let etag = linked.or_else(|| header(&response, ETAG.as_str()));
                arrived.etag = etag.or(arrived.etag.take());
                arrived.commit = arrived.commit.take().or(header(&response, "x-repo-commit"));
                let size = header(&response, "x-linked-size").and_then(|s| s.parse().ok());
                arrived.size = size.or(arrived.size);
            }
            let status = response.status();
            if !status.is_redirection() {
                if !(status.is_success() || status == StatusCode::RANGE_NOT_SATISFIABLE) {
                    return Err(refusal(&response, &arrived));
                }
                if own && !left_hub && status.is_success() && known(&arrived)? {
                    return Ok(Hop::Known(arrived));
                }
                return Ok(Hop::Answer(response, arrived));
            }
            let location = response
                .headers()
                .get(LOCATION)
                .and_then(|l| l.to_str().ok())
                .ok_or_else(|| bad(format!("a redirect without a Location for {current}")))?;
            current = current
                .join(location)
                .map_err(|e| bad(format!("the redirect to {location:?}: {e}")))?;
        }
        Err(bad(format!("more than {MAX_HOPS} redirects for {url}")))
    }
}

/// The failure of an answer that is neither a success nor a redirect (nor a 416, which the
/// caller reads): 429 and 5xx pass (a 429 after the wait it asks for), the rest is final.
fn refusal(response: &Response, arrived: &Arrived) -> Failure {
    let status = response.status();
    let asked = asked_wait(response.headers(), SystemTime::now());
    if status == StatusCode::TOO_MANY_REQUESTS {
        let error = HubError::RateLimited {
            url: arrived.url.clone(),
            asked: asked.map(|wait| wait.as_secs()),
        };
        Failure::Transient(error, asked)
    } else if status.is_server_error() {
        let reason = format!("HTTP {}", status.as_u16());
        Failure::Transient(arrived.failed(reason), asked)
    } else {
        Failure::Fatal(HubError::Refused {
            url: arrived.url.clone(),
            status: status.as_u16(),
        })
    }
}

/// `host` or `host:port` of `url`.
fn host_of(url: &Url) -> String {
    let host = url.host_str().unwrap_or_default();
    match url.port() {
        Some(port) => format!("{host}:{port}"),
        None => host.to_owned(),
    }
}

/// A header's value, without the quotes and weak marker of an etag.
pub fn header(response: &Response, name: &str) -> Option<String> {
    let value = response.headers().get(name)?.to_str().ok()?;
    let value = value.trim().trim_start_matches("W/").trim_matches('"');
    Some(value.to_owned()).filter(|v| !v.is_empty())
}

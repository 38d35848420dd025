//! [`HubError`]: why a model could not be fetched from the hub, and what to do about it.

use std::fmt;

use crate::embed::hub::access::WAIT_VAR;

/// A failed model download. Every message says what to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HubError {
    /// `HF_HUB_OFFLINE` is set: nothing is downloaded.
    Offline,
    /// The hub could not be reached, or failed (connect error, timeout, cut transfer, 5xx),
    /// through every attempt; a later try may work.
    Unreachable {
        /// The URL.
        url: String,
        /// The last failure.
        reason: String,
    },
    /// The hub sent a download to a storage host (its CDN) that could not be reached,
    /// through every attempt.
    CdnUnreachable {
        /// The host.
        host: String,
        /// The last failure.
        reason: String,
    },
    /// The hub (or its CDN) answered HTTP 429, too many requests.
    RateLimited {
        /// The URL.
        url: String,
        /// The wait it asked for (`Retry-After`, `RateLimit` or `RateLimit-Reset`), in
        /// seconds, when it named one.
        asked: Option<u64>,
    },
    /// Failures went on (or the hub asked to wait) past the wait budget of a download.
    GaveUp {
        /// Seconds waited since the failures began.
        waited: u64,
        /// The budget, in seconds.
        budget: u64,
        /// The last failure.
        last: Box<HubError>,
    },
    /// The hub refused the request (a 4xx: no such repository, revision or file, or a
    /// gated model).
    Refused {
        /// The URL.
        url: String,
        /// The HTTP status.
        status: u16,
    },
    /// A downloaded file does not have its pinned SHA-256 (or size); it was deleted.
    Checksum {
        /// The file's path in the repository.
        path: String,
        /// The pinned digest.
        expected: String,
        /// The digest of what arrived.
        actual: String,
    },
    /// The hub announced a file (`X-Linked-Etag`, `X-Linked-Size`) other than the pinned one;
    /// it was not downloaded.
    Announced {
        /// The file's path in the repository.
        path: String,
        /// The header.
        header: &'static str,
        /// The pinned value.
        pinned: String,
        /// The announced value.
        announced: String,
    },
    /// A storage host sent another number of bytes than the hub announced
    /// (`X-Linked-Size`); what arrived was deleted.
    Length {
        /// The file's path in the repository.
        path: String,
        /// The host that sent it.
        host: String,
        /// The bytes announced.
        announced: u64,
        /// The bytes sent (at least).
        received: u64,
    },
    /// The hub answered something unusable (e.g. no commit for a branch).
    BadAnswer {
        /// What was wrong.
        message: String,
    },
    /// The cache folder could not be written.
    Cache {
        /// The folder or file.
        path: String,
        /// The error.
        reason: String,
    },
    /// The config names no pinned model (a model other than the default without
    /// `embeddings.revision` and `embeddings.files`), so nothing can be checked.
    Unpinned {
        /// The model.
        model: String,
    },
}

impl HubError {
    /// Whether trying again later, with nothing changed, may succeed.
    pub fn is_transient(&self) -> bool {
        match self {
            HubError::Unreachable { .. }
            | HubError::CdnUnreachable { .. }
            | HubError::RateLimited { .. } => true,
            HubError::GaveUp { last, .. } => last.is_transient(),
            _ => false,
        }
    }

    /// The failure in a few words (where and what), for a log line.
    pub fn brief(&self) -> String {
        match self {
            HubError::Unreachable { url, reason } => format!("{url}: {reason}"),
            HubError::CdnUnreachable { host, reason } => format!("{host}: {reason}"),
            HubError::RateLimited { url, asked } => match asked {
                Some(seconds) => format!("{url}: HTTP 429, wait {seconds} s"),
                None => format!("{url}: HTTP 429"),
            },
            other => other.to_string(),
        }
    }
}

impl fmt::Display for HubError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HubError::Offline => f.write_str(
                "HF_HUB_OFFLINE is set, so the embedding model is not downloaded: unset it, or \
                 put the model in the Hugging Face cache (`obsidian-tc model pull` on a \
                 connected machine) or in embeddings.modelPath",
            ),
            HubError::Unreachable { url, reason } => write!(
                f,
                "cannot download {url} ({reason}): check the network (or HF_ENDPOINT), or \
                 fetch the model ahead of time with `obsidian-tc model pull`; the download \
                 is retried later and resumes where it stopped"
            ),
            HubError::CdnUnreachable { host, reason } => write!(
                f,
                "the hub sends the model's large files from {host}, which cannot be reached \
                 ({reason}): allow {host} (or set HTTPS_PROXY to a proxy that reaches it), \
                 point HF_ENDPOINT at a mirror that serves the files itself, or run \
                 `obsidian-tc model pull` on a connected machine and copy its Hugging Face \
                 cache; the download is retried later and resumes where it stopped"
            ),
            HubError::RateLimited { url, asked } => {
                write!(f, "the hub answered HTTP 429 (too many requests) for {url}")?;
                if let Some(seconds) = asked {
                    write!(f, " and asked to wait {seconds} s")?;
                }
                f.write_str(
                    ": try again later (HF_TOKEN, a hub account's token, raises the limit), \
                     or fetch the model ahead of time with `obsidian-tc model pull`",
                )
            }
            HubError::GaveUp {
                waited,
                budget,
                last,
            } => write!(
                f,
                "gave up after waiting {waited} s (a download waits out failures for \
                 {budget} s at most, {WAIT_VAR}): {last}"
            ),
            HubError::Refused { url, status } => write!(
                f,
                "the hub answered HTTP {status} for {url}: check embeddings.model, \
                 embeddings.revision and embeddings.files (and HF_ENDPOINT)"
            ),
            HubError::Checksum {
                path,
                expected,
                actual,
            } => write!(
                f,
                "the downloaded {path} has SHA-256 {actual}, not the pinned {expected}: it was \
                 refused and deleted, and no model was loaded; check HF_ENDPOINT (a mirror \
                 serving other content) or the digest in embeddings.files"
            ),
            HubError::Announced {
                path,
                header,
                pinned,
                announced,
            } => write!(
                f,
                "the hub announces {path} with {header} {announced}, not the pinned \
                 {pinned}: it was not downloaded; check HF_ENDPOINT (a mirror serving other \
                 content), embeddings.revision and embeddings.files"
            ),
            HubError::Length {
                path,
                host,
                announced,
                received,
            } => write!(
                f,
                "{host} sent {received} bytes of {path} where the hub announced {announced} \
                 (X-Linked-Size): what arrived was deleted; a proxy or storage host altered \
                 the transfer, try again later or set HF_ENDPOINT to a mirror"
            ),
            HubError::BadAnswer { message } => write!(
                f,
                "the hub answered something unusable: {message}; check HF_ENDPOINT"
            ),
            HubError::Cache { path, reason } => write!(
                f,
                "cannot write the model cache {path} ({reason}): make it writable, or point \
                 HF_HOME or HF_HUB_CACHE at a writable folder"
            ),
            HubError::Unpinned { model } => write!(
                f,
                "no revision and SHA-256 digests are known for {model}: name them in \
                 embeddings.revision and embeddings.files, or download the model yourself \
                 into the Hugging Face cache or embeddings.modelPath"
            ),
        }
    }
}

impl std::error::Error for HubError {}

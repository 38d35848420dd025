//! Model downloads from a local hub mirror (`support::hub_mirror`) into a fresh Hugging Face
//! cache: the hub's cache layout, each file checked against its pinned SHA-256, a corrupt
//! file refused and deleted, an interrupted transfer resumed with a `Range` request (in the
//! same run, and from the `.incomplete` file an earlier run left), a model another tool put
//! in the cache reused without a request, and the failures a later try may cure; against a
//! mirror answering like the real hub, large files through a CDN on another host: named by
//! the digest on the redirect, the token (`HF_TOKEN` or the login file) never sent to the
//! CDN, a CDN that cannot be reached named in the error, a blob the cache holds linked
//! rather than fetched again, and a CDN body of another length than announced refused;
//! outages and rate limits waited out within the wait budget, and given up past it.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use obsidian_tc::config::EmbeddingsConfig;
use obsidian_tc::embed::hub::cache::RepoCache;
use obsidian_tc::embed::hub::{
    HubAccess, HubError, HubSettings, MINILM_MODEL, ModelSpec, Transfer, WAIT_VAR, fetch_model_as,
    probe,
};
use obsidian_tc::embed::local::locate;
use obsidian_tc::embed::{EmbeddingProvider, LocalProvider};
use tempfile::TempDir;

use crate::support::logs::logged;

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

/// No token, failures waited out for `seconds`.
fn patient(seconds: u64) -> HubAccess {
    HubAccess {
        token: None,
        wait: Duration::from_secs(seconds),
    }
}

/// The test model fetched into `settings`' cache, failures waited out for 1 s.
fn fetch(settings: &HubSettings) -> (Result<PathBuf, HubError>, Vec<Transfer>) {
    fetch_spec(&test_spec(), settings, &patient(1))
}

fn fetch_spec(
    spec: &ModelSpec,
    settings: &HubSettings,
    access: &HubAccess,
) -> (Result<PathBuf, HubError>, Vec<Transfer>) {
    let mut seen = Vec::new();
    let result = fetch_model_as(spec, settings, access, &mut |t| seen.push(t));
    (result, seen)
}

/// The last failure of a download that gave up.
fn gave_up(error: &HubError) -> &HubError {
    match error {
        HubError::GaveUp { last, .. } => last,
        other => panic!("expected the download to give up, got {other:?}"),
    }
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
    let started = Instant::now();
    let (result, _) = fetch(&settings);
    let took = started.elapsed();
    let error = result.expect_err("nothing listens");
    assert!(
        matches!(gave_up(&error), HubError::Unreachable { .. }),
        "{error:?}"
    );
    assert!(error.is_transient());
    let message = error.to_string();
    assert!(
        message.contains("model pull") && message.contains(WAIT_VAR),
        "{message}"
    );
    assert!(
        took >= Duration::from_secs(1) && took < Duration::from_secs(3),
        "waited out for the 1 s budget: {took:?}"
    );

    let mirror = Mirror::serve(&test_model());
    let (_dir, mut settings) = fresh(&mirror.endpoint());
    settings.offline = true;
    let (result, _) = fetch(&settings);
    assert_eq!(result, Err(HubError::Offline));
    assert!(mirror.requests().is_empty());
}

/// Files over this size go through the CDN of a mirror like the hub.
const LFS_OVER: usize = 1_000_000;

/// A mirror like the hub (`config.json` through a relative redirect), and settings
/// downloading from it into a fresh cache root.
fn like_hub() -> (Mirror, TempDir, HubSettings) {
    let mirror = Mirror::serve_like_hub(&test_model(), LFS_OVER, "config.json");
    let (dir, settings) = fresh(&mirror.endpoint());
    (mirror, dir, settings)
}

#[test]
fn large_files_through_the_cdn_are_named_by_the_digest_on_the_redirect() {
    let (mirror, _dir, settings) = like_hub();
    let (folder, _) = fetch(&settings);
    let folder = folder.unwrap_or_else(|e| panic!("{e}"));
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

/// Fetches the test model from a mirror like the hub with `access`, and checks that its
/// token, `expected`, reached the hub and never the CDN.
fn assert_token_to_the_hub_only(access: &HubAccess, expected: &str) {
    let (mirror, _dir, settings) = like_hub();
    let (result, _) = fetch_spec(&test_spec(), &settings, access);
    result.unwrap_or_else(|e| panic!("{e}"));
    let requests = mirror.requests();
    assert!(requests.iter().any(|r| r.listener == Listener::Cdn));
    for request in &requests {
        let sent = match request.listener {
            Listener::Hub => Some(expected),
            Listener::Cdn => None,
        };
        assert_eq!(request.authorization.as_deref(), sent, "{request:?}");
    }
}

#[test]
fn the_token_reaches_the_hub_and_never_the_cdn() {
    let access = HubAccess {
        token: Some("hf_secret".to_owned()),
        ..patient(1)
    };
    assert_token_to_the_hub_only(&access, "Bearer hf_secret");
}

#[test]
fn without_hf_token_the_login_files_token_is_sent_to_the_hub_only() {
    let home = tempfile::tempdir().expect("HF_HOME");
    std::fs::write(home.path().join("token"), "hf_from_login\n").expect("token file");
    let hf_home = home.path().display().to_string();
    let env = move |name: &str| match name {
        "HF_HOME" => Some(hf_home.clone()),
        WAIT_VAR => Some("1".to_owned()),
        _ => None,
    };
    let access = HubAccess::from_env(&env);
    assert_eq!(access.wait, Duration::from_secs(1));
    assert_token_to_the_hub_only(&access, "Bearer hf_from_login");
}

#[test]
fn a_cdn_that_cannot_be_reached_is_named_and_nothing_half_is_linked() {
    let (mirror, _dir, settings) = like_hub();
    let cdn = mirror.cdn_down();
    let (result, _) = fetch(&settings);
    let error = result.expect_err("the CDN is down");
    assert!(
        matches!(gave_up(&error), HubError::CdnUnreachable { host, .. } if *host == cdn),
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

/// The listeners `path` was asked of, in order.
fn listeners(mirror: &Mirror, path: &str) -> Vec<Listener> {
    mirror
        .requests_for(path)
        .iter()
        .map(|r| r.listener)
        .collect()
}

/// The weights' blob and snapshot link are absent, and no partial download is left.
fn assert_no_weights_left(settings: &HubSettings) {
    let weights_sha = test_spec().sha256_of(WEIGHTS).unwrap().to_owned();
    assert!(
        !blobs(settings).iter().any(|b| b.starts_with(&weights_sha)),
        "{:?}",
        blobs(settings)
    );
    let snapshot = repo(settings).join("snapshots").join(test_spec().revision);
    assert!(std::fs::symlink_metadata(snapshot.join(WEIGHTS)).is_err());
}

#[test]
fn a_429_with_retry_after_is_waited_out_as_long_as_asked_and_logged() {
    let (mirror, _dir, settings) = like_hub();
    mirror.fail_next(WEIGHTS, 2, 429, &[("retry-after", "1".to_owned())]);
    let started = Instant::now();
    let ((result, _), log) = logged(|| fetch_spec(&test_spec(), &settings, &patient(10)));
    let took = started.elapsed();
    let folder = result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        sha256(&folder.join(WEIGHTS)),
        test_spec().sha256_of(WEIGHTS).unwrap()
    );
    assert_eq!(
        listeners(&mirror, WEIGHTS),
        [Listener::Hub, Listener::Hub, Listener::Hub, Listener::Cdn]
    );
    assert!(took >= Duration::from_secs(2), "1 s twice: {took:?}");
    let waits: Vec<&str> = log.lines().filter(|l| l.contains("waiting")).collect();
    assert_eq!(waits.len(), 2, "{log}");
    for line in waits {
        assert!(
            line.contains("HTTP 429") && line.contains("waiting 1.0 s") && line.contains(WAIT_VAR),
            "{line}"
        );
    }
}

#[test]
fn ratelimit_fields_and_http_dates_name_the_wait_too() {
    let mirror = Mirror::serve_like_hub(&test_model(), LFS_OVER, "config.json");
    let limited = [
        ("ratelimit", "\"resolvers\";r=0;t=1".to_owned()),
        (
            "ratelimit-policy",
            "\"fixed window\";\"resolvers\";q=3000;w=300".to_owned(),
        ),
    ];
    mirror.fail_next("config.json", 1, 429, &limited);
    // A date 3 s ahead, to the second: over 2 s from now, past the 1 s above, the small
    // files and a backoff of half a second.
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("after 1970");
    let seconds = now.as_secs() + 3;
    let date = chrono::DateTime::from_timestamp(seconds as i64, 0).expect("a date");
    let date = date.format("%a, %d %b %Y %H:%M:%S GMT").to_string();
    mirror.fail_next(WEIGHTS, 1, 503, &[("retry-after", date)]);
    let (_dir, settings) = fresh(&mirror.endpoint());
    let (result, _) = fetch_spec(&test_spec(), &settings, &patient(10));
    result.unwrap_or_else(|e| panic!("{e}"));

    let config = mirror.requests_for("config.json");
    assert_eq!(config.len(), 3, "429, 307, 200: {config:?}");
    let gap = config[1]
        .at
        .duration_since(config[0].at)
        .unwrap_or_default();
    assert!(gap >= Duration::from_secs(1), "t=1: {gap:?}");
    let weights = mirror.requests_for(WEIGHTS);
    let asked: Vec<Listener> = weights.iter().map(|r| r.listener).collect();
    assert_eq!(asked, [Listener::Hub, Listener::Hub, Listener::Cdn]);
    assert!(
        weights[1].at >= UNIX_EPOCH + Duration::from_secs(seconds),
        "not before the date: {weights:?}"
    );
}

#[test]
fn an_outage_of_the_hub_and_its_5xx_are_waited_out() {
    let started = Instant::now();
    let down = Duration::from_secs(2);
    let mirror = Mirror::serve_like_hub_after(&test_model(), LFS_OVER, "config.json", down);
    mirror.fail_next("tokenizer.json", 2, 503, &[]);
    let (_dir, settings) = fresh(&mirror.endpoint());
    let (result, _) = fetch_spec(&test_spec(), &settings, &patient(10));
    let took = started.elapsed();
    let folder = result.unwrap_or_else(|e| panic!("{e}"));
    for file in test_spec().files {
        assert_eq!(
            sha256(&folder.join(&file.path)),
            file.sha256,
            "{}",
            file.path
        );
    }
    assert_eq!(
        listeners(&mirror, "tokenizer.json").len(),
        3,
        "503, 503, 200"
    );
    assert!(took >= down, "{took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn an_outage_of_the_cdn_is_waited_out() {
    let mirror = Mirror::serve_like_hub(&test_model(), LFS_OVER, "config.json");
    let started = Instant::now();
    let down = Duration::from_secs(2);
    mirror.cdn_down_for(down);
    let (_dir, settings) = fresh(&mirror.endpoint());
    let (result, _) = fetch_spec(&test_spec(), &settings, &patient(10));
    let took = started.elapsed();
    let folder = result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        sha256(&folder.join(WEIGHTS)),
        test_spec().sha256_of(WEIGHTS).unwrap()
    );
    let weights = listeners(&mirror, WEIGHTS);
    assert!(weights.len() >= 3, "refused, then served: {weights:?}");
    assert_eq!(weights.last(), Some(&Listener::Cdn), "{weights:?}");
    assert!(took >= down, "{took:?}");
}

#[test]
fn past_the_budget_a_download_gives_up_at_once_saying_what_happened() {
    let (mirror, _dir, settings) = like_hub();
    mirror.fail_next(WEIGHTS, 1, 429, &[("retry-after", "30".to_owned())]);
    let started = Instant::now();
    let (result, _) = fetch_spec(&test_spec(), &settings, &patient(2));
    let took = started.elapsed();
    let error = result.expect_err("30 s is past the budget");
    assert!(
        matches!(
            gave_up(&error),
            HubError::RateLimited {
                asked: Some(30),
                ..
            }
        ),
        "{error:?}"
    );
    assert!(error.is_transient());
    let message = error.to_string();
    for needle in ["HTTP 429", "asked to wait 30 s", "2 s at most", WAIT_VAR] {
        assert!(message.contains(needle), "{needle}: {message}");
    }
    assert!(took < Duration::from_secs(2), "not waited: {took:?}");
    assert_eq!(listeners(&mirror, WEIGHTS), [Listener::Hub]);
    assert_no_weights_left(&settings);
}

#[test]
fn a_blob_the_cache_holds_under_another_snapshot_is_linked_not_downloaded() {
    let (mirror, _dir, settings) = like_hub();
    let cache = RepoCache::new(&settings.roots[0], MINILM_MODEL);
    let weights_sha = test_spec().sha256_of(WEIGHTS).unwrap().to_owned();
    std::fs::create_dir_all(cache.dir.join("blobs")).expect("blobs");
    std::fs::copy(test_model().join(WEIGHTS), cache.blob(&weights_sha)).expect("blob");
    let other = "1".repeat(40);
    cache
        .link(&other, WEIGHTS, &weights_sha)
        .expect("another snapshot");
    let modified = || {
        std::fs::metadata(cache.blob(&weights_sha))
            .and_then(|m| m.modified())
            .expect("the blob")
    };
    let before = modified();

    let (result, _) = fetch(&settings);
    let folder = result.unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(folder, cache.snapshot(&test_spec().revision));
    assert_eq!(
        listeners(&mirror, WEIGHTS),
        [Listener::Hub],
        "no CDN request"
    );
    let target = std::fs::read_link(folder.join(WEIGHTS)).expect("a symlink");
    assert!(
        target.ends_with(format!("blobs/{weights_sha}")),
        "{target:?}"
    );
    assert_eq!(modified(), before, "the blob is not written again");
    assert!(
        blobs(&settings).iter().all(|b| !b.ends_with(".incomplete")),
        "{:?}",
        blobs(&settings)
    );
    assert!(cache.snapshot(&other).join(WEIGHTS).exists());
}

#[test]
fn a_cdn_body_of_another_length_than_announced_is_refused_and_deleted() {
    // Without pinned sizes: the hub's X-Linked-Size is all that says how long the file is.
    let mut spec = test_spec();
    for file in &mut spec.files {
        file.size = None;
    }
    let real = std::fs::metadata(test_model().join(WEIGHTS))
        .expect("weights")
        .len();
    for more in [4096_i64, -4096] {
        let (mirror, _dir, settings) = like_hub();
        mirror.cdn_length(WEIGHTS, more);
        let (result, _) = fetch_spec(&spec, &settings, &patient(2));
        let error = result.expect_err("another length");
        let HubError::Length {
            path,
            host,
            announced,
            received,
        } = &error
        else {
            panic!("{more}: expected a length error, got {error:?}");
        };
        assert_eq!(path, WEIGHTS);
        assert_eq!(*announced, real);
        assert_eq!(*host, mirror.cdn_host());
        if more > 0 {
            assert!(*received > real, "{more}: {received}");
        } else {
            assert_eq!(*received, real - 4096);
        }
        assert!(!error.is_transient());
        assert!(error.to_string().contains("X-Linked-Size"), "{error}");
        assert_no_weights_left(&settings);
    }
}

#[test]
fn a_file_the_hub_announces_with_other_pins_is_not_downloaded_and_the_cdn_content_is_checked() {
    let mirror = Mirror::serve_like_hub(&test_model(), LFS_OVER, "config.json");
    for header in ["X-Linked-Etag", "X-Linked-Size"] {
        let mut spec = test_spec();
        let weights = spec.files.iter_mut().find(|f| f.path == WEIGHTS);
        let weights = weights.expect("the weights");
        match header {
            "X-Linked-Etag" => weights.sha256 = "ab".repeat(32),
            _ => weights.size = weights.size.map(|size| size + 1),
        }
        let (_dir, settings) = fresh(&mirror.endpoint());
        let (result, _) = fetch_spec(&spec, &settings, &patient(1));
        let error = result.expect_err("other pins");
        assert!(
            matches!(&error, HubError::Announced { path, header: h, .. } if path == WEIGHTS && *h == header),
            "{error:?}"
        );
        assert_no_weights_left(&settings);
    }
    assert!(
        !listeners(&mirror, WEIGHTS).contains(&Listener::Cdn),
        "nothing downloaded"
    );

    // The CDN's content is checked against the digest the redirect names (the pin).
    mirror.corrupt(WEIGHTS);
    let (_dir, settings) = fresh(&mirror.endpoint());
    let (result, _) = fetch(&settings);
    assert!(
        matches!(&result, Err(HubError::Checksum { path, .. }) if path == WEIGHTS),
        "{result:?}"
    );
    assert_no_weights_left(&settings);
}

#[test]
fn the_probe_asks_for_a_byte_of_the_weights_through_the_redirect_like_the_download() {
    let (mirror, _dir, settings) = like_hub();
    let access = HubAccess {
        token: Some("hf_probe".to_owned()),
        ..patient(30)
    };
    probe(&test_spec(), &settings, &access, Duration::from_secs(5))
        .unwrap_or_else(|e| panic!("{e}"));
    let asked = mirror.requests();
    let seen: Vec<(Listener, Option<&str>, Option<&str>)> = asked
        .iter()
        .map(|r| (r.listener, r.authorization.as_deref(), r.range.as_deref()))
        .collect();
    assert_eq!(
        seen,
        [
            (Listener::Hub, Some("Bearer hf_probe"), Some("bytes=0-0")),
            (Listener::Cdn, None, Some("bytes=0-0")),
        ]
    );
    assert!(asked.iter().all(|r| r.path == WEIGHTS), "{asked:?}");

    let cdn = mirror.cdn_down();
    let started = Instant::now();
    let error = probe(&test_spec(), &settings, &access, Duration::from_secs(5))
        .expect_err("the CDN is down");
    assert!(
        matches!(&error, HubError::CdnUnreachable { host, .. } if *host == cdn),
        "{error:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(5), "no waiting");
}

//! Provider `auto` end to end, the first run of a new user: `obsidian-tc <vault>` (the binary
//! [`bin`] names; `OBSIDIAN_TC_BIN` for the release build) in a fresh home with no model and
//! no config file, `HF_ENDPOINT` at a local hub mirror serving the test model. Search answers
//! at once; the model is downloaded, loaded and the vault embedded in the background, after
//! which `search_vault` with no mode answers `hybrid`. With the mirror down, or serving a
//! corrupted file, search stays lexical and `get_index_status` says why.
//!
//! The tests serve the sample vault; `OBSIDIAN_TC_FIRST_RUN_VAULT` names another vault
//! to copy instead (issue 18's run on obsidian-help-en, with the release build).

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use serde_json::{Value, json};

use crate::support::hub_mirror::{
    Mirror, closed_endpoint, first_run_env, hub_cache, pinned_snapshot, test_model,
};
use crate::support::mcp::{bin, call, copy_of_vault, fresh_vault, structured};

/// The vault a test serves: the sample vault, or a copy of `OBSIDIAN_TC_FIRST_RUN_VAULT`.
fn first_run_vault() -> tempfile::TempDir {
    match std::env::var_os("OBSIDIAN_TC_FIRST_RUN_VAULT") {
        Some(folder) => copy_of_vault(Path::new(&folder)),
        None => fresh_vault(),
    }
}

/// The longest wait for the whole vault to be embedded: 5 minutes for the sample vault, 30
/// for a real one.
fn embedding_limit() -> Duration {
    let minutes = match std::env::var_os("OBSIDIAN_TC_FIRST_RUN_VAULT") {
        Some(_) => 30,
        None => 5,
    };
    Duration::from_secs(minutes * 60)
}

/// `obsidian-tc <vault>` over stdio in the first-run environment of `home`.
async fn first_run(vault: &Path, home: &Path, endpoint: &str) -> RunningService<RoleClient, ()> {
    let env = first_run_env(home, endpoint);
    let command = tokio::process::Command::new(bin()).configure(|c| {
        c.arg(vault);
        for (name, value) in &env {
            match value {
                Some(value) => c.env(name, value),
                None => c.env_remove(name),
            };
        }
    });
    let (transport, _) = TokioChildProcess::builder(command)
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn obsidian-tc");
    ().serve(transport).await.expect("initialize over stdio")
}

async fn tool(client: &RunningService<RoleClient, ()>, name: &str, args: Value) -> Value {
    let result = call(client, name, args).await;
    assert_ne!(result.is_error, Some(true), "{name}: {result:?}");
    structured(&result).clone()
}

/// Polls `get_index_status` until `done` holds for its `embeddings`, within `limit`.
async fn wait_for(
    client: &RunningService<RoleClient, ()>,
    limit: Duration,
    done: impl Fn(&Value) -> bool,
) -> Value {
    let deadline = Instant::now() + limit;
    loop {
        let status = tool(client, "get_index_status", json!({})).await;
        if done(&status["embeddings"]) {
            return status["embeddings"].clone();
        }
        assert!(
            Instant::now() < deadline,
            "not reached in {limit:?}: {status}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Files under `folder` whose name ends with `.incomplete`.
fn partial_files(folder: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(entries) = std::fs::read_dir(folder) {
        for entry in entries.filter_map(Result::ok) {
            let path = entry.path();
            if path.is_dir() {
                out.extend(partial_files(&path));
            } else if path.to_string_lossy().ends_with(".incomplete") {
                out.push(path.display().to_string());
            }
        }
    }
    out
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_first_run_downloads_the_model_embeds_and_turns_search_hybrid() {
    let mirror = Mirror::serve(&test_model());
    let home = tempfile::tempdir().expect("home");
    let vault = first_run_vault();
    let client = first_run(vault.path(), home.path(), &mirror.endpoint()).await;

    let first = tool(&client, "search_vault", json!({"query": "tomato soup"})).await;
    match first["mode"].as_str() {
        Some("lexical") => {
            let why = first["coverage"]["lexical_only"]
                .as_str()
                .unwrap_or_default();
            assert!(why.contains("search is lexical"), "{first}");
        }
        Some("hybrid") => {}
        other => panic!("unexpected mode {other:?}: {first}"),
    }

    let embeddings = wait_for(&client, embedding_limit(), |e| e["state"] == "ready").await;
    assert_eq!(embeddings["provider"], "auto");
    assert_eq!(
        embeddings["model"],
        "sentence-transformers/all-MiniLM-L6-v2"
    );
    assert_eq!(embeddings["reason"], Value::Null);
    assert_eq!(embeddings["download"], Value::Null);
    assert!(
        embeddings["total"].as_u64().unwrap_or(0) > 0,
        "{embeddings}"
    );
    assert_eq!(embeddings["embedded"], embeddings["total"]);

    let found = tool(&client, "search_vault", json!({"query": "tomato soup"})).await;
    assert_eq!(found["mode"], "hybrid", "{found}");
    assert_eq!(found["coverage"]["embedded"], found["coverage"]["chunks"]);
    assert!(found["coverage"].get("lexical_only").is_none(), "{found}");
    assert!(
        found["results"][0]["scores"]["semantic"].is_number(),
        "{found}"
    );

    // The model sits in the shared Hugging Face cache, each file fetched once.
    let snapshot = pinned_snapshot(&hub_cache(home.path()));
    let weights = snapshot.join("model.safetensors");
    assert!(
        std::fs::symlink_metadata(&weights)
            .expect("weights linked")
            .file_type()
            .is_symlink()
    );
    assert!(partial_files(&hub_cache(home.path())).is_empty());
    assert_eq!(mirror.requests().len(), 6, "{:?}", mirror.requests());
    client.cancel().await.expect("stop");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_the_hub_down_search_is_lexical_at_once_and_the_status_says_why() {
    let endpoint = closed_endpoint();
    let home = tempfile::tempdir().expect("home");
    let vault = first_run_vault();
    let client = first_run(vault.path(), home.path(), &endpoint).await;

    let asked = Instant::now();
    let first = tool(&client, "search_vault", json!({"query": "tomato soup"})).await;
    assert!(
        asked.elapsed() < Duration::from_secs(2),
        "{:?}",
        asked.elapsed()
    );
    assert_eq!(first["mode"], "lexical", "{first}");
    assert!(first["coverage"]["lexical_only"].is_string(), "{first}");

    let embeddings = wait_for(&client, Duration::from_secs(60), |e| {
        e["state"] == "unavailable"
    })
    .await;
    let reason = embeddings["reason"].as_str().unwrap_or_default();
    assert!(reason.starts_with("search is lexical"), "{reason}");
    assert!(reason.contains(&endpoint), "{reason}");
    assert!(reason.contains("obsidian-tc model pull"), "{reason}");
    assert_eq!(embeddings["embedded"], 0);

    let later = tool(&client, "search_vault", json!({"query": "tomato soup"})).await;
    assert_eq!(later["mode"], "lexical");
    assert_eq!(later["coverage"]["lexical_only"], embeddings["reason"]);
    client.cancel().await.expect("stop");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_corrupt_file_on_the_hub_is_refused_and_no_half_model_is_loaded() {
    let mirror = Mirror::serve(&test_model());
    mirror.corrupt("model.safetensors");
    let home = tempfile::tempdir().expect("home");
    let vault = first_run_vault();
    let client = first_run(vault.path(), home.path(), &mirror.endpoint()).await;

    let embeddings = wait_for(&client, Duration::from_secs(120), |e| {
        e["state"] == "unavailable"
    })
    .await;
    let reason = embeddings["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("model.safetensors") && reason.contains("SHA-256"),
        "{reason}"
    );
    let found = tool(&client, "search_vault", json!({"query": "tomato soup"})).await;
    assert_eq!(found["mode"], "lexical");
    let snapshot = pinned_snapshot(&hub_cache(home.path()));
    assert!(!snapshot.join("model.safetensors").exists());
    assert!(partial_files(&hub_cache(home.path())).is_empty());
    assert_eq!(
        mirror.requests_for("model.safetensors").len(),
        1,
        "a refused file is not fetched again and again"
    );
    client.cancel().await.expect("stop");
}

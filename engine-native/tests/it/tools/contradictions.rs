//! Contradictions through the dispatcher, with a mock embedding API whose vectors the notes
//! choose (a `vec[...]` marker) and a deterministic judge: without a model nothing is judged;
//! a pair judged `contradiction` is listed; a second run judges nothing again; an edit of a
//! side hides the pair at once and retires it at the next run, which judges the new text;
//! the old text back reopens it; a pair with an unreadable side is invisible to a caller
//! under the folder ACL, and a hidden path named is refused like any other; the detector
//! itself is refused to that caller; the budget stops a run that goes on next time.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::index::contradictions::{ContradictionJudge, JudgePrompt};
use obsidian_tc::store::EventFilter;
use obsidian_tc::upkeep::detect_contradictions;
use serde_json::{Value, json};

use crate::support::chat::{ok, serve};
use crate::support::dispatch::{Fixture, caller};
use crate::support::embed::MockApi;

/// Says `contradiction` when one passage says Monday and the other Tuesday, else
/// `no_conflict`; counts its calls.
#[derive(Default)]
struct DayJudge {
    calls: AtomicUsize,
}

impl ContradictionJudge for DayJudge {
    fn model(&self) -> String {
        "day-judge".to_owned()
    }

    fn answer(&self, prompt: &JudgePrompt) -> Result<String, String> {
        self.calls.fetch_add(1, Ordering::SeqCst);
        let text = &prompt.user;
        Ok(if text.contains("Monday") && text.contains("Tuesday") {
            "Sure. {\"verdict\": \"contradiction\", \"rationale\": \"Monday is not Tuesday\"}"
                .to_owned()
        } else {
            "{\"verdict\": \"no_conflict\", \"rationale\": \"\"}".to_owned()
        })
    }
}

const MEETING: &str = "# Meeting\nThe launch meeting is on Monday. vec[1,0,0]\n";
const PLAN: &str = "# Plan\nThe launch meeting is on Tuesday. vec[1,0.5,0]\n";
const GARDEN: &str = "# Garden\nTomatoes want sun. vec[0,0,1]\n";

fn fixture(api: &MockApi, acl: Option<Value>) -> Fixture {
    let mut extra = json!({"throttle": {"enabled": false}, "embeddings": api.provider_config()});
    if let Some(acl) = acl {
        extra["acl"] = acl;
    }
    Fixture::new(extra)
}

fn judged(fx: &Fixture, judge: Arc<DayJudge>) {
    fx.server.runtime().set_contradiction_judge(Some(judge));
}

fn listed(fx: &Fixture, paths: &[&str]) -> Vec<(String, String)> {
    let list = fx.ok("list_contradictions", json!({ "paths": paths }));
    pairs(&list)
}

fn pairs(list: &Value) -> Vec<(String, String)> {
    assert_eq!(list["available"], true);
    let rows = list["contradictions"].as_array().expect("contradictions");
    assert_eq!(list["total"], rows.len());
    rows.iter()
        .map(|row| {
            (
                row["source_path"].as_str().expect("source").to_owned(),
                row["conflict_path"].as_str().expect("conflict").to_owned(),
            )
        })
        .collect()
}

fn sorted(pair: &(String, String)) -> [String; 2] {
    let mut both = [pair.0.clone(), pair.1.clone()];
    both.sort();
    both
}

#[test]
fn a_judged_contradiction_is_listed_and_an_edit_reopens_it() {
    let api = MockApi::start(3);
    let fx = fixture(&api, None);
    fx.write("main", "Meeting.md", MEETING);
    fx.write("main", "Plan.md", PLAN);
    fx.write("main", "Garden.md", GARDEN);
    fx.ok("index_vault", json!({}));
    // No model: nothing judged, nothing listed, and no error.
    let none = fx.ok("detect_contradictions", json!({}));
    assert_eq!(none["available"], false, "{none}");
    assert!(
        none["message"]
            .as_str()
            .is_some_and(|m| m.contains("model"))
    );
    assert!(listed(&fx, &["Meeting.md"]).is_empty());

    let judge = Arc::new(DayJudge::default());
    judged(&fx, Arc::clone(&judge));
    let run = fx.ok("detect_contradictions", json!({}));
    assert_eq!(run["available"], true, "{run}");
    assert_eq!(run["model"], "day-judge");
    assert_eq!(run["chunks_done"], 3, "{run}");
    assert_eq!(run["chunks_left"], 0);
    // Meeting and Plan are neighbours (cosine 0.89); Garden is nobody's (0): one pair, once.
    assert_eq!(run["pairs_judged"], 1, "{run}");
    assert_eq!(run["contradictions"], 1);
    assert_eq!(judge.calls.load(Ordering::SeqCst), 1);
    let list = fx.ok("list_contradictions", json!({"paths": ["Plan.md"]}));
    let row = &list["contradictions"][0];
    assert_eq!(row["judge_verdict"], "contradiction");
    assert_eq!(row["judge_rationale"], "Monday is not Tuesday");
    assert_eq!(row["judge_model"], "day-judge");
    let cosine = row["cosine_similarity"].as_f64().expect("cosine");
    assert!((cosine - 0.894).abs() < 0.001, "{cosine}");
    assert_eq!(sorted(&pairs(&list)[0]), ["Meeting.md", "Plan.md"]);
    assert!(listed(&fx, &["Garden.md"]).is_empty());
    let id = row["id"].clone();

    // A second run has nothing new to look at.
    let again = fx.ok("detect_contradictions", json!({}));
    assert_eq!(again["chunks_done"], 0, "{again}");
    assert_eq!(again["pairs_judged"], 0);
    assert_eq!(judge.calls.load(Ordering::SeqCst), 1);

    // Plan is edited: the pair no longer holds and is not listed, even before a run.
    fx.write(
        "main",
        "Plan.md",
        "# Plan\nThe launch meeting is on Wednesday. vec[1,0.5,0]\n",
    );
    fx.ok("index_vault", json!({}));
    assert!(listed(&fx, &["Meeting.md", "Plan.md"]).is_empty());
    // The next run retires it and judges the new text: no conflict, nothing stored.
    let edited = fx.ok("detect_contradictions", json!({}));
    assert_eq!(edited["stale"], 1, "{edited}");
    assert_eq!(edited["chunks_done"], 1);
    assert_eq!(edited["pairs_judged"], 1);
    assert_eq!(edited["contradictions"], 0);
    assert!(listed(&fx, &["Meeting.md", "Plan.md"]).is_empty());

    // The old text back: judged again, the same pair open again.
    fx.write("main", "Plan.md", PLAN);
    fx.ok("index_vault", json!({}));
    let back = fx.ok("detect_contradictions", json!({}));
    assert_eq!(back["contradictions"], 1, "{back}");
    let list = fx.ok("list_contradictions", json!({"paths": ["Meeting.md"]}));
    assert_eq!(list["contradictions"][0]["id"], id);

    // A deleted side: not listed.
    std::fs::remove_file(fx.vault_dir("main").join("Plan.md")).expect("delete");
    fx.ok("index_vault", json!({}));
    assert!(listed(&fx, &["Meeting.md"]).is_empty());
}

#[test]
fn a_pair_with_an_unreadable_side_is_invisible() {
    let api = MockApi::start(3);
    let acl = json!({"readPaths": ["Public/**"]});
    let fx = fixture(&api, Some(acl));
    fx.write("main", "Public/Meeting.md", MEETING);
    fx.write("main", "Secret/Plan.md", PLAN);
    fx.write(
        "main",
        "Public/Plan.md",
        PLAN.replace("Tuesday", "Thursday").as_str(),
    );
    // The detector reads every note: refused under the folder ACL, whatever the scopes.
    let admin = caller("admin", &["admin:vault", "read:notes"], None);
    let refused = fx.err_as(
        &admin,
        "detect_contradictions",
        json!({}),
        ErrorCode::AclDenied,
    );
    assert!(refused.message.contains("read restriction"), "{refused}");
    judged(&fx, Arc::new(DayJudge::default()));
    fx.ok("index_vault", json!({}));
    let reader = caller("reader", &["read:notes"], None);
    let before = fx.call(
        &reader,
        "list_contradictions",
        json!({"paths": ["Public/Meeting.md"]}),
    );
    assert!(pairs(&before.result.expect("list")).is_empty());
    // The maintenance task's run reads everything (its own caller, every scope).
    detect_contradictions(&fx.server);
    let stored = fx
        .server
        .runtime()
        .store()
        .contradictions()
        .open("main", None)
        .expect("rows");
    assert_eq!(stored.len(), 1, "{stored:?}");
    let mut sides = [
        stored[0].source.path.clone(),
        stored[0].conflict.path.clone(),
    ];
    sides.sort();
    assert_eq!(sides, ["Public/Meeting.md", "Secret/Plan.md"]);
    // The reader may read one side only: nothing listed; the hidden side named is refused.
    let list = fx.call(
        &reader,
        "list_contradictions",
        json!({"paths": ["Public/Meeting.md"]}),
    );
    assert!(pairs(&list.result.expect("list")).is_empty());
    fx.err_as(
        &reader,
        "list_contradictions",
        json!({"paths": ["Secret/Plan.md"]}),
        ErrorCode::AclDenied,
    );
    fx.err_as(
        &reader,
        "list_contradictions",
        json!({"paths": ["Secret/Nothing.md"]}),
        ErrorCode::AclDenied,
    );
}

#[test]
fn the_budget_stops_a_run_and_the_next_goes_on() {
    let api = MockApi::start(3);
    let fx = fixture(&api, None);
    // Six notes each a neighbour of every other (cosines 0.89-0.98).
    for i in 0..6 {
        let y = 0.2 + 0.1 * f64::from(i);
        fx.write(
            "main",
            &format!("n{i}.md"),
            &format!("Note {i} on Monday. vec[1,{y},0]\n"),
        );
    }
    fx.ok("index_vault", json!({}));
    judged(&fx, Arc::new(DayJudge::default()));
    let first = fx.ok("detect_contradictions", json!({"max_pairs": 5}));
    assert_eq!(first["chunks_done"], 1, "{first}");
    assert_eq!(first["chunks_left"], 5);
    let rest = fx.ok("detect_contradictions", json!({"max_pairs": 1000}));
    assert_eq!(rest["chunks_done"], 5, "{rest}");
    assert_eq!(rest["chunks_left"], 0);
    // Bad input is refused with nothing run.
    fx.err(
        "detect_contradictions",
        json!({"max_pairs": 1}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "list_contradictions",
        json!({"paths": []}),
        ErrorCode::ValidationError,
    );
}

/// The fixture of [`fixture`] with `inference` pointing at the chat endpoint `url`.
fn with_endpoint(api: &MockApi, url: &str, exclude: &[&str]) -> Fixture {
    Fixture::new(json!({
        "throttle": {"enabled": false},
        "embeddings": api.provider_config(),
        "inference": {"endpoint": url, "model": "llama-test", "excludePaths": exclude},
    }))
}

#[test]
fn the_configured_endpoint_judges_each_pair_as_an_audited_model_call() {
    let answer = "{\"verdict\": \"contradiction\", \"rationale\": \"two different days\"}";
    let (url, seen) = serve(ok(answer));
    let api = MockApi::start(3);
    let fx = with_endpoint(&api, &url, &[]);
    fx.write("main", "Meeting.md", MEETING);
    fx.write("main", "Plan.md", PLAN);
    fx.write("main", "Garden.md", GARDEN);
    fx.ok("index_vault", json!({}));
    assert!(fx.server.runtime().judges_contradictions());
    let run = fx.ok("detect_contradictions", json!({}));
    assert_eq!(run["available"], true, "{run}");
    assert_eq!(run["model"], "llama-test");
    assert_eq!(run["pairs_judged"], 1, "{run}");
    assert_eq!(run["contradictions"], 1);
    // The endpoint got the pair: the judge's instructions and both passages.
    let (path, _, body) = seen.try_recv().expect("one request");
    assert_eq!(path, "/v1/chat/completions");
    let prompt = body["messages"].to_string();
    assert!(prompt.contains("contradiction"), "{prompt}");
    assert!(
        prompt.contains("Monday") && prompt.contains("Tuesday"),
        "{prompt}"
    );
    assert!(seen.try_recv().is_err(), "one pair, one request");
    let list = fx.ok("list_contradictions", json!({"paths": ["Meeting.md"]}));
    assert_eq!(list["contradictions"][0]["judge_model"], "llama-test");
    assert_eq!(
        list["contradictions"][0]["judge_rationale"],
        "two different days"
    );
    // The model call is an audit row of the caller who ran the detector.
    let rows = fx
        .server
        .runtime()
        .store()
        .events()
        .query(
            &EventFilter {
                tool: Some("model.judge".to_owned()),
                ..EventFilter::default()
            },
            10,
        )
        .expect("rows");
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].event.details["provider"], "endpoint");
    assert_eq!(rows[0].event.details["for_tool"], "detect_contradictions");
    assert_eq!(rows[0].event.caller, Caller::stdio().id);
}

#[test]
fn a_pair_with_a_side_under_exclude_paths_is_never_sent() {
    let answer = "{\"verdict\": \"contradiction\", \"rationale\": \"two different days\"}";
    let (url, seen) = serve(ok(answer));
    let api = MockApi::start(3);
    let fx = with_endpoint(&api, &url, &["Plan.md"]);
    fx.write("main", "Meeting.md", MEETING);
    fx.write("main", "Plan.md", PLAN);
    fx.ok("index_vault", json!({}));
    let run = fx.ok("detect_contradictions", json!({}));
    assert_eq!(run["available"], true, "{run}");
    assert_eq!(run["contradictions"], 0, "{run}");
    assert!(seen.try_recv().is_err(), "nothing was sent");
    assert!(listed(&fx, &["Meeting.md", "Plan.md"]).is_empty());
}

#[test]
fn knowledge_challenge_counts_the_open_contradictions_of_its_evidence() {
    let api = MockApi::start(3);
    let fx = fixture(&api, None);
    fx.write("main", "Decisions/Meeting.md", MEETING);
    fx.write("main", "Decisions/Plan.md", PLAN);
    fx.ok("index_vault", json!({}));
    let proposal = json!({"proposal": "Hold the launch meeting early in the week"});
    let before = fx.ok("knowledge_challenge", proposal.clone());
    assert_eq!(before["evidence_count"], 2, "{before}");
    assert_eq!(before["contradiction_count"], 0, "{before}");
    judged(&fx, Arc::new(DayJudge::default()));
    fx.ok("detect_contradictions", json!({}));
    let after = fx.ok("knowledge_challenge", proposal);
    assert_eq!(after["contradiction_count"], 1, "{after}");
    assert_eq!(
        after["available"], false,
        "no chat model: the judge is not asked"
    );
}

#[test]
fn a_chunk_withheld_for_a_credential_is_passed_over_not_waited_for() {
    let api = MockApi::start(3);
    let fx = fixture(&api, None);
    // Written first: its chunk comes first in the detector's walk, and the remote provider
    // never gets it (the credential scan withholds it), so it never has a vector.
    let key = format!(
        "-----BEGIN {0}-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END {0}-----",
        "PRIVATE KEY"
    );
    fx.write("main", "Keys.md", &format!("# Keys\n\n{key}\n"));
    fx.ok("index_vault", json!({}));
    fx.write("main", "Meeting.md", MEETING);
    fx.write("main", "Plan.md", PLAN);
    fx.ok("index_vault", json!({}));
    judged(&fx, Arc::new(DayJudge::default()));
    let run = fx.ok("detect_contradictions", json!({}));
    assert_eq!(run["waiting_for_vectors"], false, "{run}");
    assert_eq!(run["chunks_left"], 0, "{run}");
    assert_eq!(run["contradictions"], 1, "{run}");
}

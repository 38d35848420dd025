//! The judge seam with a deterministic judge: an ambiguous verdict on soft evidence only
//! becomes `exists` with exactly one `same_topic`, `new` when every candidate is
//! `different`, and stays `ambiguous` otherwise or on a failure; identity evidence is never
//! judged.

use obsidian_tc::tools::wiki::identity::{Candidate, Evidence, EvidenceKind, Strength, Verdict};
use obsidian_tc::tools::wiki::judge::{JudgeReport, SameTopic, WikiJudge, settle};

/// Says `same_topic` for an opening containing `same`, `different` otherwise; fails on
/// `boom`.
struct Keyword(&'static str);

impl WikiJudge for Keyword {
    fn model(&self) -> String {
        "keyword-judge".to_owned()
    }

    fn same_topic(&self, _topic: &str, opening: &str) -> Result<SameTopic, String> {
        if opening.contains("boom") {
            return Err("the model timed out".to_owned());
        }
        Ok(if opening.contains(self.0) {
            SameTopic::SameTopic
        } else {
            SameTopic::Different
        })
    }
}

fn soft(path: &str) -> Candidate {
    Candidate {
        path: path.to_owned(),
        strength: Strength::Soft,
        evidence: vec![Evidence::of(EvidenceKind::LinkText, "x")],
        excluded: false,
    }
}

fn opening(path: &str) -> Option<String> {
    Some(format!("opening of {path}"))
}

/// `settle` on an ambiguous verdict with the judge that says `same_topic` for `keyword`.
fn judged(keyword: &'static str, candidates: &mut [Candidate]) -> (Verdict, JudgeReport) {
    settle(
        &Keyword(keyword),
        "t",
        Verdict::Ambiguous,
        candidates,
        &opening,
    )
}

#[test]
fn one_same_topic_settles_exists() {
    let mut candidates = vec![soft("a.md"), soft("b.md")];
    let (verdict, report) = judged("b.md", &mut candidates);
    assert_eq!(verdict, Verdict::Exists);
    assert!(report.used);
    assert_eq!(report.calls, 2);
    assert_eq!(
        candidates[1].evidence.last().expect("e").kind,
        EvidenceKind::JudgedBy
    );
}

#[test]
fn all_different_settles_new_and_two_same_stay_ambiguous() {
    let mut candidates = vec![soft("a.md"), soft("b.md")];
    let (verdict, _) = judged("zzz", &mut candidates);
    assert_eq!(verdict, Verdict::New);
    let (verdict, report) = judged("opening", &mut candidates);
    assert_eq!(verdict, Verdict::Ambiguous);
    assert!(report.reason.is_some());
}

#[test]
fn a_failure_or_identity_evidence_leaves_the_verdict() {
    let mut candidates = vec![soft("boom.md"), soft("b.md")];
    let (verdict, report) = judged("b.md", &mut candidates);
    assert_eq!(verdict, Verdict::Ambiguous);
    assert!(report.reason.expect("reason").contains("timed out"));
    let mut strong = vec![soft("a.md"), soft("b.md")];
    strong[0].strength = Strength::Strong;
    let (verdict, report) = judged("b.md", &mut strong);
    assert_eq!(verdict, Verdict::Ambiguous);
    assert!(!report.used);
}

/// The wiki of [`super::wiki`] with the chat endpoint `url` configured as the model.
fn wiki_with_endpoint(url: &str) -> crate::support::dispatch::Fixture {
    super::wiki(serde_json::json!({"inference": {"endpoint": url, "model": "llama-test"}}))
}

#[test]
fn the_configured_endpoint_settles_a_soft_ambiguity_through_find_existing_page() {
    use crate::support::chat::{ok, serve};
    use serde_json::json;
    // Only link text another note uses: ambiguous on soft evidence, so the judge is asked.
    let topic = json!({"topic": "event horizon monster"});
    let (url, seen) = serve(ok("same_topic"));
    let fx = wiki_with_endpoint(&url);
    let found = fx.ok("find_existing_page", topic.clone());
    assert_eq!(found["verdict"], "exists", "{found}");
    assert_eq!(found["judged_by"], "llama-test", "{found}");
    assert_eq!(found["judge"]["used"], true);
    let (_, _, body) = seen.try_recv().expect("the judge was asked");
    assert!(
        body["messages"]
            .to_string()
            .contains("event horizon monster")
    );

    let (url, _) = serve(ok("different"));
    let fx = wiki_with_endpoint(&url);
    let found = fx.ok("find_existing_page", topic.clone());
    assert_eq!(found["verdict"], "new", "{found}");

    // Not asked when the caller says so: the evidence's verdict stands.
    let mut unasked = topic;
    unasked["judge"] = json!(false);
    let found = fx.ok("find_existing_page", unasked);
    assert_eq!(found["verdict"], "ambiguous", "{found}");
    assert_eq!(found["judge"]["used"], false);
}

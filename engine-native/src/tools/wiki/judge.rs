//! The optional model judge: whether two texts are about the same topic. It settles a
//! `find_existing_page` verdict that is `ambiguous` on soft evidence only (never one resting
//! on identity evidence), and it can confirm `lint_wiki`'s near-duplicate pairs.
//!
//! [`WikiJudge`] is the seam: `model_judge` gives the configured chat endpoint
//! (`inference.endpoint`, through [`crate::inference::Gateway`]: bounds, audit row, span,
//! credential scan; a page under `inference.excludePaths` is never sent), or says why there
//! is none and every verdict stays as the evidence gives it (`judge: {used: false, reason}`).
//! Client sampling is not used here: the judge is optional, and a 2026-07-28 client's
//! sampling round would turn a lookup into a round trip. Tests pass a deterministic judge to
//! [`settle`].

use schemars::JsonSchema;
use serde::Serialize;

use crate::inference::{ChatMessage, Gateway, ModelRequest, Role};
use crate::runtime::ToolContext;
use crate::tools::common::model::endpoint_gateway;

use super::identity::{Candidate, Evidence, EvidenceKind, Strength, Verdict};

/// How many candidates the judge reads for one topic.
pub const MAX_JUDGED: usize = 3;

/// The opening text of a page sent to the judge, in bytes at most.
pub const OPENING_BYTES: usize = 1200;

/// What the judge said of two texts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SameTopic {
    /// Both texts are about the same topic.
    SameTopic,
    /// They are about different topics.
    Different,
    /// The judge could not tell.
    Unsure,
}

/// A model that judges whether two texts are about the same topic.
pub trait WikiJudge {
    /// The model's name, reported as `judged_by`.
    fn model(&self) -> String;
    /// Whether `topic` (a topic or a page's opening) and `opening` (a page's opening text)
    /// are about the same topic; `Err` with why when the model could not answer.
    fn same_topic(&self, topic: &str, opening: &str) -> Result<SameTopic, String>;
}

/// The judge of this call (the configured chat endpoint), or why there is none.
pub(super) fn model_judge<'a>(ctx: &'a ToolContext<'_>) -> Result<Box<dyn WikiJudge + 'a>, String> {
    let gateway = endpoint_gateway(ctx);
    match gateway.provider() {
        Some(_) => Ok(Box::new(EndpointJudge { gateway })),
        None => Err(
            "no language model is configured for the wiki judge (set inference.endpoint and inference.model)"
                .to_owned(),
        ),
    }
}

/// The instructions the judge gets.
const SAME_TOPIC_INSTRUCTIONS: &str = "You decide whether a wiki page is about a given topic. \
Answer with exactly one word: same_topic (the page is about that topic), different (it is \
about something else) or unsure.";

/// [`WikiJudge`] over the configured chat endpoint.
struct EndpointJudge<'a> {
    gateway: Gateway<'a>,
}

impl WikiJudge for EndpointJudge<'_> {
    fn model(&self) -> String {
        self.gateway.model_name().unwrap_or_default()
    }

    fn same_topic(&self, topic: &str, opening: &str) -> Result<SameTopic, String> {
        let request = ModelRequest {
            role: Role::Judge,
            system: Some(SAME_TOPIC_INSTRUCTIONS.to_owned()),
            messages: vec![ChatMessage::user(format!(
                "Topic:\n{topic}\n\nThe page's opening:\n{opening}"
            ))],
            max_tokens: 20,
            temperature: Some(0.0),
        };
        let answer = self
            .gateway
            .complete(&request)
            .map_err(|error| error.to_string())?;
        let said = answer.text.trim().to_ascii_lowercase();
        Ok(if said.contains("same_topic") {
            SameTopic::SameTopic
        } else if said.contains("different") {
            SameTopic::Different
        } else {
            SameTopic::Unsure
        })
    }
}

/// What the judge did for one call.
#[derive(Debug, Clone, Default, Serialize, JsonSchema)]
pub struct JudgeReport {
    /// Whether the judge was asked.
    pub used: bool,
    /// Why it was not asked, or why its answer was not used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// The model asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// How many judgements it made.
    pub calls: usize,
}

impl JudgeReport {
    /// The judge was not asked, because of `reason`.
    pub fn unused(reason: impl Into<String>) -> JudgeReport {
        JudgeReport {
            reason: Some(reason.into()),
            ..JudgeReport::default()
        }
    }
}

/// Settles `verdict` with `judge` when it is `ambiguous` on soft evidence only: the topic and
/// the opening text (`opening(path)`, `None` when it cannot be read) of at most
/// [`MAX_JUDGED`] candidates are judged; exactly one `same_topic` makes it `exists` (that
/// candidate gets `judged_by` evidence), all `different` make it `new`, anything else (or
/// any failure) leaves it `ambiguous`.
pub fn settle(
    judge: &dyn WikiJudge,
    topic: &str,
    verdict: Verdict,
    candidates: &mut [Candidate],
    opening: &dyn Fn(&str) -> Option<String>,
) -> (Verdict, JudgeReport) {
    if verdict != Verdict::Ambiguous
        || candidates
            .iter()
            .any(|candidate| candidate.strength == Strength::Strong)
    {
        return (
            verdict,
            JudgeReport::unused(
                "the verdict rests on identity evidence, which the judge never overrides",
            ),
        );
    }
    let mut report = JudgeReport {
        used: true,
        model: Some(judge.model()),
        ..JudgeReport::default()
    };
    let mut same = Vec::new();
    let mut different = 0;
    let judged = candidates.len().min(MAX_JUDGED);
    for (at, candidate) in candidates.iter().take(MAX_JUDGED).enumerate() {
        let Some(text) = opening(&candidate.path) else {
            report.reason = Some(format!("{} could not be read", candidate.path));
            return (verdict, report);
        };
        report.calls += 1;
        match judge.same_topic(topic, &text) {
            Ok(SameTopic::SameTopic) => same.push(at),
            Ok(SameTopic::Different) => different += 1,
            Ok(SameTopic::Unsure) => {}
            Err(error) => {
                report.reason = Some(format!("the judge failed: {error}"));
                return (verdict, report);
            }
        }
    }
    let settled = match (same.as_slice(), different) {
        ([one], _) => {
            candidates[*one]
                .evidence
                .push(Evidence::of(EvidenceKind::JudgedBy, &judge.model()));
            Verdict::Exists
        }
        ([], all) if all == judged && judged == candidates.len() => Verdict::New,
        _ => {
            report.reason = Some("the judge did not single out one page".to_owned());
            verdict
        }
    };
    (settled, report)
}

/// The opening of a page's body, cut at a character boundary.
pub(super) fn opening(body: &str) -> String {
    let mut end = body.len().min(OPENING_BYTES);
    while !body.is_char_boundary(end) {
        end -= 1;
    }
    body[..end].to_owned()
}

//! The challenge judge (`knowledge_challenge`, `reflect` in mode `challenge`): a proposal
//! weighed against numbered evidence by the model in role `judge`, which must answer one
//! strict JSON object ([`ChallengeOutput`]); anything else is a typed `model_error`
//! (`bad_answer`), never a crash.

use std::collections::HashSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::evidence::numbered;
use crate::inference::egress::Chunk;
use crate::inference::{ChatMessage, InferenceError, ModelRequest, Role};

/// The judge's verdict on the proposal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum Verdict {
    /// Nothing in the evidence stands against it.
    Proceed,
    /// The evidence raises points to weigh first.
    Reconsider,
    /// The evidence stands against it.
    DoNotProceed,
}

/// What kind of problem a category of findings is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub(super) enum Kind {
    /// An earlier decision says the opposite.
    DirectContradiction,
    /// The same thing was tried before, with a known outcome.
    PatternRepeat,
    /// It undoes an earlier decision.
    Reversal,
    /// Something else depends on what it changes.
    HiddenDependency,
}

/// How much a finding matters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum Severity {
    /// Decisive.
    High,
    /// Worth weighing.
    Medium,
    /// Minor.
    Low,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Finding {
    /// The notes (paths of the evidence shown to the judge) it rests on.
    pub evidence_paths: Vec<String>,
    /// Why it matters for the proposal.
    pub why_it_matters: String,
    /// How much.
    pub severity: Severity,
}

/// The findings of one kind.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Category {
    /// Their kind.
    pub kind: Kind,
    /// The findings.
    pub items: Vec<Finding>,
}

/// The judge's answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ChallengeOutput {
    /// The verdict.
    pub verdict: Verdict,
    /// One or two sentences.
    pub summary: String,
    /// The findings by kind (empty when nothing stands against the proposal).
    pub categories: Vec<Category>,
}

/// The most tokens of the judge's answer.
const JUDGE_TOKENS: u32 = 1024;

const SYSTEM: &str = "You review a proposal against the user's own notes of earlier \
decisions, outcomes and lessons. Use only the numbered evidence. Answer with one JSON object \
and nothing else, exactly of this shape: {\"verdict\": \"proceed\" | \"reconsider\" | \
\"do_not_proceed\", \"summary\": string, \"categories\": [{\"kind\": \"DIRECT_CONTRADICTION\" | \
\"PATTERN_REPEAT\" | \"REVERSAL\" | \"HIDDEN_DEPENDENCY\", \"items\": [{\"evidence_paths\": \
[path of the evidence], \"why_it_matters\": string, \"severity\": \"high\" | \"medium\" | \
\"low\"}]}]}. Use an empty categories list when nothing stands against the proposal.";

/// The judge's request for `proposal` over `evidence`.
pub(super) fn request(proposal: &str, evidence: &[Chunk]) -> ModelRequest {
    ModelRequest {
        role: Role::Judge,
        system: Some(SYSTEM.to_owned()),
        messages: vec![ChatMessage::user(format!(
            "Proposal:\n{proposal}\n\nEvidence:\n{}",
            numbered(evidence)
        ))],
        max_tokens: JUDGE_TOKENS,
        temperature: Some(0.0),
    }
}

/// Reads the judge's `answer` strictly: one JSON object of [`ChallengeOutput`]'s shape (a
/// surrounding Markdown code fence is allowed), every evidence path one of `evidence`'s.
pub(super) fn parse(answer: &str, evidence: &[Chunk]) -> Result<ChallengeOutput, InferenceError> {
    let text = unfenced(answer.trim());
    let output: ChallengeOutput = serde_json::from_str(text).map_err(|error| {
        InferenceError::BadAnswer(format!(
            "the judge's answer is not the JSON asked for: {error}"
        ))
    })?;
    let shown: HashSet<&str> = evidence.iter().map(|chunk| chunk.path.as_str()).collect();
    let unknown = output
        .categories
        .iter()
        .flat_map(|category| &category.items)
        .flat_map(|item| &item.evidence_paths)
        .find(|path| !shown.contains(path.as_str()));
    if let Some(path) = unknown {
        return Err(InferenceError::BadAnswer(format!(
            "the judge cites {path:?}, which is not among the evidence it was shown"
        )));
    }
    Ok(output)
}

/// `text` without a surrounding ```` ``` ```` or ```` ```json ```` fence.
fn unfenced(text: &str) -> &str {
    text.strip_prefix("```")
        .and_then(|rest| rest.strip_suffix("```"))
        .map_or(text, |inner| {
            inner.strip_prefix("json").unwrap_or(inner).trim()
        })
}

//! `knowledge_challenge`: a proposal weighed against the vault's decision-bearing notes by
//! the language model in role `judge`. Decision-bearing: a note under one of
//! `knowledge.decisionFolders` or tagged with one of `knowledge.decisionTags`. The evidence
//! is the proposal's graph-search ranking among those notes (chunks of at most 1800
//! characters) through the egress guard. No model: `available: false` with the evidence
//! count; no decision-bearing evidence: `available: true`, `evidence_count: 0`, no output.

use std::collections::HashMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::evidence::{Recall, recall};
use super::judge::{self, ChallengeOutput};
use crate::errors::ToolError;
use crate::inference::Usage;
use crate::inference::egress::Withheld;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::contradictions::visible_open;
use crate::tools::common::index::index_fault;
use crate::tools::common::model::gateway;
use crate::tools::common::structured::{output_schema, structured};

/// How many chunks of evidence at most.
const EVIDENCE_K: usize = 30;
/// The most characters of one evidence chunk.
const EVIDENCE_CHARS: usize = 1800;

/// The arguments of `knowledge_challenge`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ChallengeArgs {
    /// What is proposed (a plan, a decision about to be made).
    #[schemars(length(min = 10, max = 4000))]
    proposal: String,
}

/// What `knowledge_challenge` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Challenge {
    /// Whether a language model was there.
    available: bool,
    /// How to enable a model, when none is there.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// How many chunks of decision-bearing notes the judge was (or would have been) shown.
    evidence_count: usize,
    /// The notes of that evidence, best first, no repeats.
    evidence_paths: Vec<String>,
    /// Open contradictions touching those notes whose both sides the caller may read
    /// (`list_contradictions` shows them).
    contradiction_count: usize,
    /// The judge's verdict; null without a model or without evidence.
    output: Option<ChallengeOutput>,
    /// The model that judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<String>,
    /// How many chunks were kept from the model, by reason (counts only).
    withheld: Withheld,
    /// The model calls and tokens this call spent.
    usage: Usage,
}

/// The `knowledge_challenge` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "knowledge_challenge",
            "Challenge a proposal",
            "Weigh a proposal against the vault's decision records (notes under the \
             configured decision folders or with decision tags: decisions, outcomes, \
             postmortems, lessons) with a language model as judge: proceed, reconsider or \
             do_not_proceed, with the contradictions, repeated patterns, reversals and hidden \
             dependencies it found and the notes they rest on. Without a model: available \
             false.",
        ),
        "knowledge",
        (
            input_schema::<ChallengeArgs>(),
            output_schema::<Challenge>(),
        ),
        knowledge_challenge,
    )
    .keywords(&[
        "devil's advocate",
        "weigh this proposal",
        "past decisions",
        "second opinion",
        "postmortem",
        "lessons learned",
    ])
    .scopes(&["read:notes"])
}

fn knowledge_challenge(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ChallengeArgs = parse(args)?;
    let decisions = DecisionBearing::of(ctx)?;
    let guarded = recall(
        ctx,
        &Recall {
            query: &args.proposal,
            k: EVIDENCE_K,
            max_chars: EVIDENCE_CHARS,
        },
        &|path| decisions.admits(path),
    )?;
    let evidence = guarded.sendable;
    let mut paths: Vec<String> = Vec::new();
    for chunk in &evidence {
        if !paths.contains(&chunk.path) {
            paths.push(chunk.path.clone());
        }
    }
    let contradiction_count = visible_open(ctx, &paths)?.len();
    let mut challenge = Challenge {
        available: false,
        message: None,
        evidence_count: evidence.len(),
        evidence_paths: paths,
        contradiction_count,
        output: None,
        model: None,
        withheld: guarded.withheld,
        usage: Usage::default(),
    };
    let model = gateway(ctx);
    if model.provider().is_none() {
        challenge.message = Some(model.unavailable_message().to_owned());
        return structured(&challenge);
    }
    challenge.available = true;
    if evidence.is_empty() {
        return structured(&challenge);
    }
    let answered = model.complete(&judge::request(&args.proposal, &evidence));
    challenge.usage = model.usage();
    let answer = answered.map_err(|error| error.to_tool_error())?;
    let output = judge::parse(&answer.text, &evidence).map_err(|error| error.to_tool_error())?;
    challenge.model = Some(answer.model);
    challenge.output = Some(output);
    structured(&challenge)
}

/// Which notes record decisions: the configured folders and tags.
struct DecisionBearing {
    folders: Vec<String>,
    tags: Vec<String>,
    tags_of: HashMap<String, Vec<String>>,
}

impl DecisionBearing {
    /// The configured folders and tags, with the bound vault's note tags.
    fn of(ctx: &ToolContext<'_>) -> Result<DecisionBearing, ToolError> {
        let knowledge = &ctx.served().config().config.knowledge;
        let tags_of = ctx
            .store()
            .note_facts()
            .all(ctx.vault_id())
            .map_err(index_fault)?
            .into_iter()
            .map(|facts| (facts.path, facts.tags))
            .collect();
        Ok(DecisionBearing {
            folders: knowledge
                .decision_folders
                .iter()
                .map(|folder| format!("{}/", folder.trim_matches('/')))
                .collect(),
            tags: knowledge
                .decision_tags
                .iter()
                .map(|tag| normal_tag(tag))
                .collect(),
            tags_of,
        })
    }

    /// Whether the note at `path` is under a decision folder or has a decision tag (or a
    /// tag nested below one: `decision/accepted`).
    fn admits(&self, path: &str) -> bool {
        self.folders
            .iter()
            .any(|folder| path.starts_with(folder.as_str()))
            || self.tags_of.get(path).is_some_and(|tags| {
                tags.iter().map(|tag| normal_tag(tag)).any(|tag| {
                    self.tags.iter().any(|wanted| {
                        tag == *wanted
                            || tag
                                .strip_prefix(wanted.as_str())
                                .is_some_and(|rest| rest.starts_with('/'))
                    })
                })
            })
    }
}

/// A tag without `#`, lower case.
fn normal_tag(tag: &str) -> String {
    tag.trim_start_matches('#').to_lowercase()
}

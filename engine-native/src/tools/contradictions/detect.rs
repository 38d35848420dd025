//! `detect_contradictions`: one bounded run of the contradiction detector over the vault
//! ([`crate::runtime::Runtime::detect_contradictions`]): the chunks not looked at yet, each against its
//! nearest neighbours, judged by the configured model. It needs a caller who may read every
//! note (it reads them all and reports counts over them), the vault's vectors, and a model;
//! without the vectors or the model it answers `available: false` and judges nothing.

use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::index::contradictions::{Budget, NEIGHBOURS};
use crate::index::semantic::SemanticError;
use crate::runtime::passes::Detection;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::whole_vault::require_whole_vault;

/// The tool's name.
const DETECT_CONTRADICTIONS: &str = "detect_contradictions";

/// The arguments of `detect_contradictions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DetectContradictions {
    /// The most pairs of passages put to the model in this run (5-1000, default 50).
    #[serde(default = "fifty")]
    #[schemars(range(min = 5, max = 1000))]
    max_pairs: usize,
    /// When to stop, in milliseconds (100-600000, default 20000); the passage being judged
    /// is finished first.
    #[serde(default = "twenty_seconds")]
    #[schemars(range(min = 100, max = 600_000))]
    budget_ms: u64,
}

fn fifty() -> usize {
    50
}

fn twenty_seconds() -> u64 {
    20_000
}

/// What `detect_contradictions` returns.
#[derive(Debug, Default, Serialize, JsonSchema)]
struct Detected {
    /// Whether the detector could run (a model and the vault's vectors are there).
    available: bool,
    /// Why it could not, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// The model that judged.
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<String>,
    /// Passages whose neighbours were judged in this run.
    chunks_done: u64,
    /// Passages still to look at (the next run goes on from here).
    chunks_left: u64,
    /// Pairs put to the model.
    pairs_judged: u64,
    /// Calls to the model that failed (counted as no conflict, nothing stored).
    judge_failures: u64,
    /// Pairs stored as contradictions.
    contradictions: u64,
    /// Pairs stored as tensions.
    tensions: u64,
    /// Open pairs retired because a side's text changed since it was judged.
    stale: u64,
    /// Stopped at a passage whose vector is still to be made (run `index_vault`, or wait
    /// for the background embedder).
    waiting_for_vectors: bool,
}

/// The `detect_contradictions` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            DETECT_CONTRADICTIONS,
            "Detect contradictions",
            "Run the contradiction detector over the vault now, within a budget: statements \
             not looked at yet are compared with their nearest neighbours by meaning and a \
             language model judges each pair (contradiction, tension or no conflict); what \
             it finds is listed by list_contradictions. Needs a configured model and \
             embeddings, else answers available: false.",
        ),
        "knowledge",
        (
            input_schema::<DetectContradictions>(),
            output_schema::<Detected>(),
        ),
        detect_contradictions,
    )
    .keywords(&[
        "find contradictions",
        "check consistency",
        "inconsistencies",
        "conflicting statements",
        "consistency check",
    ])
    .scopes(&["admin:vault"])
}

fn detect_contradictions(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: DetectContradictions = parse(args)?;
    require_whole_vault(ctx, DETECT_CONTRADICTIONS)?;
    let budget = Budget {
        max_pairs: args.max_pairs.max(NEIGHBOURS),
        deadline: Instant::now() + Duration::from_millis(args.budget_ms),
    };
    let detection = ctx
        .runtime()
        .detect_contradictions(
            ctx.vault_id(),
            &ctx.caller().id,
            budget,
            &mut |done, total| ctx.report_progress(done, Some(total), "judging passages"),
        )
        .map_err(SemanticError::into_tool_error)?;
    let (model, report) = match detection {
        Detection::NoJudge => {
            return unavailable("no language model is configured to judge contradictions");
        }
        Detection::NoVectors => {
            return unavailable(
                "semantic search is off: the detector pairs passages by their embedding vectors",
            );
        }
        Detection::Ran { model, report } => (model, report),
    };
    structured(&Detected {
        available: true,
        message: None,
        model: Some(model),
        chunks_done: report.chunks_done,
        chunks_left: report.chunks_left,
        pairs_judged: report.pairs_judged,
        judge_failures: report.judge_failures,
        contradictions: report.contradictions,
        tensions: report.tensions,
        stale: report.stale,
        waiting_for_vectors: report.waiting_for_vectors,
    })
}

fn unavailable(message: &str) -> Result<Value, ToolError> {
    structured(&Detected {
        message: Some(message.to_owned()),
        ..Detected::default()
    })
}

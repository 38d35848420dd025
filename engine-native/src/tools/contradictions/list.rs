//! `list_contradictions`: the open contradictions and tensions touching the notes named.
//! Every path named is checked against the caller's read ACL; a pair is listed only when the
//! caller may read both its sides and both still hold the text that was judged (an edited
//! note's old pairs are not shown as if still true).

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::contradictions::visible_open;
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `list_contradictions`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListContradictions {
    /// The notes (vault paths) whose contradictions to list: a pair is listed when either
    /// side is one of them.
    #[schemars(length(min = 1, max = 200))]
    paths: Vec<String>,
}

/// One open pair.
#[derive(Debug, Serialize, JsonSchema)]
struct Listed {
    /// The pair's id (a hash of the vault and both passages' texts).
    id: String,
    /// The note of the passage whose neighbours were judged.
    source_path: String,
    /// The note of the neighbour judged against it.
    conflict_path: String,
    /// `contradiction` (both cannot be true) or `tension`.
    judge_verdict: String,
    /// The judge's one-line reason.
    judge_rationale: String,
    /// The model that judged.
    judge_model: String,
    /// Cosine similarity of the two passages.
    cosine_similarity: f64,
    /// When it was judged, Unix seconds.
    detected_at: i64,
}

/// What `list_contradictions` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Listing {
    /// Always true: the table exists (empty until a model has judged pairs).
    available: bool,
    /// How many pairs are listed.
    total: usize,
    /// The pairs, oldest first.
    contradictions: Vec<Listed>,
}

/// The `list_contradictions` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "list_contradictions",
            "List contradictions",
            "List the contradictions and tensions a language model found between \
             statements of the notes named (either side): each pair's notes, verdict and \
             reason. Only pairs whose both notes you may read and whose texts are unchanged \
             since they were judged; empty when nothing was judged.",
        ),
        "knowledge",
        (
            input_schema::<ListContradictions>(),
            output_schema::<Listing>(),
        ),
        list_contradictions,
    )
    .keywords(&[
        "contradictions",
        "conflicting notes",
        "inconsistent",
        "disagree",
        "tension between notes",
        "notes that contradict",
    ])
    .scopes(&["read:notes"])
}

fn list_contradictions(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListContradictions = parse(args)?;
    for path in &args.paths {
        ctx.check_path(path, AclOp::Read)?;
    }
    let rows = visible_open(ctx, &args.paths)?;
    let contradictions: Vec<Listed> = rows
        .into_iter()
        .map(|row| Listed {
            id: row.id,
            source_path: row.source.path,
            conflict_path: row.conflict.path,
            judge_verdict: row.verdict,
            judge_rationale: row.rationale,
            judge_model: row.judge_model,
            cosine_similarity: row.cosine,
            detected_at: row.detected_at,
        })
        .collect();
    structured(&Listing {
        available: true,
        total: contradictions.len(),
        contradictions,
    })
}

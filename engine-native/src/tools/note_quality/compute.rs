//! `compute_note_quality`: the `note-quality` pass over the vault now, within a time budget
//! ([`crate::runtime::Runtime::measure_notes`]). It needs a caller who may read every note: it
//! measures them all and reports counts over them.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::complete_link_table;
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::whole_vault::require_whole_vault;

/// The tool's name.
const COMPUTE_NOTE_QUALITY: &str = "compute_note_quality";

/// The arguments of `compute_note_quality`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ComputeNoteQuality {
    /// When to stop, in milliseconds (100-600000, default 30000); the notes measured by
    /// then are written, and the next pass starts with the others.
    #[serde(default = "thirty_seconds")]
    #[schemars(range(min = 100, max = 600_000))]
    budget_ms: u64,
}

fn thirty_seconds() -> u64 {
    30_000
}

/// What `compute_note_quality` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Computed {
    /// Indexed notes in the vault.
    notes: u64,
    /// Notes measured by this pass.
    measured: u64,
    /// Every note was measured (else the next pass starts with the least recent).
    complete: bool,
    /// How many measured notes carry each flag.
    flagged: BTreeMap<String, u64>,
    /// When, Unix seconds.
    computed_at: i64,
}

/// The `compute_note_quality` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            COMPUTE_NOTE_QUALITY,
            "Compute note quality",
            "Run the note-quality pass over the vault now, within a time budget: each \
             note's chunks, duplicated chunks, age, retrievals, links in and out and \
             contradictions, its flags (duplicate, orphan, stale_edit, stale_access, \
             contradicted) and a score, for note_quality_report to read.",
        ),
        "knowledge",
        (
            input_schema::<ComputeNoteQuality>(),
            output_schema::<Computed>(),
        ),
        compute_note_quality,
    )
    .keywords(&[
        "measure note quality",
        "refresh quality report",
        "recompute quality",
        "vault hygiene pass",
    ])
    .scopes(&["admin:vault"])
}

fn compute_note_quality(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ComputeNoteQuality = parse(args)?;
    require_whole_vault(ctx, COMPUTE_NOTE_QUALITY)?;
    let deadline = Instant::now() + Duration::from_millis(args.budget_ms);
    // Every note indexed first (a running scan waited for, a vault never indexed scanned).
    complete_link_table(ctx)?;
    let now = ctx.clock().now_seconds();
    let report = ctx
        .runtime()
        .measure_notes(ctx.vault_entry(), deadline, &mut |done, total| {
            ctx.report_progress(done, Some(total), "measuring notes")
        })
        .map_err(ToolError::internal)?;
    structured(&Computed {
        notes: report.notes,
        measured: report.measured,
        complete: report.complete,
        flagged: report.flagged,
        computed_at: now,
    })
}

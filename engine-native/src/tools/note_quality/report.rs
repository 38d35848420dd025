//! `note_quality_report`: the notes the `note-quality` pass measured, by path, with their
//! measures, flags and score; optionally only those carrying given flags. It never measures
//! (a vault never measured answers an empty list) and nothing ranks by it.

use std::collections::HashSet;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::index::note_quality::Measures;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{NoteQualityRow, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::{output_schema, structured};

/// A flag of the pass.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Flag {
    /// Half its passages or more are also in another note.
    Duplicate,
    /// No other note links to it.
    Orphan,
    /// Not modified for a year.
    StaleEdit,
    /// Not returned by a search for 90 days, while others are.
    StaleAccess,
    /// A side of an open contradiction.
    Contradicted,
}

impl Flag {
    fn name(self) -> &'static str {
        match self {
            Flag::Duplicate => "duplicate",
            Flag::Orphan => "orphan",
            Flag::StaleEdit => "stale_edit",
            Flag::StaleAccess => "stale_access",
            Flag::Contradicted => "contradicted",
        }
    }
}

/// The arguments of `note_quality_report`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoteQualityReport {
    /// Only the notes carrying at least one of these flags (every measured note when absent).
    #[serde(default)]
    flags: Option<Vec<Flag>>,
    /// The most notes to list (1-500, default 50).
    #[serde(default = "fifty")]
    #[schemars(range(min = 1, max = 500))]
    limit: usize,
}

fn fifty() -> usize {
    50
}

/// One measured note.
#[derive(Debug, Serialize, JsonSchema)]
struct NoteQualityView {
    /// The note's vault path.
    path: String,
    /// 0 (every flag) to 1 (none).
    quality_score: f64,
    /// Its flags.
    flags: Vec<String>,
    /// How many passages (chunks) it has.
    chunk_count: u32,
    /// How many of them another note also has.
    dup_chunk_count: u32,
    /// `dup_chunk_count / chunk_count`.
    dup_ratio: f64,
    /// Whole days since it was last modified.
    age_days: i64,
    /// When a search last returned it, Unix seconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    last_retrieved_at: Option<i64>,
    /// How many times searches returned it.
    retrievals: u32,
    /// How many other notes link to it.
    in_degree: u32,
    /// How many other notes it links to.
    out_degree: u32,
    /// How many open contradictions it is a side of.
    contradictions_open: u32,
    /// When it was measured, Unix seconds.
    computed_at: i64,
}

impl From<NoteQualityRow> for NoteQualityView {
    fn from(row: NoteQualityRow) -> Self {
        NoteQualityView {
            path: row.path,
            quality_score: row.quality_score,
            flags: row.flags,
            chunk_count: row.chunk_count,
            dup_chunk_count: row.dup_chunk_count,
            dup_ratio: row.dup_ratio,
            age_days: row.age_days,
            last_retrieved_at: row.last_retrieved_at,
            retrievals: row.retrievals,
            in_degree: row.in_degree,
            out_degree: row.out_degree,
            contradictions_open: row.contradictions_open,
            computed_at: row.computed_at,
        }
    }
}

/// What `note_quality_report` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Report {
    /// The vault.
    vault: String,
    /// `stored`: the pass's rows; `caller`: the measured notes the caller may read, measured
    /// now over those notes only.
    view: &'static str,
    /// How many measured notes match (more than listed when over `limit`).
    total: usize,
    /// The notes, by path.
    notes: Vec<NoteQualityView>,
}

/// The `note_quality_report` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "note_quality_report",
            "Note quality report",
            "Report each note's quality as the note-quality pass measured it: score, flags \
             (duplicate, orphan, stale_edit, stale_access, contradicted), chunks, \
             duplicated chunks, age, retrievals, links in and out, contradictions; by \
             path, optionally only notes with given flags. Empty until the pass ran \
             (compute_note_quality).",
        ),
        "knowledge",
        (
            input_schema::<NoteQualityReport>(),
            output_schema::<Report>(),
        ),
        note_quality_report,
    )
    .keywords(&[
        "note quality",
        "weak notes",
        "duplicate notes",
        "stale notes",
        "neglected notes",
        "vault hygiene",
    ])
    .scopes(&["read:notes"])
}

fn note_quality_report(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: NoteQualityReport = parse(args)?;
    let stored = ctx
        .store()
        .note_quality()
        .rows(ctx.vault_id())
        .map_err(store_fault)?;
    let (view, rows) = if ctx.reads_everything() {
        ("stored", stored)
    } else {
        ("caller", measured_for_caller(ctx, stored)?)
    };
    let wanted: Option<Vec<&str>> = args
        .flags
        .as_ref()
        .map(|flags| flags.iter().map(|flag| flag.name()).collect());
    let mut notes: Vec<NoteQualityView> = rows
        .into_iter()
        .filter(|row| ctx.may_list(&row.path))
        .filter(|row| {
            wanted
                .as_ref()
                .is_none_or(|wanted| row.flags.iter().any(|flag| wanted.contains(&flag.as_str())))
        })
        .map(NoteQualityView::from)
        .collect();
    let total = notes.len();
    notes.truncate(args.limit);
    structured(&Report {
        vault: ctx.vault_id().to_owned(),
        view,
        total,
        notes,
    })
}

/// The measured notes the caller may read, measured now over the notes it may read only.
fn measured_for_caller(
    ctx: &ToolContext<'_>,
    stored: Vec<NoteQualityRow>,
) -> Result<Vec<NoteQualityRow>, ToolError> {
    if stored.is_empty() {
        return Ok(stored);
    }
    let facts = ctx
        .store()
        .note_quality()
        .facts(ctx.vault_id())
        .map_err(store_fault)?;
    let links = link_table(ctx)?;
    let readable = |path: &str| ctx.may_list(path);
    let measures = Measures::new(&facts, &links, &readable, ctx.clock().now_seconds());
    let present: HashSet<&str> = measures.notes().into_iter().collect();
    Ok(stored
        .iter()
        .filter(|row| present.contains(row.path.as_str()))
        .map(|row| measures.of(&row.path))
        .collect())
}

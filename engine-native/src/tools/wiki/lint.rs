//! `lint_wiki`: read-only proposals for the wiki folder. Each check is one function of
//! [`checks`] over the same [`Lint`] input, listed in [`CHECKS`]; a check whose data is not
//! there (no embeddings, a tool this build does not have) answers why and is listed in
//! `skipped`. Adding a check is one function and one row.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::checks;
use super::judge::{JudgeReport, SameTopic};
use super::pages::{Page, WikiPlace, pages_in};
use crate::errors::{ErrorCode, ToolError};
use crate::index::links::LinkTable;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::{output_schema, structured};

/// The cosine two notes' vectors must reach to be near-duplicates when the call names none.
pub const DEFAULT_DUPLICATE_SIMILARITY: f32 = 0.92;

/// A check: its name and its function (`Err(reason)`: skipped).
pub type Check = (
    &'static str,
    fn(&Lint<'_, '_>) -> Result<Vec<Proposal>, String>,
);

/// Every check, in the order they run.
pub const CHECKS: &[Check] = &[
    ("generated_page", checks::generated_page),
    ("orphans", checks::orphans),
    ("unresolved_links", checks::unresolved_links),
    ("stale", checks::stale),
    ("missing_sources", checks::missing_sources),
    ("near_duplicates", checks::near_duplicates),
    ("coverage", checks::coverage),
    ("contradictions", checks::contradictions),
    ("note_quality", checks::note_quality),
    ("gaps", checks::gaps),
];

/// The arguments of `lint_wiki`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct LintArgs {
    /// The folder to lint (default: the wiki folder, else the vault).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    pub folder: Option<String>,
    /// The checks to run (default all): generated_page, orphans, unresolved_links, stale,
    /// missing_sources, near_duplicates, coverage, contradictions, note_quality, gaps.
    #[serde(default)]
    #[schemars(length(min = 1, max = 20))]
    pub checks: Option<Vec<String>>,
    /// The most proposals per check (1-500, default 20).
    #[serde(default = "twenty")]
    #[schemars(range(min = 1, max = 500))]
    pub limit_per_check: usize,
    /// The cosine of two notes' vectors for a near-duplicate (default 0.92).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min_similarity: Option<f32>,
    /// The most notes compared pairwise for near-duplicates (1-5000, default 1500; the cost
    /// grows with its square).
    #[serde(default = "fifteen_hundred")]
    #[schemars(range(min = 1, max = 5000))]
    pub max_notes: usize,
    /// Ask the model judge about near-duplicate pairs (default true; without a model it is
    /// not asked).
    #[serde(default = "yes")]
    pub judge: bool,
    /// The most judgements (0-50, default 10).
    #[serde(default = "ten")]
    #[schemars(range(min = 0, max = 50))]
    pub max_judge_calls: usize,
}

fn twenty() -> usize {
    20
}

fn fifteen_hundred() -> usize {
    1500
}

fn yes() -> bool {
    true
}

fn ten() -> usize {
    10
}

/// One proposal.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct Proposal {
    /// What it is about: generated_page, orphan, unresolved_link, stale, missing_sources,
    /// near_duplicate, coverage_gap (and, from the checks this build skips, contradiction,
    /// duplicate_chunks).
    pub kind: &'static str,
    /// The note concerned.
    pub subject: String,
    /// The other notes concerned.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub related: Vec<String>,
    /// What was found.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// What to do, in words.
    pub suggested_action: String,
    /// The tool that does it.
    pub tool: &'static str,
    /// Its arguments, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tool_args: Option<Value>,
    /// The figures behind it (e.g. a cosine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub evidence: Option<Value>,
    /// The model judge's verdict on a near-duplicate pair.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judge_verdict: Option<SameTopic>,
}

/// A check left out, and why.
#[derive(Debug, Serialize, JsonSchema)]
struct Skipped {
    /// The check.
    check: String,
    /// Why.
    reason: String,
}

/// The proposals by kind.
#[derive(Debug, Serialize, JsonSchema)]
struct Summary {
    /// How many proposals in all.
    total: usize,
    /// How many of each kind.
    by_kind: BTreeMap<String, usize>,
}

/// What `lint_wiki` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Linted {
    /// Always true: nothing was changed.
    read_only: bool,
    /// The checks that ran.
    checks_run: Vec<String>,
    /// The checks that did not, and why.
    skipped: Vec<Skipped>,
    /// The proposals by kind.
    summary: Summary,
    /// The proposals, check by check.
    proposals: Vec<Proposal>,
    /// Whether a check had more proposals than `limit_per_check`, or more notes than
    /// `max_notes`.
    truncated: bool,
    /// What the model judge did.
    judge: JudgeReport,
    /// Remarks on the run.
    notes: Vec<String>,
}

/// What every check reads.
pub struct Lint<'c, 'd> {
    /// The call.
    pub ctx: &'c ToolContext<'d>,
    /// The wiki's place.
    pub(super) place: WikiPlace,
    /// The folder linted.
    pub folder: Option<String>,
    /// Its readable pages.
    pub(super) pages: Vec<Page>,
    /// The vault's link table.
    pub table: std::sync::Arc<LinkTable>,
    /// The arguments.
    pub(super) args: LintArgs,
    /// What the judge did (the near-duplicate check fills it in).
    pub(super) judge: std::cell::RefCell<JudgeReport>,
    /// Remarks the checks add.
    pub(super) notes: std::cell::RefCell<Vec<String>>,
}

/// The `lint_wiki` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "lint_wiki",
            "Lint wiki",
            "Wiki health review, read-only: orphan wiki pages, unresolved wikilinks, stale \
             pages whose sources changed, pages without sources, near-duplicate pages (page \
             embeddings, cost grows with max_notes squared), an outdated wiki index and \
             raw sources no page covers, each with the tool that fixes it. Checks lacking \
             their data are listed in skipped with the reason.",
        ),
        "knowledge",
        (input_schema::<LintArgs>(), output_schema::<Linted>()),
        lint_wiki,
    )
    .keywords(&["wiki health check", "lint the wiki"])
    .scopes(&["read:notes"])
}

fn lint_wiki(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: LintArgs = parse(args)?;
    if let Some(unknown) = args
        .checks
        .iter()
        .flatten()
        .find(|name| !CHECKS.iter().any(|(check, _)| check == name))
    {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "there is no check '{unknown}'; the checks are {}",
                CHECKS
                    .iter()
                    .map(|(name, _)| *name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ));
    }
    let place = WikiPlace::of(ctx);
    let (folder, pages) = pages_in(ctx, &place, args.folder.as_deref())?;
    let lint = Lint {
        ctx,
        folder,
        pages,
        table: link_table(ctx)?,
        judge: std::cell::RefCell::new(JudgeReport::unused("no near-duplicate pair to judge")),
        notes: std::cell::RefCell::new(Vec::new()),
        place,
        args,
    };
    let mut result = Linted {
        read_only: true,
        checks_run: Vec::new(),
        skipped: Vec::new(),
        summary: Summary {
            total: 0,
            by_kind: BTreeMap::new(),
        },
        proposals: Vec::new(),
        truncated: false,
        judge: JudgeReport::default(),
        notes: Vec::new(),
    };
    for (name, check) in CHECKS {
        if lint
            .args
            .checks
            .as_ref()
            .is_some_and(|asked| !asked.iter().any(|asked| asked == name))
        {
            continue;
        }
        match check(&lint) {
            Ok(mut proposals) => {
                result.checks_run.push((*name).to_owned());
                if proposals.len() > lint.args.limit_per_check {
                    proposals.truncate(lint.args.limit_per_check);
                    result.truncated = true;
                }
                result.proposals.extend(proposals);
            }
            Err(reason) => result.skipped.push(Skipped {
                check: (*name).to_owned(),
                reason,
            }),
        }
    }
    for proposal in &result.proposals {
        *result
            .summary
            .by_kind
            .entry(proposal.kind.to_owned())
            .or_default() += 1;
    }
    result.summary.total = result.proposals.len();
    result.judge = lint.judge.into_inner();
    result.notes = lint.notes.into_inner();
    result.truncated |= result
        .notes
        .iter()
        .any(|note| note.starts_with(checks::MAX_NOTES_NOTE));
    structured(&result)
}

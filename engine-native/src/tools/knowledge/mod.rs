//! The knowledge tools (issue 38, the original's M7; facade domain `knowledge`): what a
//! search did and what came of it.
//!
//! - `diagnose_retrieval`: one query's ranking traced stage by stage for one note, naming the
//!   stage that dropped it;
//! - `explain_answer`: the lineage of the caller's searches: what each returned, what became
//!   of those notes, the feedback given, and the later calls that changed them;
//! - `run_gap_pass` (also `obsidian-tc gaps`): a query set measured through the ranked
//!   search and kept; `gap_report`: the newest pass, as the caller may see it.

mod diagnose;
mod explain;
mod gap_pass;
mod gap_report;

use crate::runtime::ToolDef;

/// The knowledge tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        diagnose::tool(),
        explain::tool(),
        gap_pass::tool(),
        gap_report::tool(),
    ]
}

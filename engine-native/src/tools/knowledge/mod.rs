//! The knowledge tools (issue 38, the original's M7; facade domain `knowledge`): what a
//! search did and what came of it.
//!
//! - `diagnose_retrieval`: one query's ranking traced stage by stage for one note, naming the
//!   stage that dropped it;
//! - `explain_answer`: the lineage of the caller's searches: what each returned, what became
//!   of those notes, the feedback given, and the later calls that changed them.

mod diagnose;
mod explain;

use crate::runtime::ToolDef;

/// The knowledge tools.
pub fn tools() -> Vec<ToolDef> {
    vec![diagnose::tool(), explain::tool()]
}

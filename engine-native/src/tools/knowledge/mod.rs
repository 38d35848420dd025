//! The knowledge tools (issue 38, the original's M7; facade domain `knowledge`): what a
//! search did and what came of it.
//!
//! - `diagnose_retrieval`: one query's ranking traced stage by stage for one note, naming the
//!   stage that dropped it.

mod diagnose;

use crate::runtime::ToolDef;

/// The knowledge tools.
pub fn tools() -> Vec<ToolDef> {
    vec![diagnose::tool()]
}

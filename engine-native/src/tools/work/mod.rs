//! The work memory (issue 37, the original's M8; facade domain `sessions`, beside the
//! session traces it extends): every tool call bound to a vault is an episode of its
//! caller's work ([`crate::store::Episodes`], kept by dispatch's step 14), read back by:
//!
//! - `work_search`: the caller's searchable episodes (promoted by the evaluator, trusted
//!   enough), by words and filters, optionally fused with a semantic ranking of their
//!   receipts;
//! - `work_episodes`: the raw log (any eligibility), or the unstamped work of sessions;
//! - `work_episode_chain`: an episode and the caller's earlier ones, newest first;
//! - `work_forget`: forgets one episode for good, in the hash-chained forget log;
//! - `work_result`: a -1/0/+1 verdict on the open session's work;
//! - `episode_stats`: k-anonymous counts per tool, status or eligibility.
//!
//! A caller reads only its own episodes (the caller is in the SQL); `any_caller` needs
//! `admin:workspace`. Every path shown is one the reading caller may read; a forgotten or
//! expired episode never shows. The reads run the evaluator first
//! ([`crate::store::Episodes::evaluate`]).

mod chain;
mod episodes;
mod forget;
mod result;
mod search;
mod stats;
mod view;

use crate::runtime::ToolDef;

/// The work-memory tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        search::tool(),
        episodes::tool(),
        chain::tool(),
        forget::tool(),
        result::tool(),
        stats::tool(),
    ]
}

//! The retrieval log (`retrievalLog`): whether ranked searches are logged
//! ([`crate::store::Retrievals`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The log of ranked searches: every call of a ranked search tool (`search_vault`'s ranked
/// modes, `search_semantic`, `search_entities`, `vault_graph_search`, `get_context`,
/// `vault_context`, `search_and_read`, `search`) with its query, caller, session and the
/// chunks it returned, kept for the event log's retention (`maintenance.eventLogRetentionDays`);
/// `record_retrieval_feedback` stamps it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct RetrievalLogConfig {
    /// Log each ranked search (on by default). Off: nothing is logged, and
    /// `record_retrieval_feedback` finds nothing to stamp.
    pub enabled: bool,
}

impl Default for RetrievalLogConfig {
    fn default() -> RetrievalLogConfig {
        RetrievalLogConfig { enabled: true }
    }
}

//! `record_retrieval_feedback`: whether a passage a search returned helped (-1, 0, +1),
//! stamped on the caller's latest retrieval(s) of that chunk in the retrieval log
//! ([`crate::store::Retrievals`]). Only the caller's own retrievals are ever stamped (the
//! partition is the query's `WHERE caller = ?`); the answer says how many were, or why none.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{Feedback, FeedbackStamped, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `record_retrieval_feedback`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct RecordFeedback {
    /// The `chunk_id` a search result showed (search_vault, vault_graph_search,
    /// get_context, search_and_read, search).
    #[schemars(length(min = 1, max = 64))]
    chunk_id: String,
    /// -1: it misled or did not help; 0: neutral; +1: it helped.
    #[schemars(range(min = -1, max = 1))]
    feedback: i8,
    /// Only retrievals made in this session (default: any of the caller's).
    #[serde(default)]
    #[schemars(length(min = 1, max = 128))]
    session_id: Option<String>,
    /// How many of the latest retrievals of the chunk to stamp (1-50, default 1).
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 50))]
    last_n: u32,
}

fn one() -> u32 {
    1
}

/// Why nothing was stamped.
#[derive(Debug, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Reason {
    /// The caller retrieved the chunk, but not in the session named.
    SessionScope,
    /// The caller never retrieved the chunk (or its retrievals are past retention).
    NoOwnedRetrievals,
}

/// What `record_retrieval_feedback` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct FeedbackRecorded {
    /// How many logged results were stamped.
    updated: usize,
    /// Why none was (absent when some were).
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<Reason>,
}

/// The `record_retrieval_feedback` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "record_retrieval_feedback",
            "Record retrieval feedback",
            "Rate a passage a search returned: feedback -1, 0 or +1 on its chunk_id, stamped on your own latest retrieval of it (last_n up to 50; session_id narrows to one session); updated 0 comes with a reason.",
        ),
        "find",
        (
            input_schema::<RecordFeedback>(),
            output_schema::<FeedbackRecorded>(),
        ),
        record_retrieval_feedback,
    )
    .keywords(&[
        "retrieval feedback",
        "passage helped",
        "rate a search result",
    ])
    .scopes(&["write:workspace"])
}

fn record_retrieval_feedback(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: RecordFeedback = parse(args)?;
    let stamped = ctx
        .store()
        .retrievals()
        .stamp(&Feedback {
            vault_id: ctx.vault_id(),
            caller: &ctx.caller().id,
            chunk_key: &args.chunk_id,
            value: args.feedback,
            session_id: args.session_id.as_deref(),
            last_n: args.last_n,
            now: ctx.clock().now_seconds(),
        })
        .map_err(store_fault)?;
    structured(&match stamped {
        FeedbackStamped::Updated(updated) => FeedbackRecorded {
            updated,
            reason: None,
        },
        FeedbackStamped::SessionScope => FeedbackRecorded {
            updated: 0,
            reason: Some(Reason::SessionScope),
        },
        FeedbackStamped::NoOwnedRetrievals => FeedbackRecorded {
            updated: 0,
            reason: Some(Reason::NoOwnedRetrievals),
        },
    })
}

//! What the work tools share: the reading caller's partition (`any_caller` needs
//! `admin:workspace`), the evaluator run before a read, and an episode as shown (its paths
//! filtered by the reader's ACL; its arguments only to the caller who sent them).

use engine_core::acl::{AclOp, Scope, satisfies_all};
use schemars::JsonSchema;
use serde::Serialize;

use crate::calendar::rfc3339_utc;
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::store::{EpisodeQuery, EpisodeRow, store_fault};

/// The scope that reads (and forgets) other callers' episodes.
const ANY_CALLER_SCOPE: &str = "admin:workspace";

/// The tools whose calls a verdict does not judge and unstamped debt does not list: the work
/// memory's own and the session bounds.
pub(super) const NOT_JUDGED: &[&str] = &[
    "work_search",
    "work_episodes",
    "work_episode_chain",
    "work_forget",
    "work_result",
    "episode_stats",
    "start_session",
    "end_session",
];

/// Whose episodes a call reads: `Some(caller)` (its own), `None` with `any_caller` (every
/// caller's), `forbidden` for `any_caller` without `admin:workspace`.
pub(super) fn partition<'c>(
    ctx: &'c ToolContext<'_>,
    any_caller: bool,
) -> Result<Option<&'c str>, ToolError> {
    if !any_caller {
        return Ok(Some(ctx.caller().id.as_str()));
    }
    let required: Vec<Scope> = Scope::parse(ANY_CALLER_SCOPE).into_iter().collect();
    if satisfies_all(&ctx.caller().scopes, &required) {
        Ok(None)
    } else {
        Err(ToolError::forbidden_scopes(&required, &ctx.caller().scopes))
    }
}

/// The newest `limit` episodes of `caller` (every caller's when `None`) in the call's vault,
/// inside the retention window, unfiltered: each tool narrows it.
pub(super) fn newest<'a>(
    ctx: &'a ToolContext<'_>,
    caller: Option<&'a str>,
    limit: u32,
) -> EpisodeQuery<'a> {
    EpisodeQuery::newest(
        ctx.vault_id(),
        caller,
        ctx.runtime().episode_cutoff(),
        limit,
    )
}

/// Runs the evaluator (it reads only the pending episodes), so a read sees every promotion
/// the rules allow.
pub(super) fn evaluated(ctx: &ToolContext<'_>) -> Result<(), ToolError> {
    ctx.store()
        .episodes()
        .evaluate()
        .map(|_| ())
        .map_err(store_fault)
}

/// An episode as the work tools show it.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct EpisodeView {
    /// `ep_` and 18 hex.
    id: String,
    /// When the call finished, Unix seconds.
    ts: i64,
    /// The same time, RFC 3339 UTC.
    time: String,
    /// The session it belongs to (absent outside a session).
    #[serde(skip_serializing_if = "Option::is_none")]
    session_id: Option<String>,
    /// Who made the call (only when reading every caller's episodes).
    #[serde(skip_serializing_if = "Option::is_none")]
    caller: Option<String>,
    /// The tool called.
    tool: String,
    /// `ok` or `error`.
    status: String,
    /// The error code of a failed call.
    #[serde(skip_serializing_if = "Option::is_none")]
    error_code: Option<String>,
    /// How long it took.
    duration_ms: i64,
    /// The size of its JSON result, bytes.
    result_size: i64,
    /// The hash of the tool name and arguments (equal hashes: the same call).
    args_hash: String,
    /// The arguments, credentials redacted (only when the server keeps them,
    /// `work.captureArguments`, and only to the caller who sent them).
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<String>,
    /// The files it changed that you may read.
    changed_paths: Vec<String>,
    /// The caller's previous episode in the vault (`work_episode_chain` follows it).
    #[serde(skip_serializing_if = "Option::is_none")]
    prev_id: Option<String>,
    /// What the scan of what it wrote found: prompt-injection shapes, `secret:<class>`.
    tags: Vec<String>,
    /// The highest risk of that scan (`suspect`, `high`).
    #[serde(skip_serializing_if = "Option::is_none")]
    scan_risk: Option<String>,
    /// Trust (0..1): 1 clean, 0.5 suspect or carrying a credential, 0 high risk.
    #[serde(skip_serializing_if = "Option::is_none")]
    trust: Option<f64>,
    /// `pending` (not promoted yet, or held out), `eligible` (searchable), `ineligible`.
    eligibility: String,
    /// The verdict stamped on it by `work_result` (-1, 0, +1).
    #[serde(skip_serializing_if = "Option::is_none")]
    task_result: Option<i64>,
    /// The receipt: tool, outcome, how many files changed.
    summary: String,
}

impl EpisodeView {
    /// `row` as `ctx`'s caller sees it: paths it may read, arguments only if it sent them,
    /// the caller named when reading every caller's (`all_callers`).
    pub(super) fn of(ctx: &ToolContext<'_>, row: EpisodeRow, all_callers: bool) -> EpisodeView {
        let own = row.caller == ctx.caller().id;
        EpisodeView {
            time: rfc3339_utc(row.ts),
            id: row.id,
            ts: row.ts,
            session_id: row.session_id,
            caller: all_callers.then_some(row.caller),
            tool: row.tool,
            status: row.status,
            error_code: row.error_code,
            duration_ms: row.duration_ms,
            result_size: row.result_size,
            args_hash: row.args_hash,
            args: row.args_json.filter(|_| own && !all_callers),
            changed_paths: row
                .paths
                .into_iter()
                .filter(|path| ctx.may(path, AclOp::Read))
                .collect(),
            prev_id: row.prev_id,
            tags: row.tags.split_whitespace().map(str::to_owned).collect(),
            scan_risk: row.scan_risk,
            trust: row.trust,
            eligibility: row.eligibility,
            task_result: row.task_result,
            summary: row.summary,
        }
    }
}

//! `query_audit_log`: the audit rows of one vault's tool calls, newest first, filtered by time,
//! tool, caller, outcome and path prefix, paged with a cursor ([`crate::audit`]). A caller sees
//! only its vault's rows (a vault-bound caller cannot name another), and only the rows whose
//! every path it may read: a call in a folder hidden from it is not shown at all.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::audit::{AuditError, AuditPage, MAX_ROWS, audit_page, parse_time};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{EventFilter, LoggedEvent, store_fault};
use crate::tools::common::admin::admin_tool;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::paging::{CursorLength, PageArgs, Paging};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `query_audit_log`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct QueryAuditLog {
    /// Only calls at or after this time: RFC 3339 (`2026-11-27T09:30:00Z`), a date
    /// (`2026-11-27`) or a span back from now (`90m`, `24h`, `7d`).
    #[serde(default)]
    #[schemars(length(max = 64))]
    since: Option<String>,
    /// Only calls at or before this time (same forms as `since`).
    #[serde(default)]
    #[schemars(length(max = 64))]
    until: Option<String>,
    /// Only calls of this tool.
    #[serde(default)]
    #[schemars(length(min = 1, max = 128))]
    tool: Option<String>,
    /// Only calls of this caller id.
    #[serde(default)]
    #[schemars(length(min = 1, max = 256))]
    caller: Option<String>,
    /// `ok`, `error`, or one error code (`acl_denied`, `not_found`, ...).
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    outcome: Option<String>,
    /// Only calls that named or changed a path starting with this text (`Projects/`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    path_prefix: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<AuditPaging>,
}

/// `query_audit_log` pages by 50 rows (at most 500), newest first; a cursor is at most 32
/// characters.
struct AuditPaging;

impl Paging for AuditPaging {
    const ITEMS: &'static str = "rows";
    const DEFAULT: usize = 50;
    const MAX: usize = 500;
    const CURSOR: CursorLength = CursorLength::at_most(32);
}

/// The `query_audit_log` tool.
pub(super) fn tool() -> ToolDef {
    admin_tool(
        "query_audit_log",
        "Query audit log",
        "The audit log of tool calls in this vault, newest first: when, which tool, who called, ok or which error, how long, which paths. Filter by time (since/until), tool, caller, outcome and path_prefix; paged with cursor. Never shows arguments or note text.",
        &["admin:audit"],
        true,
        (input_schema::<QueryAuditLog>(), output_schema::<AuditPage>()),
        query_audit_log,
    )
    .keywords(&[
        "audit",
        "audit log",
        "history of calls",
        "who changed",
        "who called",
        "activity",
        "what did the agent do",
        "event log",
        "call log",
        "recent calls",
    ])
}

fn query_audit_log(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: QueryAuditLog = parse(args)?;
    let now = ctx.clock().now_seconds();
    let time = |field: &str, text: Option<&str>| -> Result<Option<i64>, ToolError> {
        text.map(|text| {
            parse_time(text, now).map_err(|message| {
                ToolError::new(ErrorCode::InvalidInput, message)
                    .with_details(json!({ "field": field, "value": text }))
            })
        })
        .transpose()
    };
    let filter = EventFilter {
        vault: Some(ctx.vault_id().to_owned()),
        since: time("since", args.since.as_deref())?,
        until: time("until", args.until.as_deref())?,
        tool: args.tool,
        caller: args.caller,
        outcome: args.outcome,
        path_prefix: args.path_prefix,
        before_id: None,
    };
    let visible = |event: &LoggedEvent| {
        event
            .event
            .paths
            .iter()
            .all(|path| ctx.may(path, AclOp::Read))
    };
    let page = audit_page(
        ctx.store(),
        &filter,
        args.page.cursor(),
        u32::try_from(args.page.limit()).map_or(MAX_ROWS, |limit| limit.min(MAX_ROWS)),
        visible,
    )
    .map_err(|error| match error {
        AuditError::Cursor(_) => ToolError::new(ErrorCode::InvalidInput, error.to_string()),
        AuditError::Store(error) => store_fault(error),
    })?;
    structured(&page)
}

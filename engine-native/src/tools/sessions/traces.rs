//! `get_session_traces`: the events of the caller's sessions in the vault — one session, or
//! every session's events in a time window (starts, calls, verdicts, ends) — optionally only the calls of one tool, paged
//! in the order they were written. A torn or damaged line is skipped and counted. Of the
//! files a call changed, only those the caller may read now are shown.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::answer::{check_session_id, session_error};
use crate::calendar::Date;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::sessions::{Record, StartRecord, TraceOutcome, read_session};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::paging::{CursorLength, Page, PageArgs, Paging, cursor_offset};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `get_session_traces`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GetSessionTraces {
    /// One session, 32 hex (default: all your sessions in the vault).
    #[schemars(length(equal = 32))]
    session_id: Option<String>,
    /// Events at or after this time: `2026-01-01` or `2026-01-01T09:00:00Z` (UTC).
    #[schemars(length(min = 10, max = 20))]
    from: Option<String>,
    /// Events at or before this time: `2026-01-31` (the whole day) or a UTC timestamp.
    #[schemars(length(min = 10, max = 20))]
    to: Option<String>,
    /// Only the calls of this tool.
    #[schemars(length(min = 1, max = 128))]
    tool: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<TracePaging>,
}

/// `get_session_traces` pages by 100 events (at most 1000).
struct TracePaging;

impl Paging for TracePaging {
    const ITEMS: &'static str = "events";
    const CURSOR: CursorLength = CursorLength::ANY;
    const NULL_DEFAULTS: bool = false;
}

/// What kind of event.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum EventKind {
    /// The session started.
    Start,
    /// A tool call.
    Call,
    /// A verdict on the session's work.
    Verdict,
    /// The session ended.
    End,
}

/// One event of a session.
#[derive(Debug, Serialize, JsonSchema)]
struct TraceEvent {
    /// The session it belongs to.
    session_id: String,
    /// Start, call or end.
    kind: EventKind,
    /// When (RFC 3339 UTC).
    ts: String,
    /// The session's label (start).
    #[serde(skip_serializing_if = "Option::is_none")]
    label: Option<String>,
    /// The session's goal (start).
    #[serde(skip_serializing_if = "Option::is_none")]
    goal: Option<String>,
    /// The tool called (call).
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<String>,
    /// The hash of the tool name and arguments (call).
    #[serde(skip_serializing_if = "Option::is_none")]
    args_hash: Option<String>,
    /// Whether the call succeeded (call).
    #[serde(skip_serializing_if = "Option::is_none")]
    outcome: Option<TraceOutcome>,
    /// The error code of a failed call.
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<String>,
    /// How long the call took (call).
    #[serde(skip_serializing_if = "Option::is_none")]
    duration_ms: Option<u64>,
    /// The files the call changed that you may read (call).
    #[serde(skip_serializing_if = "Option::is_none")]
    changed_files: Option<Vec<String>>,
    /// Whether the call's result was replayed from an idempotency key (call).
    #[serde(skip_serializing_if = "Option::is_none")]
    replayed: Option<bool>,
    /// The call's arguments, when the server records them (`traces.includeArguments`).
    #[serde(skip_serializing_if = "Option::is_none")]
    arguments: Option<Value>,
    /// The verdict, -1, 0 or +1 (verdict).
    #[serde(skip_serializing_if = "Option::is_none")]
    verdict: Option<i8>,
    /// Why (verdict).
    #[serde(skip_serializing_if = "Option::is_none")]
    comment: Option<String>,
}

/// One page of events.
#[derive(Debug, Serialize, JsonSchema)]
struct TracePage {
    /// The events, in the order they were written (sessions by start time), with
    /// `total_count` and `cursor`.
    #[serde(flatten)]
    page: Page<TraceEvent>,
    /// Lines of the sessions read that are not whole records (a torn last line after a
    /// crash), skipped.
    skipped_lines: u64,
}

/// The `get_session_traces` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "get_session_traces",
            "Get session traces",
            "Read back the JSONL traces of your agent work sessions: the start, each tool call (args hash, outcome, duration, changed files) and the end, of one session id or of your sessions in a date window; filter by tool; paged.",
        ),
        "sessions",
        (
            input_schema::<GetSessionTraces>(),
            output_schema::<TracePage>(),
        ),
        get_session_traces,
    )
    .keywords(&["session traces", "session trace", "tool call trace", "past sessions"])
    .scopes(&["read:workspace"])
}

fn get_session_traces(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GetSessionTraces = parse(args)?;
    let offset = cursor_offset(args.page.cursor())?;
    if let Some(id) = &args.session_id {
        check_session_id(id)?;
    }
    let from = args
        .from
        .as_deref()
        .map(|from| bound(from, "T00:00:00Z"))
        .transpose()?;
    let to = args
        .to
        .as_deref()
        .map(|to| bound(to, "T23:59:59Z"))
        .transpose()?;
    let sessions = ctx.runtime().sessions();
    let (vault, caller) = (ctx.vault_id(), ctx.caller().id.as_str());
    let failed = |error: std::io::Error| {
        session_error(
            &error,
            format!("you have no such session in vault '{vault}'"),
        )
    };
    let starts: Vec<StartRecord> = match &args.session_id {
        Some(id) => vec![sessions.own_start(vault, caller, id).map_err(failed)?],
        None => sessions.sessions_of(vault, caller).map_err(failed)?,
    };
    let in_window = |ts: &str| {
        from.as_deref().is_none_or(|from| ts >= from) && to.as_deref().is_none_or(|to| ts <= to)
    };
    let mut events = Vec::new();
    let mut skipped_lines = 0;
    for start in starts {
        if to.as_deref().is_some_and(|to| start.ts.as_str() > to) {
            continue;
        }
        let log = read_session(&sessions.vault_dir(vault), &start.session).map_err(failed)?;
        skipped_lines += log.skipped_lines;
        events.extend(
            log.records
                .into_iter()
                .filter(|record| in_window(record.ts()))
                .filter(|record| match (&args.tool, record) {
                    (None, _) => true,
                    (Some(tool), Record::Call(call)) => &call.tool == tool,
                    (Some(_), _) => false,
                })
                .map(|record| event(ctx, &start.session, record)),
        );
    }
    let total_count = events.len();
    let items: Vec<TraceEvent> = events
        .into_iter()
        .skip(offset)
        .take(args.page.limit())
        .collect();
    let next = offset + items.len();
    structured(&TracePage {
        page: Page {
            cursor: (next < total_count).then(|| next.to_string()),
            items,
            total_count,
        },
        skipped_lines,
    })
}

/// A window bound as a timestamp the way records write them (`2026-01-01T09:00:00Z`, which
/// compares as text): a date gets `time_of_day`. `invalid_input` for anything else.
fn bound(text: &str, time_of_day: &str) -> Result<String, ToolError> {
    let (date, time) = match (text.get(..10), text.get(10..)) {
        (Some(date), Some("")) => (date, time_of_day),
        (Some(date), Some(time)) => (date, time),
        _ => (text, time_of_day),
    };
    let two_digits = |part: &str| part.len() == 2 && part.bytes().all(|b| b.is_ascii_digit());
    let clock: Vec<u32> = time
        .strip_prefix('T')
        .and_then(|time| time.strip_suffix('Z'))
        .filter(|hms| hms.split(':').all(two_digits))
        .map(|hms| {
            hms.split(':')
                .filter_map(|part| part.parse().ok())
                .collect()
        })
        .unwrap_or_default();
    let valid = Date::parse_iso(date).is_some()
        && matches!(clock[..], [h, m, s] if h < 24 && m < 60 && s < 60);
    if valid {
        Ok(format!("{date}{time}"))
    } else {
        Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("{text:?} is not a date (2026-01-31) or a UTC time (2026-01-31T09:00:00Z)"),
        ))
    }
}

/// A record as the event shown to the caller.
fn event(ctx: &ToolContext<'_>, session: &str, record: Record) -> TraceEvent {
    let mut event = TraceEvent {
        session_id: session.to_owned(),
        kind: EventKind::End,
        ts: record.ts().to_owned(),
        label: None,
        goal: None,
        tool: None,
        args_hash: None,
        outcome: None,
        code: None,
        duration_ms: None,
        changed_files: None,
        replayed: None,
        arguments: None,
        verdict: None,
        comment: None,
    };
    match record {
        Record::Start(start) => {
            event.kind = EventKind::Start;
            event.label = start.label;
            event.goal = start.goal;
        }
        Record::Call(call) => {
            event.kind = EventKind::Call;
            event.tool = Some(call.tool);
            event.args_hash = Some(call.args_hash);
            event.outcome = Some(call.outcome);
            event.code = call.code;
            event.duration_ms = Some(call.duration_ms);
            event.changed_files = Some(
                call.changed_files
                    .into_iter()
                    .filter(|path| ctx.may(path, AclOp::Read))
                    .collect(),
            );
            event.replayed = Some(call.replayed);
            event.arguments = call.arguments;
        }
        Record::Verdict(verdict) => {
            event.kind = EventKind::Verdict;
            event.verdict = Some(verdict.verdict);
            event.comment = verdict.comment;
        }
        Record::End(_) => {}
    }
    event
}

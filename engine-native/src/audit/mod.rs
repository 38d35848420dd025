//! Reading the audit log: the `event_log` rows of tool calls as pages of [`AuditRow`]s, newest
//! first, filtered by time, tool, caller, outcome and path prefix. `query_audit_log` (for an
//! agent, one vault, only rows whose paths it may read) and `obsidian-tc audit` (for the
//! operator, every vault) both answer through [`audit_page`], so they answer the same rows.
//! A row never holds a call's arguments or note text: only its args hash and the vault paths
//! it named or changed.

mod time;

use schemars::JsonSchema;
use serde::Serialize;
use unicode_normalization::UnicodeNormalization;

use crate::calendar::rfc3339_utc;
use crate::store::{EventFilter, LoggedEvent, Outcome, Store, StoreError};

pub use time::parse_time;

/// The most rows of one page.
pub const MAX_ROWS: u32 = 500;

/// How many rows one read of the log takes while a page is filled.
const BATCH: u32 = 500;

/// One audited call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AuditRow {
    /// The row id; ids grow with time.
    pub id: i64,
    /// When the call finished, RFC 3339 UTC.
    pub time: String,
    /// The vault the call was bound to (`""` when it failed before vault binding).
    pub vault: String,
    /// The tool called.
    pub tool: String,
    /// Who called.
    pub caller: String,
    /// `ok` or `error`.
    pub outcome: String,
    /// The error code, for an error.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// How long the call took, milliseconds.
    pub duration_ms: i64,
    /// Whether an idempotency key replayed an earlier result.
    pub replayed: bool,
    /// The SHA-256 of the call's canonical arguments (never the arguments).
    pub args_hash: String,
    /// The vault paths the call named or changed, sorted.
    pub paths: Vec<String>,
}

/// One page of the audit log.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, JsonSchema)]
pub struct AuditPage {
    /// The rows, newest first.
    pub rows: Vec<AuditRow>,
    /// Pass this as `cursor` to get the next (older) page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cursor: Option<String>,
}

/// Why a page cannot be read.
#[derive(Debug)]
pub enum AuditError {
    /// A cursor that no page handed out.
    Cursor(String),
    /// The cache database failed.
    Store(StoreError),
}

impl std::fmt::Display for AuditError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AuditError::Cursor(cursor) => write!(
                f,
                "cursor '{cursor}' is not one an audit page returned; start without it"
            ),
            AuditError::Store(error) => write!(f, "cannot read the audit log: {error}"),
        }
    }
}

impl From<StoreError> for AuditError {
    fn from(error: StoreError) -> AuditError {
        AuditError::Store(error)
    }
}

/// The page of up to `limit` rows (1..=[`MAX_ROWS`]) that pass `filter` (its path prefix
/// taken in NFC), starting below
/// `cursor`, keeping only rows `visible` accepts (the rows it refuses are skipped, never
/// counted).
pub fn audit_page(
    store: &Store,
    filter: &EventFilter,
    cursor: Option<&str>,
    limit: u32,
    visible: impl Fn(&LoggedEvent) -> bool,
) -> Result<AuditPage, AuditError> {
    let mut filter = filter.clone();
    // Paths are kept in NFC, as the ACL sees them: a prefix typed in NFD names the same notes.
    filter.path_prefix = filter.path_prefix.map(|prefix| prefix.nfc().collect());
    if let Some(cursor) = cursor {
        let id = cursor
            .parse::<i64>()
            .ok()
            .filter(|id| *id > 0)
            .ok_or_else(|| AuditError::Cursor(cursor.to_owned()))?;
        filter.before_id = Some(id);
    }
    let wanted = limit.clamp(1, MAX_ROWS) as usize;
    let mut rows = Vec::new();
    'fill: loop {
        let batch = store.events().query(&filter, BATCH)?;
        let exhausted = batch.len() < BATCH as usize;
        for event in batch {
            filter.before_id = Some(event.id);
            if visible(&event) {
                rows.push(row(event));
                if rows.len() > wanted {
                    break 'fill;
                }
            }
        }
        if exhausted {
            break;
        }
    }
    let cursor = (rows.len() > wanted).then(|| {
        rows.truncate(wanted);
        rows[wanted - 1].id.to_string()
    });
    Ok(AuditPage { rows, cursor })
}

/// An event as a row.
fn row(logged: LoggedEvent) -> AuditRow {
    let event = logged.event;
    let (outcome, code) = match event.outcome {
        Outcome::Ok => ("ok", None),
        Outcome::Error { code } => ("error", Some(code)),
    };
    AuditRow {
        id: logged.id,
        time: rfc3339_utc(event.ts),
        vault: event.vault_id,
        tool: event.tool,
        caller: event.caller,
        outcome: outcome.to_owned(),
        code,
        duration_ms: event.duration_ms,
        replayed: event.details.get("replayed") == Some(&serde_json::Value::Bool(true)),
        args_hash: event.args_hash,
        paths: event.paths,
    }
}

//! One line of a trace file: the session's start, one traced call, a verdict on the
//! session's work, or the session's end.
//! Each is one JSON object on one line, tagged by `kind`; timestamps are RFC 3339 UTC
//! seconds (`2026-01-01T00:00:00Z`), so they compare as text.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A record of a trace file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Record {
    /// The first line of a session.
    Start(StartRecord),
    /// One tool call made while the session was open.
    Call(CallRecord),
    /// A verdict on the session's work, recorded while it was open (the last one counts).
    Verdict(VerdictRecord),
    /// The last line of an ended session.
    End(EndRecord),
}

impl Record {
    /// When the record was written.
    pub fn ts(&self) -> &str {
        match self {
            Record::Start(start) => &start.ts,
            Record::Call(call) => &call.ts,
            Record::Verdict(verdict) => &verdict.ts,
            Record::End(end) => &end.ts,
        }
    }

    /// The record as one line of a trace file, its newline included.
    pub fn to_line(&self) -> Vec<u8> {
        // A record is plain data: strings, numbers and JSON values, always serializable.
        let mut line = serde_json::to_vec(self).unwrap_or_default();
        line.push(b'\n');
        line
    }
}

/// Who opened a session, where, why and when.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StartRecord {
    /// The session id (32 hex).
    pub session: String,
    /// The caller whose calls the session traces.
    pub caller: String,
    /// The vault the session is in.
    pub vault: String,
    /// A short name the caller gave the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What the caller set out to do.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub goal: Option<String>,
    /// When the session started.
    pub ts: String,
}

/// How a traced call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum TraceOutcome {
    /// It succeeded.
    Ok,
    /// It failed with the record's `code`.
    Error,
}

/// One tool call of the session's caller in the session's vault.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CallRecord {
    /// When the call ended.
    pub ts: String,
    /// The tool (the inner tool of a facade envelope).
    pub tool: String,
    /// The 32-hex hash of the tool name and arguments (never the arguments themselves).
    pub args_hash: String,
    /// Whether it succeeded.
    pub outcome: TraceOutcome,
    /// The error code of a failed call.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// How long the call took.
    pub duration_ms: u64,
    /// The vault paths the call changed that the caller may read.
    #[serde(default)]
    pub changed_files: Vec<String>,
    /// Whether the result was replayed from an idempotency key (nothing ran).
    #[serde(default)]
    pub replayed: bool,
    /// The call's arguments, only under `traces.includeArguments`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arguments: Option<Value>,
}

/// A verdict on the work of a session: -1 (bad), 0 (neutral) or +1 (good).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct VerdictRecord {
    /// When it was given.
    pub ts: String,
    /// -1, 0 or +1.
    pub verdict: i8,
    /// Why, in a few words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
}

/// The end of a session.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EndRecord {
    /// When the session ended.
    pub ts: String,
}

//! The session traces (`traces`): how large one trace file grows, how long traces are kept,
//! whether a traced call's arguments are written, and whether an ended session leaves a
//! note.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The JSONL traces of sessions (`start_session` .. `end_session`), kept under
/// `<cacheDir>/traces/<vault>/`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct TracesConfig {
    /// A session's trace file is rotated (`<id>.1.jsonl`, `<id>.2.jsonl`, ...) before a
    /// record would take it past this many bytes.
    #[schemars(range(min = 4096))]
    pub max_file_bytes: u64,
    /// Sessions whose last record is older than this many days are deleted (when a session
    /// starts, and by the maintenance sweep).
    #[schemars(range(min = 1, max = 36500))]
    pub retention_days: u64,
    /// Write each traced call's arguments (which may carry note text) next to its args hash.
    /// Off: a trace holds hashes, outcomes and paths, never what a call wrote.
    pub include_arguments: bool,
    /// `end_session` writes a session note into the vault's memory folder unless the call
    /// says `note: false` (off: only when it says `note: true`).
    pub session_notes: bool,
}

impl Default for TracesConfig {
    fn default() -> TracesConfig {
        TracesConfig {
            max_file_bytes: 16 * 1024 * 1024,
            retention_days: 30,
            include_arguments: false,
            session_notes: false,
        }
    }
}

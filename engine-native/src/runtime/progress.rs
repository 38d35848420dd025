//! [`Progress`]: where a long tool call (a scan, an embedding pass) says how far it got. The
//! MCP layer passes one when the client asked for progress (a `progressToken` in the call's
//! `_meta`) and turns each report into `notifications/progress`; other callers pass none and
//! the reports go nowhere.

/// Receives a running call's progress.
pub trait Progress: Send + Sync {
    /// `done` of `total` units (notes, chunks) are finished; `message` says what is running.
    /// `done` never decreases within one call.
    fn report(&self, done: u64, total: Option<u64>, message: &str);
}

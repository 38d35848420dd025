//! The call limits: per tool call (counted in memory) and per UTC day (counted from the
//! audit log's `model.*` rows, so a restart does not reset it).

use crate::inference::InferenceError;
use crate::store::{Store, StoreError};

/// The audit log's tool name of a model call in `role` (`model.synthesize`, `model.judge`).
pub fn audit_tool(role: &str) -> String {
    format!("{AUDIT_PREFIX}{role}")
}

/// What every model call's audit row's tool starts with.
pub const AUDIT_PREFIX: &str = "model.";

/// The start of the UTC day holding `now_ms`, Unix seconds.
pub fn day_start(now_ms: u64) -> i64 {
    let seconds = i64::try_from(now_ms / 1000).unwrap_or(i64::MAX);
    seconds - seconds.rem_euclid(86_400)
}

/// How many model calls the audit log holds since the start of the UTC day of `now_ms`.
pub fn calls_today(store: &Store, now_ms: u64) -> Result<u64, StoreError> {
    store
        .events()
        .count_tool_prefix_since(AUDIT_PREFIX, day_start(now_ms))
}

/// Refuses a further call when `made` calls of this request reached `per_request`, or
/// `today` calls of the day reached `per_day`.
pub fn check(made: u32, per_request: u32, today: u64, per_day: u32) -> Result<(), InferenceError> {
    if made >= per_request {
        return Err(InferenceError::RequestLimit { limit: per_request });
    }
    if today >= u64::from(per_day) {
        return Err(InferenceError::DayLimit { limit: per_day });
    }
    Ok(())
}

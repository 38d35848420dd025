//! The `throttled` refusal a drained bucket answers with.

use engine_core::acl::ScopeFamily;
use serde_json::json;

use crate::errors::{ErrorCode, ToolError};
use crate::throttle::ThrottleTier;

impl ToolError {
    /// `throttled`: the caller's bucket for `scope_class`, governed by `tier`, is empty.
    /// Details: `scope_class`; `retry_after_ms`, the exact wait until a token is back, and
    /// `retry_after_seconds`, its ceiling (waiting that long always suffices);
    /// `current_burst` and `current_rate`, the tier in force (bucket size, tokens per minute).
    pub fn throttled(
        scope_class: ScopeFamily,
        retry_after_ms: u64,
        tier: ThrottleTier,
    ) -> ToolError {
        let retry_after_seconds = retry_after_ms.div_ceil(1000);
        ToolError::new(
            ErrorCode::Throttled,
            format!(
                "rate limit for {} calls reached ({} per minute, burst {})",
                scope_class.as_str(),
                tier.per_minute(),
                tier.burst()
            ),
        )
        .with_details(json!({
            "scope_class": scope_class,
            "retry_after_seconds": retry_after_seconds,
            "retry_after_ms": retry_after_ms,
            "current_burst": tier.burst(),
            "current_rate": tier.per_minute(),
        }))
        .with_recovery(format!(
            "wait retry_after_seconds ({retry_after_seconds} s), then retry"
        ))
    }
}

//! The rate-limit gate of the dispatch pipeline (after the idempotency claim, before the HITL
//! gate, so a throttled call never burns a confirmation).
//!
//! - [`tiers`]: [`ThrottleConfig`], [`ThrottleTiers`], [`ThrottleTier`] and the shipped
//!   defaults (read 600/min burst 100, write 60/20, delete 60/20, bulk 10/3, execute 5/1,
//!   admin 5/1).
//! - [`limiter`]: [`Throttle`], the buckets per (caller, scope class, vault) and
//!   [`rate_class`], which classifies a tool by engine-core's scope class.
//! - `bucket`: one bucket in exact integer arithmetic.
//!
//! ```
//! use engine_core::acl::ScopeFamily;
//! use obsidian_tc::errors::ErrorCode;
//! use obsidian_tc::throttle::Throttle;
//!
//! let throttle = Throttle::default(); // execute: 5 per minute, burst 1
//! assert!(throttle.check("alice", ScopeFamily::Execute, "main", 0).is_ok());
//! let refused = throttle.check("alice", ScopeFamily::Execute, "main", 0).unwrap_err();
//! assert_eq!(refused.code, ErrorCode::Throttled);
//! assert_eq!(refused.details["retry_after_seconds"], 12);
//! ```

mod bucket;
pub mod limiter;
mod refusal;
pub mod tiers;

pub use limiter::{Throttle, rate_class};
pub use tiers::{ThrottleConfig, ThrottleTier, ThrottleTiers, TierError};

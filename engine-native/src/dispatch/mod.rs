//! The dispatch pipeline: every tool call, from every transport, passes through
//! [`Dispatcher::call`], which takes these steps in this order, with the semantics of the
//! original system. The numbers and names are [`crate::telemetry::spans::Gate`]'s, the same
//! in the code, the spans and `docs/architecture.md` (a test holds them together):
//!
//! 1. `lookup`: the tool by name and visibility; unregistered, hidden and disabled tools all
//!    answer `not_found`;
//! 2. `args_hash` (engine-core) over the name and the arguments without `elicit_token`;
//! 3. `validate`: the arguments against the tool's JSON Schema (`validation_error`, every
//!    issue);
//! 4. `scopes`: the caller's scopes (`forbidden` with `details.required`);
//! 5. `vault`: the binding: the `vault` argument, else the caller's bound vault, else the
//!    first;
//! 6. `precheck`: the vault's read-only kill switch for mutating tools (`read_only_mode`),
//!    then the tool's own precheck;
//! 7. `idempotency`: the claim of an idempotency key (replay, `idempotency_in_flight`,
//!    `idempotency_key_mismatch`, `indeterminate`);
//! 8. `throttle`: the caller's rate limit (`throttled`);
//! 9. `hitl`: a human's approval of a destructive call (`elicit_required`, `elicit_invalid`);
//! 10. `acl`: the folder ACL on each declared path argument (`acl_denied`, `path_invalid`);
//! 11. `handler`: the tool, with a [`crate::runtime::ToolContext`], inside the undo journal's
//!     recording (`vault::journal`) and, for a mutating tool, the per-note write queue
//!     (`vault::queue`); the vault refuses a change from another thread (`outside_call`);
//! 12. `changes`: each file the handler changed is kept as it was before (snapshots, undo)
//!     and re-read into the search index;
//! 13. `governor`: the result's byte limit (`overflow`);
//! 14. `record`: the idempotency record (completed, released or left `indeterminate`), the
//!     metrics, the audit log's `event_log` row, a line in the trace of the caller's open
//!     session in the vault, if any, the call's work-memory episode and, for a ranked search
//!     that answered, its row of the retrieval log.
//!
//! With span export on ([`crate::telemetry`]), each call is a trace of its own: a root span
//! named after the tool, a child per step that can refuse (all but `args_hash`, `changes`
//! and `record`), and children for the index refresh and embedding.
//!
//! A failure before the handler releases an idempotency claim; a handler failure after
//! [`crate::runtime::ToolContext::mark_effect_started`], or an overflow, leaves it
//! `indeterminate`.
//!
//! The state the calls share (store, indexes, configuration, tools, vaults) is the
//! [`crate::runtime::Runtime`] the dispatcher holds; what the tools are is
//! [`register_builtin`]'s.
//!
//! # Where `Dispatcher`'s methods are
//!
//! - `dispatcher.rs`: [`Dispatcher`], [`Dispatcher::new`], [`Dispatcher::runtime`],
//!   [`register_builtin`];
//! - `pipeline.rs`: [`Dispatcher::call`], [`Dispatcher::call_from_client`] (with what an MCP
//!   client brings: progress reports, its model), [`Dispatcher::call_confirmed`] (with a confirmation): steps 1 to 11, 13, 14;
//! - `changes.rs` (step 12: snapshots), `reindex.rs` (step 12: the index refresh),
//!   `session_trace.rs` (step 14: the session trace line), `episode.rs` (step 14: the
//!   work-memory episode), `retrieval_log.rs` (step 14: the retrieval log of a ranked search).

mod changes;
pub mod dispatcher;
mod episode;
#[cfg(feature = "output-schema-check")]
mod output_check;
pub mod pipeline;
mod reindex;
mod retrieval_log;
mod session_trace;

pub use dispatcher::{Dispatcher, builtin_tools, register_builtin};
pub use pipeline::{CallOutcome, ClientSide};

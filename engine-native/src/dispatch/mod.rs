//! The dispatch pipeline: every tool call, from every transport, passes through
//! [`Dispatcher::call`], which applies the gates in the order of ARCHITECTURE §3 with the
//! semantics of the original (`shared/reference/obsidian-tc-v1.md` §2.1–§2.8):
//!
//! 1. lookup + visibility — unregistered, hidden and disabled tools all answer `not_found`;
//! 2. `args_hash` (engine-core) over the name and the arguments without `elicit_token`;
//! 3. input validation against the tool's JSON Schema — `validation_error`, every issue;
//! 4. scopes — `forbidden` with `details.required`;
//! 5. vault binding — the `vault` argument, else the caller's bound vault, else the first;
//! 6. the vault's read-only kill switch for mutating tools (`read_only_mode`), the precheck;
//! 7. idempotency claim (replay / `idempotency_in_flight` / `idempotency_key_mismatch` /
//!    `indeterminate`), throttle (`throttled`), HITL gate (`elicit_required`, `elicit_invalid`);
//! 8. the folder ACL on each declared path argument (`acl_denied`, `path_invalid`);
//! 9. the handler, with a [`crate::runtime::ToolContext`], recorded: each file it changes is
//!    snapshotted as it was before (undo), and re-read into the search index;
//! 10. the byte governor (`overflow`), the idempotency record, metrics and an `event_log` row,
//!     and a line in the trace of the caller's open session in the vault, if any.
//!
//! With span export on ([`crate::telemetry`]), each call is a trace of its own: a root span
//! named after the tool, a child per gate, and children for the index refresh and embedding.
//!
//! A pre-handler failure releases an idempotency claim; a handler failure after
//! [`crate::runtime::ToolContext::mark_effect_started`], or an overflow, leaves it
//! `indeterminate`.
//!
//! The state the calls share (store, indexes, configuration, tools, vaults) is the
//! [`crate::runtime::Runtime`] the dispatcher holds; what the tools are is
//! [`register_builtin`]'s.

mod changes;
pub mod dispatcher;
#[cfg(feature = "output-schema-check")]
mod output_check;
pub mod pipeline;
mod reindex;
mod session_trace;

pub use dispatcher::{Dispatcher, builtin_tools, register_builtin};
pub use pipeline::CallOutcome;

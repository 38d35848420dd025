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
//! 9. the handler, with a [`ToolContext`], recorded: each file it changes is snapshotted as
//!    it was before (undo), and re-read into the search index;
//! 10. the byte governor (`overflow`), the idempotency record, metrics and an `event_log` row.
//!
//! A pre-handler failure releases an idempotency claim; a handler failure after
//! [`ToolContext::mark_effect_started`], or an overflow, leaves it `indeterminate`.
//!
//! What a reload can change (configuration, tool visibility, vaults) is one [`Served`]
//! snapshot that each call takes once when it starts; [`Dispatcher::reload`] swaps in a new
//! one for later calls.
//!
//! Tools are declared as [`ToolDef`]s and registered in a [`Registry`]; the transports
//! produce a [`Caller`] and never show tools a token.

mod approval;
pub mod caller;
mod changes;
pub mod clock;
pub mod context;
pub mod dispatcher;
mod freshness;
mod maintenance;
pub mod metrics;
pub mod pipeline;
pub mod progress;
pub mod registry;
pub mod reload;
pub mod tool;
pub(crate) mod validation;

pub(crate) use approval::store_fault;
pub use caller::Caller;
pub use clock::{Clock, ManualClock, SystemClock};
pub use context::ToolContext;
pub use dispatcher::{Dispatcher, Served, StartError, VaultEntry};
pub use metrics::{CallCount, Metrics, MetricsSnapshot};
pub use pipeline::{CallOutcome, ELICIT_TOKEN_ARG, IDEMPOTENCY_KEY_ARG, VAULT_ARG};
pub use progress::Progress;
pub use registry::{Registry, RegistryError, Visibility};
pub use reload::{RELOADED_KEYS, ReloadReport};
pub use tool::{Annotations, Handler, Naming, PathArg, Precheck, Schemas, Tool, ToolDef};

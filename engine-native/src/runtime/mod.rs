//! The runtime the tools run in: the tool contract and the state every call shares.
//!
//! - [`tool`]: what a tool declares ([`ToolDef`]) and the predicates the gates and the
//!   annotations derive from ([`Tool`]); [`registry`]: the registered tools and who sees
//!   which (`toolVisibility`); [`core_tools`]: the tools of the `core` profile.
//! - [`context`]: [`ToolContext`], what a handler may use during one call.
//! - [`state`]: [`Runtime`], the store, indexes, companions, governor, clock and counters;
//!   [`served`]: the configuration, tools and vaults a call takes when it starts.
//! - [`reload`]: the configuration read again and swapped in for later calls;
//!   [`add_vault`]: one more vault written to the config file, then reloaded.
//! - `approval`: a human's approval of one exact call (HITL), consumed once.
//! - [`retention`]: the configured retention applied (one sweep of the cache database and of
//!   the session traces).
//! - [`catalog_vectors`]: the tool catalog's embeddings, for `find_capability`.
//! - [`passes`]: the offline passes over derived tables (contradictions, note quality), run
//!   for the server itself or by their tools.
//! - [`clock`], [`metrics`], [`progress`]: the time source, the call counters and Prometheus
//!   metrics, and progress reports of long calls.
//!
//! [`Runtime`] is declared in `state.rs` (its parts: [`Runtime::open`], [`Runtime::served`],
//! [`Runtime::store`], [`Runtime::indexes`], ...); the methods of one concern live with it:
//! `reload.rs` ([`Runtime::reload`]), `add_vault.rs` ([`Runtime::add_vault`]), `retention.rs` ([`Runtime::sweep_cache`],
//! [`Runtime::sweep_traces`], [`Runtime::trace_retention_cutoff`], [`Runtime::episode_cutoff`]), `approval.rs` (`obtain_approval`, the HITL gate's state), `passes.rs`
//! ([`Runtime::detect_contradictions`], [`Runtime::measure_notes`]),
//! `metrics/exposition.rs` ([`Runtime::metrics_text`]) and `metrics/from_cache.rs`
//! ([`Runtime::cache_metrics_text`]).
//!
//! The dispatch pipeline above runs each call against a [`Runtime`]; the tools below it see
//! only their [`ToolContext`]. The transports produce a [`crate::auth::Caller`] and never
//! show tools a token.

pub mod add_vault;
mod approval;
pub mod catalog_vectors;
pub mod clock;
pub mod context;
pub mod core_tools;
mod endpoint_judge;
pub mod metrics;
pub mod passes;
pub mod progress;
pub mod registry;
pub mod reload;
pub mod retention;
pub mod served;
pub mod state;
pub mod tool;

pub(crate) use approval::{Approval, ApprovalFor};
pub use catalog_vectors::{CatalogDocument, CatalogSet, CatalogVectors};
pub use clock::{Clock, ManualClock, SystemClock};
pub use context::ToolContext;
pub use metrics::{
    CallCount, CallRecord, HitlResult, Metrics, MetricsSnapshot, OK_CODE, UNREGISTERED_TOOL,
    call_labels,
};
pub use progress::Progress;
pub use registry::{Registry, RegistryError, Visibility};
pub use reload::{RELOADED_KEYS, ReloadReport};
pub use served::{Served, StartError, VaultEntry};
pub use state::Runtime;
pub use tool::{
    Annotations, ELICIT_TOKEN_ARG, Handler, IDEMPOTENCY_KEY_ARG, Naming, PathArg, Precheck,
    Schemas, Tool, ToolDef, VAULT_ARG,
};

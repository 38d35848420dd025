//! The tool facade (`toolFacade.mode`, v1 §1.5, seed 002 §1–§2): how the catalog is
//! presented to MCP clients, never what a call may do.
//!
//! - `triad` (default): `find_capability` (BM25F over the caller-visible catalog, fused
//!   with embedding similarity when a model is loaded),
//!   `describe_capability` (one tool's schemas, annotations and help), `call_read_capability`
//!   (`{name, arguments}`, read-only tools only, `readOnlyHint` true) and `call_capability`
//!   (`{name, arguments}`, any tool).
//! - `domain`: one tool per domain taking `{action, args}`, plus `call_read_capability` and
//!   `describe_capability`.
//! - `flat`: every visible tool by itself.
//!
//! Every tool stays callable by name in every mode, and the envelopes (`call_capability`,
//! `call_read_capability`, the domain tools) are callable in every mode too. An envelope is unwrapped by
//! [`resolve_envelope`] at the start of [`crate::dispatch::Dispatcher::call`], so the inner
//! tool runs through the one pipeline under its own name and arguments: the same gates, the
//! same `args_hash` (an approval given for one path authorises exactly the same call on the
//! other), the same audit row.

mod catalog;
mod describe;
mod domains;
mod envelope;
mod find;
mod meaning;

pub use catalog::{CatalogMatch, rank_catalog};
pub(crate) use domains::catalog_tools;
pub use domains::domain_actions;
pub use envelope::resolve_envelope;
pub(crate) use envelope::{call_capability_schema, domain_schema};

use crate::runtime::{Tool, ToolDef};

/// The domain of the facade's own registered tools (`find_capability`,
/// `describe_capability`): not a domain tool, not part of the searched catalog.
pub const FACADE_DOMAIN: &str = "facade";

/// The meta-tool that ranks the catalog for a query.
pub const FIND_CAPABILITY: &str = "find_capability";

/// The meta-tool that describes one tool.
pub const DESCRIBE_CAPABILITY: &str = "describe_capability";

/// The envelope that calls one tool by name: `{name, arguments}`.
pub const CALL_CAPABILITY: &str = "call_capability";

/// The envelope that calls one read-only tool by name, `{name, arguments}`, and refuses any
/// tool that changes something: its `readOnlyHint` is true, so a client may approve it
/// without asking.
pub const CALL_READ_CAPABILITY: &str = "call_read_capability";

/// Whether [`CALL_READ_CAPABILITY`] runs `tool`: its annotations say `readOnlyHint` and not
/// `destructiveHint` (`reset_vault_cache` changes no note but drops cache rows, so it is
/// left to [`CALL_CAPABILITY`]).
pub fn reads_only(tool: &Tool) -> bool {
    let hints = tool.annotations();
    hints.read_only_hint && !hints.destructive_hint
}

/// The envelope to call `tool` through: [`CALL_READ_CAPABILITY`] when it [`reads_only`],
/// else [`CALL_CAPABILITY`].
pub fn call_envelope_for(tool: &Tool) -> &'static str {
    if reads_only(tool) {
        CALL_READ_CAPABILITY
    } else {
        CALL_CAPABILITY
    }
}

/// The facade's registered tools (`find_capability`, `describe_capability`).
pub fn tools() -> Vec<ToolDef> {
    vec![find::tool(), describe::tool()]
}

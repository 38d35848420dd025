//! The companion client: how the native server talks to TC Bridge, the Obsidian plugin of a
//! vault (Companion API v1, `docs/architecture.md`).
//!
//! - [`contract`]: the Companion API contract (routes, endpoints, error codes), generated from
//!   `contract/companion-api.json`, the file TC Bridge imports too.
//! - [`probe`](mod@probe): `GET /obsidian-tc/v1/probe` (also used by `doctor`), the API-version check.
//! - [`state`]: the capability snapshot of a vault ([`CompanionState`]) and its report.
//! - [`client`]: [`VaultCompanion`], one vault's companion: its snapshot and route calls.
//! - [`plugin_data`]: TC Bridge's settings file in a vault (its port and token).
//! - [`discovery`]: a vault's companion found through that file, read again when it changes.
//! - [`registry`]: [`Companions`], every vault's companion (configured or found), probed at
//!   start off the start-up path.
//! - [`errors`]: `plugin_missing`, `plugin_unreachable`, `plugin_incompatible` and TC Bridge's
//!   own errors as tool errors.
//! - [`confirm`]: human approval of a call held at the HITL gate through TC Bridge's dialog.

pub mod client;
pub mod confirm;
pub mod contract;
pub mod discovery;
pub mod errors;
pub mod plugin_data;
pub mod probe;
pub mod registry;
pub mod state;

pub use client::{CallFailure, VaultCompanion};
pub use discovery::Absent;
pub use errors::Needs;
pub use probe::{COMPANION_API_VERSION, Probe, ProbeError, probe};
pub use registry::Companions;
pub use state::{CapabilityReport, CompanionState, CompanionStatus};

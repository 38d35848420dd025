//! The companion client: how the native server talks to TC Bridge, the Obsidian plugin of a
//! vault (Companion API v1, ARCHITECTURE §4). For now the probe, which `doctor` uses to tell a
//! user whether the plugin is reachable, answers with the right token and speaks our API.

pub mod probe;

pub use probe::{COMPANION_API_VERSION, Probe, ProbeError, probe};

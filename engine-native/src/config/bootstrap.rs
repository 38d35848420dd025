//! A vault's `bootstrap` section: the routing table `session_bootstrap` triages an opening
//! message with (domains with their signals and paths, the phrases that ask for a deep
//! start, the paths a deep start loads, how many notes at most), and the hand-off note the
//! bootstrap tools read first.
//!
//! It is a vault's own (`vaults[].bootstrap`), not a root section: its paths name that
//! vault's notes and folders, which another vault does not have.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The hand-off note when the vault names none (at the vault's root).
pub const DEFAULT_HANDOFF_NOTE: &str = "_next-session.md";

/// The phrases that ask for a deep start when the vault configures none.
pub const DEFAULT_DEEP_PHRASES: &[&str] = &[
    "where did we leave off",
    "where were we",
    "catch me up",
    "pick up where",
    "continue where",
    "what were we working on",
    "last session",
];

/// The routing table of `session_bootstrap` and the hand-off note of one vault
/// (`vaults[].bootstrap`). A path is a note when it ends in `.md`; any other path is a
/// folder, whose notes (in it and below) are loaded newest first while `maxPaths` has room.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct BootstrapConfig {
    /// The domains of work: an opening message naming one of a domain's signals loads its
    /// paths (a standard start).
    pub domains: Vec<BootstrapDomain>,
    /// Phrases (matched case-insensitively anywhere in the message) that ask for a deep
    /// start; the defaults are phrases such as "where did we leave off" and "catch me up".
    pub deep_phrases: Vec<String>,
    /// The paths a deep start loads (one is asked for by a deep phrase, or by a message
    /// matching three or more domains).
    pub deep_paths: Vec<String>,
    /// The most notes one bootstrap loads, the hand-off note included.
    #[schemars(range(min = 1, max = 50))]
    pub max_paths: usize,
    /// The vault-relative hand-off note a session leaves for the next one: read first by
    /// `session_bootstrap` and by `vault_context` in `bootstrap` mode.
    #[schemars(length(min = 1, max = 1024))]
    pub handoff_note: String,
}

impl Default for BootstrapConfig {
    fn default() -> BootstrapConfig {
        BootstrapConfig {
            domains: Vec::new(),
            deep_phrases: DEFAULT_DEEP_PHRASES
                .iter()
                .map(|phrase| (*phrase).to_owned())
                .collect(),
            deep_paths: Vec::new(),
            max_paths: 10,
            handoff_note: DEFAULT_HANDOFF_NOTE.to_owned(),
        }
    }
}

/// One domain of work in the routing table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BootstrapDomain {
    /// The domain's name, as `matched_domains` reports it.
    #[schemars(length(min = 1, max = 200))]
    pub name: String,
    /// Words or phrases that, found in the opening message (case-insensitively, as whole
    /// words), say the session is about this domain.
    pub signals: Vec<String>,
    /// The notes and folders a session about this domain starts with.
    pub paths: Vec<String>,
}

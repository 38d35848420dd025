//! The work memory (`work`): whether each tool call is kept as an episode of its caller's
//! work, whether its arguments are kept with it, and how long and how many episodes are kept.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The episodes of the work memory (one per tool call bound to a vault, per caller), kept in
/// the cache database and read by the `work_*` tools.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct WorkConfig {
    /// Keep one episode per tool call (tool, outcome, duration, args hash, the files it
    /// changed). Off: nothing new is kept; the episodes already kept stay readable.
    pub capture_episodes: bool,
    /// Keep each call's arguments with its episode, credentials redacted and cut at 4096
    /// bytes. Off: an episode holds the args hash, never what a call wrote.
    pub capture_arguments: bool,
    /// Episodes older than this many days are deleted by the maintenance sweep (and never
    /// shown before it runs).
    #[schemars(range(min = 1, max = 36500))]
    pub retention_days: u64,
    /// The most episodes kept, over every vault: the sweep deletes the oldest beyond it.
    #[schemars(range(min = 1000))]
    pub max_episodes: u64,
}

impl Default for WorkConfig {
    fn default() -> WorkConfig {
        WorkConfig {
            capture_episodes: true,
            capture_arguments: false,
            retention_days: 30,
            max_episodes: 200_000,
        }
    }
}

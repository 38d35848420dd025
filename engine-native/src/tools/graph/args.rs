//! The arguments of the graph tools.

use schemars::JsonSchema;
use serde::Deserialize;

use super::view::EdgeKind;

/// Which links a walk follows from a note.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(super) enum Direction {
    /// Links the note writes.
    Out,
    /// Links written to the note (backlinks).
    In,
    /// Both.
    #[default]
    Both,
}

/// The arguments of `graph_path_between`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct PathBetween {
    /// The note the chain starts at (vault-relative path with `.md`).
    #[schemars(length(min = 1, max = 1024))]
    pub from: String,
    /// The note the chain ends at.
    #[schemars(length(min = 1, max = 1024))]
    pub to: String,
    /// `out` follows links as written, `in` backwards, `both` either way (default).
    #[serde(default)]
    pub direction: Direction,
    /// The longest chain looked for, in links (1-12, default 6).
    #[serde(default = "default_max_hops")]
    #[schemars(range(min = 1, max = 12))]
    pub max_hops: usize,
}

/// The arguments of `graph_neighbors`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Neighbors {
    /// The note to start from.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// How many links away (1-3, default 1).
    #[serde(default = "one")]
    #[schemars(range(min = 1, max = 3))]
    pub hops: usize,
    /// `out`, `in` or `both` (default).
    #[serde(default)]
    pub direction: Direction,
    /// Follow only these kinds of link (default: all).
    #[serde(default)]
    pub kinds: Option<Vec<EdgeKind>>,
    /// The most notes returned (1-1000, default 200).
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: usize,
}

/// The arguments of `find_link_cycles`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct FindCycles {
    /// The shortest cycle looked for, in notes (2-8, default 2: two notes linking each
    /// other count).
    #[serde(default = "two")]
    #[schemars(range(min = 2, max = 8))]
    pub min_length: usize,
    /// The longest cycle looked for, in notes (2-8, default 5).
    #[serde(default = "default_cycle_length")]
    #[schemars(range(min = 2, max = 8))]
    pub max_length: usize,
    /// The most cycles returned (1-1000, default 100).
    #[serde(default = "default_cycle_limit")]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: usize,
}

/// The arguments of `get_link_strength`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct LinkStrength {
    /// One note.
    #[schemars(length(min = 1, max = 1024))]
    pub a: String,
    /// The other note.
    #[schemars(length(min = 1, max = 1024))]
    pub b: String,
}

/// The arguments of `suggest_links`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct SuggestLinks {
    /// The note to find links for.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// The most suggestions (1-100, default 10).
    #[serde(default = "ten")]
    #[schemars(range(min = 1, max = 100))]
    pub limit: usize,
}

/// Which centrality `graph_centrality` ranks by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(super) enum Measure {
    /// PageRank (damping 0.85) over the links as written.
    #[default]
    Pagerank,
    /// Links in plus links out.
    Degree,
}

/// The arguments of `graph_centrality`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Centrality {
    /// `pagerank` (default) or `degree`.
    #[serde(default)]
    pub measure: Measure,
    /// The most notes returned, best first (1-1000, default 20).
    #[serde(default = "twenty")]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: usize,
}

/// The arguments of `graph_communities`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct Communities {
    /// The smallest community listed (1-1000, default 2: notes linked to nothing are left out).
    #[serde(default = "two")]
    #[schemars(range(min = 1, max = 1000))]
    pub min_size: usize,
    /// The most communities returned, largest first (1-1000, default 50).
    #[serde(default = "fifty")]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: usize,
    /// The most member paths listed per community (1-1000, default 100).
    #[serde(default = "default_limit_members")]
    #[schemars(range(min = 1, max = 1000))]
    pub max_members: usize,
}

/// The arguments of `vault_health_score`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct HealthScore {
    /// The most orphan paths listed as examples (0-100, default 10).
    #[serde(default = "ten")]
    #[schemars(range(min = 0, max = 100))]
    pub examples: usize,
}

fn default_max_hops() -> usize {
    6
}
fn one() -> usize {
    1
}
fn two() -> usize {
    2
}
fn ten() -> usize {
    10
}
fn twenty() -> usize {
    20
}
fn fifty() -> usize {
    50
}
fn default_limit() -> usize {
    200
}
fn default_limit_members() -> usize {
    100
}
fn default_cycle_length() -> usize {
    5
}
fn default_cycle_limit() -> usize {
    100
}

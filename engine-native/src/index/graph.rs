//! GraphRAG ranking: the notes a query ranks best (the seeds) expanded over the links
//! between notes, both ways (outgoing links and backlinks), then the seed ranking and the
//! expansion ranking fused with engine-core's weighted Reciprocal Rank Fusion.
//!
//! The edges are the vault's resolved link table's ([`LinkTable`]: Obsidian's resolution over
//! every file), every kind counts (wikilinks, embeds, markdown links, frontmatter links), and
//! a link to a file that is not an indexed note is no edge. A walk only enters
//! notes `allowed` admits, so a note the caller may not read is never returned and never
//! connects two notes it links.
//!
//! A note reached from seed `s` (1-based rank `r_s`) in `h` hops gets proximity
//! `Σ_s DECAY^(h-1) / r_s`; the expansion ranking orders the reached notes by it.

use std::collections::{HashMap, HashSet, VecDeque};

use engine_core::rank::{RankedList, rrf};

use super::links::LinkTable;
use super::retrieve::{NoteHit, Retrieval, Retriever};
use super::semantic::SemanticError;

/// The most hops a walk may take.
pub const MAX_HOPS: usize = 3;

/// How much a note's proximity shrinks with each hop past the first.
pub const DECAY: f64 = 0.5;

/// The weight of the seed ranking in the fusion.
pub const SEED_WEIGHT: f64 = 1.0;

/// The weight of the expansion ranking in the fusion.
pub const EXPANSION_WEIGHT: f64 = 1.0;

/// The RRF constant fusing the seed and the expansion rankings (the customary 60).
pub const RRF_K: f64 = 60.0;

/// The most notes one seed's walk visits (a hub note cannot flood the ranking).
pub const MAX_REACHED_PER_SEED: usize = 500;

/// The most link paths kept per result.
pub const MAX_VIA: usize = 3;

/// The resolved links between the indexed notes of a vault, both ways: the note-to-note
/// edges of the vault's [`LinkTable`] (a link to an attachment, an unresolved link and a
/// note's link to itself are no edge), built once per table by [`LinkTable::graph`].
#[derive(Debug, Default)]
pub struct LinkGraph {
    outgoing: HashMap<String, Vec<String>>,
    backlinks: HashMap<String, Vec<String>>,
}

impl LinkGraph {
    /// The note-to-note edges of `table`.
    pub fn of(table: &LinkTable) -> LinkGraph {
        let is_note = |path: &str| {
            table
                .notes()
                .binary_search_by(|note| note.as_str().cmp(path))
                .is_ok()
        };
        let mut outgoing: HashMap<String, Vec<String>> = HashMap::new();
        let mut backlinks: HashMap<String, Vec<String>> = HashMap::new();
        for link in table.all() {
            let Some(target) = link.resolved.as_deref() else {
                continue;
            };
            if target == link.source || !is_note(target) || !is_note(&link.source) {
                continue;
            }
            outgoing
                .entry(link.source.clone())
                .or_default()
                .push(target.to_owned());
            backlinks
                .entry(target.to_owned())
                .or_default()
                .push(link.source.clone());
        }
        for list in outgoing.values_mut().chain(backlinks.values_mut()) {
            list.sort_unstable();
            list.dedup();
        }
        LinkGraph {
            outgoing,
            backlinks,
        }
    }

    /// The notes `path` links to, sorted.
    pub fn outgoing(&self, path: &str) -> &[String] {
        self.outgoing.get(path).map_or(&[], Vec::as_slice)
    }

    /// The notes that link to `path`, sorted.
    pub fn backlinks(&self, path: &str) -> &[String] {
        self.backlinks.get(path).map_or(&[], Vec::as_slice)
    }

    /// The notes linked with `path` either way, sorted, each once.
    fn neighbours(&self, path: &str) -> Vec<&str> {
        let mut all: Vec<&str> = self
            .outgoing(path)
            .iter()
            .chain(self.backlinks(path))
            .map(String::as_str)
            .collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

/// How a graph ranking runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GraphQuery {
    /// How the seeds are ranked.
    pub how: Retrieval,
    /// How many seeds the walk starts from.
    pub seeds: usize,
    /// How many links a walk follows from a seed (at most [`MAX_HOPS`]).
    pub hops: usize,
}

/// How a note was reached: from which seed, along which notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Via {
    /// The seed the walk started from.
    pub seed: String,
    /// The notes walked, from the seed to the reached note, both included.
    pub path: Vec<String>,
}

/// One note of a graph ranking.
#[derive(Debug, Clone, PartialEq)]
pub struct GraphHit {
    /// The note's path.
    pub path: String,
    /// The fused score (higher is better).
    pub score: f64,
    /// Hops from the nearest seed (0 for a seed).
    pub hop: usize,
    /// Its seed ranking, when it is a seed: its place (1-based) and its hit.
    pub seed: Option<(usize, NoteHit)>,
    /// Its proximity to the other seeds through links (0 when no walk reached it).
    pub proximity: f64,
    /// The walks that reached it, nearest seed first (at most [`MAX_VIA`]).
    pub via: Vec<Via>,
}

/// What the walks found for one note.
#[derive(Debug, Default)]
struct Reached {
    hop: usize,
    proximity: f64,
    via: Vec<(usize, Via)>,
}

/// The first `wanted` notes for `query`: `query.seeds` seeds from `retriever`, expanded over
/// `graph` for `query.hops` hops through notes `retriever.allowed` admits, both rankings
/// fused by RRF. Best first.
pub fn graph_notes(
    retriever: &Retriever<'_>,
    graph: &LinkGraph,
    query: &str,
    how: GraphQuery,
    wanted: usize,
) -> Result<Vec<GraphHit>, SemanticError> {
    let seeds = retriever.notes(how.how, query, how.seeds)?;
    let hops = how.hops.min(MAX_HOPS);
    let mut reached: HashMap<String, Reached> = HashMap::new();
    for (rank0, seed) in seeds.iter().enumerate() {
        walk(
            graph,
            &seed.path,
            hops,
            retriever.allowed,
            &mut |path, hop, trail| {
                let entry = reached.entry(path.to_owned()).or_insert(Reached {
                    hop,
                    ..Reached::default()
                });
                entry.hop = entry.hop.min(hop);
                entry.proximity +=
                    DECAY.powi(i32::try_from(hop - 1).unwrap_or(i32::MAX)) / (rank0 + 1) as f64;
                entry.via.push((
                    hop,
                    Via {
                        seed: seed.path.clone(),
                        path: trail,
                    },
                ));
            },
        );
    }
    let mut expansion: Vec<(&String, &Reached)> = reached.iter().collect();
    expansion.sort_by(|a, b| b.1.proximity.total_cmp(&a.1.proximity).then(a.0.cmp(b.0)));
    let lists = [
        RankedList {
            weight: SEED_WEIGHT,
            ids: seeds.iter().map(|hit| hit.path.clone()).collect(),
        },
        RankedList {
            weight: EXPANSION_WEIGHT,
            ids: expansion.iter().map(|(path, _)| (*path).clone()).collect(),
        },
    ];
    let Ok(fused) = rrf(&lists, RRF_K) else {
        // The weights and k are constants engine-core accepts.
        unreachable!("engine-core refused the graph fusion's constant weights");
    };
    let mut seed_of: HashMap<String, (usize, NoteHit)> = seeds
        .into_iter()
        .enumerate()
        .map(|(rank0, hit)| (hit.path.clone(), (rank0 + 1, hit)))
        .collect();
    Ok(fused
        .into_iter()
        .take(wanted)
        .map(|fused| {
            let seed = seed_of.remove(&fused.id);
            let found = reached.remove(&fused.id).unwrap_or_default();
            let mut via = found.via;
            // Seeds in walk order are already by seed rank; nearest first, stable.
            via.sort_by_key(|(hop, _)| *hop);
            via.truncate(MAX_VIA);
            GraphHit {
                hop: if seed.is_some() { 0 } else { found.hop },
                path: fused.id,
                score: fused.score,
                seed,
                proximity: found.proximity,
                via: via.into_iter().map(|(_, via)| via).collect(),
            }
        })
        .collect())
}

/// Breadth-first walk from `start` over links both ways, up to `hops` links, entering only
/// notes `allowed` admits; `visit(path, hop, trail)` for each note reached (not `start`),
/// `trail` the notes walked from `start` to it. Stops after [`MAX_REACHED_PER_SEED`] notes.
fn walk(
    graph: &LinkGraph,
    start: &str,
    hops: usize,
    allowed: &dyn Fn(&str) -> bool,
    visit: &mut dyn FnMut(&str, usize, Vec<String>),
) {
    let mut parent: HashMap<&str, &str> = HashMap::new();
    let mut seen: HashSet<&str> = HashSet::from([start]);
    let mut queue: VecDeque<(&str, usize)> = VecDeque::from([(start, 0)]);
    while let Some((note, hop)) = queue.pop_front() {
        if hop == hops {
            continue;
        }
        for next in graph.neighbours(note) {
            if seen.len() > MAX_REACHED_PER_SEED {
                return;
            }
            if !allowed(next) || !seen.insert(next) {
                continue;
            }
            parent.insert(next, note);
            visit(next, hop + 1, trail(&parent, start, next));
            queue.push_back((next, hop + 1));
        }
    }
}

/// The notes from `start` to `end` along `parent` links, both included.
fn trail(parent: &HashMap<&str, &str>, start: &str, end: &str) -> Vec<String> {
    let mut path = vec![end.to_owned()];
    let mut at = end;
    while at != start {
        let Some(up) = parent.get(at) else { break };
        path.push((*up).to_owned());
        at = up;
    }
    path.reverse();
    path
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::LinkDetailRow;

    fn link(source: &str, target: &str) -> LinkDetailRow {
        LinkDetailRow {
            source: source.to_owned(),
            kind: "wikilink".to_owned(),
            target: target.to_owned(),
            subpath: None,
            line: 1,
        }
    }

    /// The graph of `notes` (every file but `extra`) with `links`.
    fn graph_of(notes: &[String], extra: &[&str], links: Vec<LinkDetailRow>) -> LinkGraph {
        let files: Vec<String> = notes.iter().cloned().chain(paths(extra)).collect();
        LinkGraph::of(&LinkTable::build(&files, notes.to_vec(), links))
    }

    fn paths(list: &[&str]) -> Vec<String> {
        list.iter().map(|p| (*p).to_owned()).collect()
    }

    #[test]
    fn links_resolve_like_obsidian_and_go_both_ways() {
        let notes = paths(&["A.md", "C.md", "other/B.md", "sub/B.md"]);
        let graph = graph_of(
            &notes,
            &["pic.png"],
            vec![
                link("A.md", "sub/B"),
                link("A.md", "c"),
                link("A.md", "A"),
                link("A.md", "missing"),
                link("A.md", "pic.png"),
                link("sub/C.md", "A"),
            ],
        );
        assert_eq!(
            graph.outgoing("A.md"),
            ["C.md", "sub/B.md"],
            "an attachment is resolved but is no edge"
        );
        assert_eq!(graph.backlinks("sub/B.md"), ["A.md"]);
        assert!(graph.backlinks("other/B.md").is_empty());
        assert_eq!(graph.neighbours("C.md"), ["A.md"]);
    }

    #[test]
    fn a_walk_stops_at_hops_and_never_enters_a_refused_note() {
        let notes = paths(&["a.md", "b.md", "c.md", "d.md", "x.md", "y.md"]);
        let graph = graph_of(
            &notes,
            &[],
            vec![
                link("a.md", "b"),
                link("c.md", "b"),
                link("c.md", "d"),
                link("x.md", "a"),
                link("x.md", "y"),
            ],
        );
        let allowed = |p: &str| p != "x.md";
        let mut seen = Vec::new();
        walk(&graph, "a.md", 2, &allowed, &mut |path, hop, trail| {
            seen.push((path.to_owned(), hop, trail));
        });
        assert_eq!(
            seen,
            [
                ("b.md".to_owned(), 1, paths(&["a.md", "b.md"])),
                ("c.md".to_owned(), 2, paths(&["a.md", "b.md", "c.md"])),
            ]
        );
    }
}

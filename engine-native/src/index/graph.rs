//! GraphRAG ranking: the query's own note ranking raised by the links between notes. The
//! best notes (the seeds) start a walk over links both ways (outgoing links and backlinks);
//! every note ranked or reached receives the mass of a personalized PageRank seeded by the
//! seeds (weights `1 / rank`, [`super::pagerank`]) through links. A note scores its query
//! score, min-max normalised to `[0, 1]` over the [`CANDIDATES`] ranked, plus
//! `boost · mass / largest mass`: the boost is capped at `boost`, so links reorder close
//! matches but never bury a clear one. In search, a note the query does not rank enters only
//! through the gate: it must share a word with the query (the lexical ranking has it within
//! [`GATE_DEPTH`] notes); an expansion (`vault_graph_search`) ranks only its seeds by the
//! query and takes in every linked note, with [`EXPANSION_BOOST`]. This replaces fusing a link-proximity list by RRF, which
//! obsidian-hybrid-search measured to hurt (MRR 0.874 -> 0.816; peers-2026.md §2.4).
//!
//! The edges are the vault's resolved link table's ([`LinkTable`]: Obsidian's resolution over
//! every file), every kind counts (wikilinks, embeds, markdown links, frontmatter links), and
//! a link to a file that is not an indexed note is no edge. A walk only enters
//! notes `allowed` admits, so a note the caller may not read is never returned and never
//! connects two notes it links.

use std::collections::{HashMap, HashSet, VecDeque};

use super::links::LinkTable;
use super::pagerank::{positions, received_mass};
use super::retrieve::{NoteHit, Retrieval, Retriever, Watch};
use super::semantic::SemanticError;

/// The most hops a walk may take.
pub const MAX_HOPS: usize = 3;

/// How deep the query's own ranking is read: the notes links may reorder.
pub const CANDIDATES: usize = 50;

/// The link boost of an expansion (`vault_graph_search`): a note linked with the best match
/// as strongly as any can rank with it.
pub const EXPANSION_BOOST: f64 = 1.0;

/// How deep the lexical ranking is read for the gate of notes only links reach.
pub const GATE_DEPTH: usize = 1000;

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
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GraphQuery {
    /// How the seeds are ranked.
    pub how: Retrieval,
    /// How many seeds the walk starts from.
    pub seeds: usize,
    /// How many links a walk follows from a seed (at most [`MAX_HOPS`]).
    pub hops: usize,
    /// The largest score links may add (the config's `search.graphBoost` for search).
    pub boost: f64,
    /// How deep the query's own ranking is read (at least `seeds`; [`CANDIDATES`] for
    /// search).
    pub candidates: usize,
    /// Whether a note only links reach must share a word with the query (search), or enters
    /// by its links alone (an expansion: `vault_graph_search`).
    pub gate: bool,
}

impl GraphQuery {
    /// `search_vault`'s mode `graph`: the [`CANDIDATES`] best notes (hybrid with vectors,
    /// else lexical), the 5 best seeding a one-hop walk, links adding up to `boost`, a note
    /// only links reach entering through the gate.
    pub fn search(has_vectors: bool, boost: f64) -> GraphQuery {
        GraphQuery {
            how: if has_vectors {
                Retrieval::Hybrid
            } else {
                Retrieval::Lexical
            },
            seeds: SEARCH_SEEDS,
            hops: 1,
            boost,
            candidates: CANDIDATES,
            gate: true,
        }
    }
}

/// How many of the best notes seed `search_vault`'s mode `graph`.
pub const SEARCH_SEEDS: usize = 5;

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
    /// The score (higher is better): the normalised query score plus the link boost.
    pub score: f64,
    /// Hops from the nearest seed (0 for a seed, and for a ranked note no walk reached).
    pub hop: usize,
    /// Its place (1-based) and hit in the query's own ranking, when it has one.
    pub seed: Option<(usize, NoteHit)>,
    /// The personalized PageRank mass it receives from the seeds through links.
    pub proximity: f64,
    /// The walks that reached it, nearest seed first (at most [`MAX_VIA`]).
    pub via: Vec<Via>,
}

/// What the walks found for one note.
#[derive(Debug, Default)]
struct Reached {
    hop: usize,
    via: Vec<(usize, Via)>,
}

/// The first `wanted` notes for `query`: its ranking by `retriever` (`query.candidates`
/// deep), the first `query.seeds` of them walked over `graph` for `query.hops` hops through notes
/// `retriever.allowed` admits, every note scored as the module says. Best first.
pub fn graph_notes(
    retriever: &Retriever<'_>,
    graph: &LinkGraph,
    query: &str,
    how: GraphQuery,
    wanted: usize,
) -> Result<Vec<GraphHit>, SemanticError> {
    graph_notes_watched(retriever, graph, query, how, wanted, &mut |_, _| {})
}

/// [`graph_notes`], showing `watch` the stages of the query's own ranking as they end (see
/// [`Retriever::notes_watched`]).
pub fn graph_notes_watched(
    retriever: &Retriever<'_>,
    graph: &LinkGraph,
    query: &str,
    how: GraphQuery,
    wanted: usize,
    watch: &mut Watch<'_>,
) -> Result<Vec<GraphHit>, SemanticError> {
    let ranked = retriever.notes_watched(how.how, query, how.candidates.max(how.seeds), watch)?;
    let seeds = &ranked[..how.seeds.min(ranked.len())];
    let hops = how.hops.min(MAX_HOPS);
    let mut reached: HashMap<String, Reached> = HashMap::new();
    for seed in seeds {
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
    let rank_of: HashMap<&str, usize> = ranked
        .iter()
        .enumerate()
        .map(|(at, hit)| (hit.path.as_str(), at))
        .collect();
    // The gate: a note only links reach must share a word with the query.
    let unranked = reached
        .keys()
        .any(|path| !rank_of.contains_key(path.as_str()));
    let gate: HashSet<String> = if how.gate && unranked {
        retriever
            .notes(Retrieval::Lexical, query, GATE_DEPTH)?
            .into_iter()
            .map(|hit| hit.path)
            .collect()
    } else {
        HashSet::new()
    };
    let linked: Vec<String> = reached
        .keys()
        .filter(|path| !rank_of.contains_key(path.as_str()) && (!how.gate || gate.contains(*path)))
        .cloned()
        .collect();
    let mut paths: Vec<&str> = ranked.iter().map(|hit| hit.path.as_str()).collect();
    paths.extend(linked.iter().map(String::as_str));
    paths.sort_unstable();
    let at = positions(&paths);
    let seed_weights: Vec<(usize, f64)> = seeds
        .iter()
        .enumerate()
        .map(|(rank0, seed)| (at[seed.path.as_str()], 1.0 / (rank0 + 1) as f64))
        .collect();
    let mass = received_mass(paths.len(), &seed_weights, &|node| {
        graph
            .neighbours(paths[node])
            .into_iter()
            .filter_map(|next| at.get(next).copied())
            .collect()
    });
    let largest = mass.iter().copied().fold(0.0, f64::max);
    let (low, high) = ranked
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), hit| {
            (lo.min(hit.score), hi.max(hit.score))
        });
    let base = |hit: &NoteHit| {
        if high > low {
            (hit.score - low) / (high - low)
        } else {
            1.0
        }
    };
    let mut scored: Vec<(f64, usize)> = paths
        .iter()
        .enumerate()
        .map(|(node, path)| {
            let query_score = rank_of.get(path).map_or(0.0, |&at| base(&ranked[at]));
            let boost = if largest > 0.0 {
                how.boost * mass[node] / largest
            } else {
                0.0
            };
            (query_score + boost, node)
        })
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(paths[a.1].cmp(paths[b.1])));
    let mut hits: HashMap<&str, (usize, NoteHit)> = ranked
        .iter()
        .enumerate()
        .map(|(rank0, hit)| (hit.path.as_str(), (rank0 + 1, hit.clone())))
        .collect();
    Ok(scored
        .into_iter()
        .take(wanted)
        .map(|(score, node)| {
            let path = paths[node];
            let seed = hits.remove(path);
            let found = reached.remove(path).unwrap_or_default();
            let mut via = found.via;
            // Walks run in seed order, so by seed rank; nearest first, stable.
            via.sort_by_key(|(hop, _)| *hop);
            via.truncate(MAX_VIA);
            GraphHit {
                hop: if seeds.iter().any(|seed| seed.path == path) {
                    0
                } else {
                    found.hop
                },
                path: path.to_owned(),
                score,
                seed,
                proximity: mass[node],
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

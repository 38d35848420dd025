//! Personalized PageRank over a small set of notes: how much of a random walk that keeps
//! returning to the seeds (in proportion to their weights) a note receives through links. A
//! note linked with several good matches receives much; a hub linked with everything shares
//! its mass among all its links. Written here: it is a few lines of power iteration over the
//! notes a query reached, and the graph crates at hand (petgraph) have PageRank without a
//! personalisation vector.

use std::collections::HashMap;

/// The share of each step that returns to the seeds (the rest follows a link).
pub const RESTART: f64 = 0.3;

/// How many power-iteration steps (the mass moved per step shrinks by `1 - RESTART`).
pub const STEPS: usize = 30;

/// The mass each note of `nodes` receives through links, for seeds weighted `seeds` (any
/// positive weights; normalised here), with `neighbours(i)` the indexes in `nodes` linked with
/// node `i` either way. The restart mass is left out, so a seed scores only what other notes
/// pass it. A note without links gives its mass back to the seeds. `nodes` order fixes the
/// summation order: the result is the same for the same input.
pub fn received_mass(
    nodes: usize,
    seeds: &[(usize, f64)],
    neighbours: &dyn Fn(usize) -> Vec<usize>,
) -> Vec<f64> {
    let total: f64 = seeds.iter().map(|(_, weight)| weight).sum();
    if nodes == 0 || total <= 0.0 {
        return vec![0.0; nodes];
    }
    let mut restart = vec![0.0; nodes];
    for (node, weight) in seeds {
        restart[*node] += weight / total;
    }
    let links: Vec<Vec<usize>> = (0..nodes).map(neighbours).collect();
    let mut rank = restart.clone();
    let mut received = vec![0.0; nodes];
    for _ in 0..STEPS {
        received.iter_mut().for_each(|mass| *mass = 0.0);
        let mut lost = 0.0;
        for (node, out) in links.iter().enumerate() {
            let moving = (1.0 - RESTART) * rank[node];
            if out.is_empty() {
                lost += moving;
                continue;
            }
            let share = moving / out.len() as f64;
            for next in out {
                received[*next] += share;
            }
        }
        for node in 0..nodes {
            rank[node] = (RESTART + lost) * restart[node] + received[node];
        }
    }
    received
}

/// The index of each path of `paths` (for building `neighbours`).
pub fn positions<'a>(paths: &[&'a str]) -> HashMap<&'a str, usize> {
    paths
        .iter()
        .enumerate()
        .map(|(at, path)| (*path, at))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_linked_with_two_seeds_receives_more_than_one_linked_with_one() {
        // 0 and 1 are seeds; 2 links with both, 3 with 0 only, 4 with nothing.
        let edges: Vec<Vec<usize>> = vec![vec![2, 3], vec![2], vec![0, 1], vec![0], vec![]];
        let mass = received_mass(5, &[(0, 1.0), (1, 1.0)], &|i| edges[i].clone());
        assert!(mass[2] > mass[3], "{mass:?}");
        assert!(mass[3] > 0.0);
        assert_eq!(mass[4], 0.0);
        // Mass is conserved: what is received never exceeds what moves.
        assert!(mass.iter().sum::<f64>() <= 1.0);
    }

    #[test]
    fn no_seeds_or_no_nodes_give_nothing() {
        assert_eq!(received_mass(0, &[], &|_| vec![]), Vec::<f64>::new());
        assert_eq!(received_mass(2, &[], &|_| vec![1]), vec![0.0, 0.0]);
    }
}

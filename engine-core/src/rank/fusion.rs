//! Fusion of several ranked lists into one: Reciprocal Rank Fusion and normalised score
//! fusion. Arithmetic is in `f64`, lists are processed in input order (so every
//! document's sum has a fixed order), and the output is ranked by score descending, then
//! id ascending (byte order).
//!
//! Common rules: a list whose weight is `0` is ignored entirely; within one list, only the
//! first occurrence of an id counts (later repeats are dropped before anything else, so
//! they take no rank: `[a, a, b]` ranks `b` second); every id present in a list of
//! positive weight is in the output.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use serde::{Deserialize, Serialize};

use super::FixedMap;
use super::topk::rank_order;

/// An id with a score: an input hit of [`fuse_scores`] and an output of both fusions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Hit {
    /// Document id.
    pub id: String,
    /// Score.
    pub score: f64,
}

/// A ranked list of ids (best first) with its weight, input of [`rrf`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RankedList {
    /// Weight of the list, finite and `>= 0`.
    pub weight: f64,
    /// Ids, best first.
    pub ids: Vec<String>,
}

/// A list of scored hits with its weight, input of [`fuse_scores`].
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoredList {
    /// Weight of the list, finite and `>= 0`.
    pub weight: f64,
    /// Hits (in any order); scores must be finite.
    pub hits: Vec<Hit>,
}

/// How [`fuse_scores`] puts each list's scores on a common scale.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Normalization {
    /// `(s - min) / (max - min)`; `1` for every hit when all scores are equal; absent = `0`.
    MinMax,
    /// `(s - mean) / std` (population standard deviation); `0` for every hit when all
    /// scores are equal; absent = the list's lowest normalised score.
    ZScore,
}

/// Why lists could not be fused.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum FusionError {
    /// The RRF constant `k` is NaN, infinite or negative.
    InvalidK(f64),
    /// A list weight is NaN, infinite or negative.
    InvalidWeight {
        /// Position of the list.
        list: usize,
        /// Its weight.
        weight: f64,
    },
    /// A hit score is NaN or infinite.
    NonFiniteScore {
        /// Position of the list.
        list: usize,
        /// Position of the hit in the list.
        index: usize,
    },
    /// A list's scores span more than `f64` can represent, so they cannot be normalised.
    ScoreRangeOverflow {
        /// Position of the list.
        list: usize,
    },
}

impl fmt::Display for FusionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FusionError::InvalidK(k) => write!(f, "k must be finite and >= 0, got {k}"),
            FusionError::InvalidWeight { list, weight } => {
                write!(
                    f,
                    "weight of list {list} must be finite and >= 0, got {weight}"
                )
            }
            FusionError::NonFiniteScore { list, index } => {
                write!(f, "score {index} of list {list} is NaN or infinite")
            }
            FusionError::ScoreRangeOverflow { list } => {
                write!(f, "the scores of list {list} overflow when normalised")
            }
        }
    }
}

/// Checks a list weight.
fn check_weight(list: usize, weight: f64) -> Result<(), FusionError> {
    if weight.is_finite() && weight >= 0.0 {
        Ok(())
    } else {
        Err(FusionError::InvalidWeight { list, weight })
    }
}

/// Accumulates per-id sums in first-seen order.
#[derive(Default)]
struct Accumulator<'a> {
    position: FixedMap<&'a str, usize>,
    sums: Vec<(&'a str, f64)>,
}

impl<'a> Accumulator<'a> {
    /// The slot of `id`, created at `0` if new.
    fn slot(&mut self, id: &'a str) -> usize {
        let next = self.sums.len();
        let at = *self.position.entry(id).or_insert(next);
        if at == next {
            self.sums.push((id, 0.0));
        }
        at
    }

    /// The ranked output.
    fn ranked(self) -> Vec<Hit> {
        let mut sums = self.sums;
        sums.sort_unstable_by(|a, b| rank_order((a.1, a.0), (b.1, b.0)));
        sums.into_iter()
            .map(|(id, score)| Hit {
                id: String::from(id),
                score,
            })
            .collect()
    }
}

/// The positions in `ids` of the first occurrence of each id, in order.
fn first_occurrences<'a, I: Iterator<Item = &'a str>>(ids: I) -> Vec<usize> {
    let mut seen: FixedMap<&str, ()> = FixedMap::default();
    ids.enumerate()
        .filter(|(_, id)| seen.insert(id, ()).is_none())
        .map(|(at, _)| at)
        .collect()
}

/// Weighted Reciprocal Rank Fusion: `score(d) = Σ_l w_l / (k + rank_l(d))` with 1-based
/// ranks among the distinct ids of the list, each term computed as
/// `w_l / (k + rank as f64)` and summed over the lists in input order. Documents absent from a list get nothing from it. `k = 60` is customary.
pub fn rrf(lists: &[RankedList], k: f64) -> Result<Vec<Hit>, FusionError> {
    if !(k.is_finite() && k >= 0.0) {
        return Err(FusionError::InvalidK(k));
    }
    for (i, list) in lists.iter().enumerate() {
        check_weight(i, list.weight)?;
    }
    let mut acc = Accumulator::default();
    for list in lists.iter().filter(|l| l.weight > 0.0) {
        let distinct = first_occurrences(list.ids.iter().map(String::as_str));
        for (rank0, at) in distinct.into_iter().enumerate() {
            let slot = acc.slot(&list.ids[at]);
            acc.sums[slot].1 += list.weight / (k + (rank0 + 1) as f64);
        }
    }
    Ok(acc.ranked())
}

/// One list's normalised scores (first occurrences only) and the value for absent ids.
struct Normalized<'a> {
    scores: FixedMap<&'a str, f64>,
    absent: f64,
}

/// Normalises the deduplicated hits of list `list`.
fn normalize<'a>(
    list: usize,
    hits: &[&'a Hit],
    how: Normalization,
) -> Result<Normalized<'a>, FusionError> {
    let overflow = FusionError::ScoreRangeOverflow { list };
    let mut scores = FixedMap::default();
    if hits.is_empty() {
        return Ok(Normalized {
            scores,
            absent: 0.0,
        });
    }
    match how {
        Normalization::MinMax => {
            let min = hits.iter().map(|h| h.score).fold(f64::INFINITY, f64::min);
            let max = hits
                .iter()
                .map(|h| h.score)
                .fold(f64::NEG_INFINITY, f64::max);
            let range = max - min;
            if !range.is_finite() {
                return Err(overflow);
            }
            for h in hits {
                let n = if range == 0.0 {
                    1.0
                } else {
                    (h.score - min) / range
                };
                scores.insert(h.id.as_str(), n);
            }
            Ok(Normalized {
                scores,
                absent: 0.0,
            })
        }
        Normalization::ZScore => {
            let n = hits.len() as f64;
            let mean = hits.iter().fold(0.0, |s, h| s + h.score) / n;
            let var = hits
                .iter()
                .fold(0.0, |s, h| s + (h.score - mean) * (h.score - mean))
                / n;
            let std = libm::sqrt(var);
            if !(mean.is_finite() && std.is_finite()) {
                return Err(overflow);
            }
            let mut lowest = f64::INFINITY;
            for h in hits {
                let z = if std == 0.0 {
                    0.0
                } else {
                    (h.score - mean) / std
                };
                lowest = lowest.min(z);
                scores.insert(h.id.as_str(), z);
            }
            Ok(Normalized {
                scores,
                absent: lowest,
            })
        }
    }
}

/// Normalised score fusion: each list's scores are normalised (see [`Normalization`]),
/// then combined convexly, `score(d) = Σ_l (w_l / W) · n_l(d)` with `W = Σ_l w_l`, summed
/// over the lists of positive weight in input order (`W` itself summed in that order).
/// An id absent from a list takes that list's "absent" value.
pub fn fuse_scores(lists: &[ScoredList], how: Normalization) -> Result<Vec<Hit>, FusionError> {
    let mut acc = Accumulator::default();
    let mut normalized = Vec::new();
    let mut total = 0.0f64;
    for (i, list) in lists.iter().enumerate() {
        check_weight(i, list.weight)?;
        if let Some(index) = list.hits.iter().position(|h| !h.score.is_finite()) {
            return Err(FusionError::NonFiniteScore { list: i, index });
        }
        if list.weight > 0.0 {
            let hits: Vec<&Hit> = first_occurrences(list.hits.iter().map(|h| h.id.as_str()))
                .into_iter()
                .map(|at| &list.hits[at])
                .collect();
            for hit in &hits {
                acc.slot(hit.id.as_str());
            }
            normalized.push((list.weight, normalize(i, &hits, how)?));
            total += list.weight;
        }
    }
    for (weight, n) in &normalized {
        let share = weight / total;
        for (id, sum) in acc.sums.iter_mut() {
            *sum += share * n.scores.get(id).copied().unwrap_or(n.absent);
        }
    }
    Ok(acc.ranked())
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| String::from(*s)).collect()
    }

    fn hits(v: &[(&str, f64)]) -> Vec<Hit> {
        v.iter()
            .map(|(id, score)| Hit {
                id: String::from(*id),
                score: *score,
            })
            .collect()
    }

    #[test]
    fn rrf_sums_reciprocal_ranks() {
        let lists = [
            RankedList {
                weight: 1.0,
                ids: ids(&["a", "b", "c"]),
            },
            RankedList {
                weight: 2.0,
                ids: ids(&["c", "c", "a", "a"]),
            },
        ];
        let got = rrf(&lists, 60.0).unwrap();
        // repeats take no rank: "a" is second in the second list
        let a = 1.0 / 61.0 + 2.0 / 62.0;
        let c = 1.0 / 63.0 + 2.0 / 61.0;
        let b = 1.0 / 62.0;
        assert_eq!(got, hits(&[("c", c), ("a", a), ("b", b)]));
    }

    #[test]
    fn rrf_ties_and_errors() {
        let lists = [
            RankedList {
                weight: 1.0,
                ids: ids(&["b"]),
            },
            RankedList {
                weight: 1.0,
                ids: ids(&["a"]),
            },
        ];
        let got = rrf(&lists, 0.0).unwrap();
        assert_eq!(got, hits(&[("a", 1.0), ("b", 1.0)]));
        assert_eq!(rrf(&lists, -1.0), Err(FusionError::InvalidK(-1.0)));
        let bad = [RankedList {
            weight: f64::NAN,
            ids: vec![],
        }];
        assert!(matches!(
            rrf(&bad, 60.0),
            Err(FusionError::InvalidWeight { list: 0, .. })
        ));
        let zero = [RankedList {
            weight: 0.0,
            ids: ids(&["x"]),
        }];
        assert_eq!(rrf(&zero, 60.0), Ok(vec![]));
    }

    #[test]
    fn min_max_fusion() {
        let lists = [
            ScoredList {
                weight: 1.0,
                hits: hits(&[("a", 10.0), ("b", 5.0), ("c", 0.0)]),
            },
            ScoredList {
                weight: 3.0,
                hits: hits(&[("c", 0.9), ("d", 0.1)]),
            },
        ];
        let got = fuse_scores(&lists, Normalization::MinMax).unwrap();
        // shares 0.25 / 0.75; c: 0.25*0 + 0.75*1, a: 0.25*1 + 0, b: 0.25*0.5, d: 0
        assert_eq!(
            got,
            hits(&[("c", 0.75), ("a", 0.25), ("b", 0.125), ("d", 0.0)])
        );
    }

    #[test]
    fn z_score_fusion_uses_lowest_for_absent() {
        let lists = [
            ScoredList {
                weight: 1.0,
                hits: hits(&[("a", 3.0), ("b", 1.0)]),
            },
            ScoredList {
                weight: 1.0,
                hits: hits(&[("c", 7.0), ("c", 100.0)]),
            },
        ];
        let got = fuse_scores(&lists, Normalization::ZScore).unwrap();
        // list 0: mean 2, std 1 -> a 1, b -1; list 1: one hit, std 0 -> c 0, absent 0
        // a: 0.5 + 0 = 0.5; c: 0.5 * -1 + 0 = -0.5; b: -0.5 + 0 = -0.5
        assert_eq!(got, hits(&[("a", 0.5), ("b", -0.5), ("c", -0.5)]));
    }

    #[test]
    fn fusion_errors() {
        let nan = [ScoredList {
            weight: 1.0,
            hits: hits(&[("a", 1.0), ("b", f64::NAN)]),
        }];
        assert_eq!(
            fuse_scores(&nan, Normalization::MinMax),
            Err(FusionError::NonFiniteScore { list: 0, index: 1 })
        );
        let wide = [ScoredList {
            weight: 1.0,
            hits: hits(&[("a", f64::MAX), ("b", -f64::MAX)]),
        }];
        assert_eq!(
            fuse_scores(&wide, Normalization::MinMax),
            Err(FusionError::ScoreRangeOverflow { list: 0 })
        );
        assert_eq!(fuse_scores(&[], Normalization::ZScore), Ok(vec![]));
    }
}

//! Ranking metrics and timing statistics.
//!
//! The graded metrics follow trec_eval, as engine-core's `eval_scifact` defines them:
//! `DCG@k = Σ_{i=1..k} gain_i / log2(i + 1)` over the ranking (gain 0 when unjudged), the
//! ideal DCG the same sum over every judged gain sorted descending, `nDCG@k = DCG / IDCG`
//! (0 when nothing is relevant); Recall@k counts judged items with a gain above 0.

use std::collections::HashMap;
use std::time::Duration;

use serde::Serialize;

/// Relevance judgments of one query: item -> gain.
pub type Gains = HashMap<String, f64>;

/// `1 / log2(rank + 1)` for the 0-based position `i`.
fn discount(i: usize) -> f64 {
    1.0 / ((i + 2) as f64).log2()
}

/// nDCG@k of `ranking` under `gains`.
pub fn ndcg_at(ranking: &[String], gains: &Gains, k: usize) -> f64 {
    let dcg: f64 = ranking
        .iter()
        .take(k)
        .enumerate()
        .map(|(i, item)| gains.get(item).copied().unwrap_or(0.0) * discount(i))
        .sum();
    let mut ideal: Vec<f64> = gains.values().copied().collect();
    ideal.sort_by(|a, b| b.total_cmp(a));
    let idcg: f64 = ideal
        .iter()
        .take(k)
        .enumerate()
        .map(|(i, gain)| gain * discount(i))
        .sum();
    if idcg > 0.0 { dcg / idcg } else { 0.0 }
}

/// Recall@k: relevant items (gain > 0) in the first `k` / relevant items.
pub fn recall_at(ranking: &[String], gains: &Gains, k: usize) -> f64 {
    let relevant = gains.values().filter(|g| **g > 0.0).count();
    let found = ranking
        .iter()
        .take(k)
        .filter(|item| gains.get(*item).is_some_and(|g| *g > 0.0))
        .count();
    if relevant > 0 {
        found as f64 / relevant as f64
    } else {
        0.0
    }
}

/// `1 / rank` of the first item of `relevant` in `ranking`, 0 when none is there.
pub fn reciprocal_rank(ranking: &[String], relevant: &[String]) -> f64 {
    ranking
        .iter()
        .position(|item| relevant.contains(item))
        .map_or(0.0, |i| 1.0 / (i + 1) as f64)
}

/// 1 when an item of `relevant` is in the first `k` of `ranking`, else 0.
pub fn hit_at(ranking: &[String], relevant: &[String], k: usize) -> f64 {
    f64::from(u8::from(
        ranking.iter().take(k).any(|item| relevant.contains(item)),
    ))
}

/// `ranking` without repeats, first occurrence kept.
pub fn dedup(ranking: Vec<String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    ranking
        .into_iter()
        .filter(|item| seen.insert(item.clone()))
        .collect()
}

/// The mean of `values` (0 when empty). Folded from +0.0: `Sum` starts at -0.0, which
/// would print as `-0.0000` when every value is 0.
pub fn mean(values: &[f64]) -> f64 {
    if values.is_empty() {
        0.0
    } else {
        values.iter().fold(0.0, |sum, v| sum + v) / values.len() as f64
    }
}

/// The median and 95th percentile of timed samples (nearest rank), in milliseconds.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Percentiles {
    /// The 50th percentile, ms.
    pub p50_ms: f64,
    /// The 95th percentile, ms.
    pub p95_ms: f64,
    /// How many samples.
    pub samples: usize,
}

impl Percentiles {
    /// The percentiles of `samples` (all zero when there are none).
    pub fn of(samples: &[Duration]) -> Percentiles {
        if samples.is_empty() {
            return Percentiles::default();
        }
        let mut ms: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e3).collect();
        ms.sort_by(f64::total_cmp);
        let rank = |q: f64| {
            let index = ((q * ms.len() as f64).ceil() as usize).clamp(1, ms.len()) - 1;
            ms[index]
        };
        Percentiles {
            p50_ms: rank(0.5),
            p95_ms: rank(0.95),
            samples: ms.len(),
        }
    }
}

//! Tuning hybrid fusion: each query's lexical and semantic note rankings (with scores), as
//! `search_vault` returns them in modes `lexical` and `semantic`, fused offline with
//! engine-core's own fusions over a grid of parameters — weighted RRF (the product's hybrid
//! mode) and convex score fusion (min-max and z-score) for comparison — and scored by nDCG@10.
//! Fusing the same lists with the same function is what the product's hybrid mode does, so
//! the best grid point carries over as its constants.

use engine_core::rank::{Hit, Normalization, RankedList, ScoredList, fuse_scores, rrf};

use super::metrics::{Gains, mean, ndcg_at};
use super::report::{f4, table};

/// One query's two rankings, best first, and its judgments.
pub struct QueryRuns {
    /// `(path, score)` from the lexical ranking.
    pub lexical: Vec<(String, f64)>,
    /// `(path, score)` from the semantic ranking.
    pub semantic: Vec<(String, f64)>,
    /// The judged items (note paths).
    pub gains: Gains,
}

/// One fusion setting.
#[derive(Debug, Clone, Copy)]
enum Fusion {
    /// Weighted RRF with constant `k`; the semantic list's weight is 1.
    Rrf { k: f64, lexical_weight: f64 },
    /// Convex score fusion: `alpha · lexical + (1 - alpha) · semantic` after normalising.
    Scores { how: Normalization, alpha: f64 },
}

impl Fusion {
    fn label(&self) -> String {
        match self {
            Fusion::Rrf { k, lexical_weight } => {
                format!("RRF k={k} lexical weight={lexical_weight}")
            }
            Fusion::Scores { how, alpha } => format!("{how:?} scores alpha(lexical)={alpha}"),
        }
    }

    /// The fused ranking of one query, best first.
    fn rank(&self, runs: &QueryRuns) -> Vec<String> {
        let fused = match *self {
            Fusion::Rrf { k, lexical_weight } => rrf(
                &[
                    RankedList {
                        weight: lexical_weight,
                        ids: ids(&runs.lexical),
                    },
                    RankedList {
                        weight: 1.0,
                        ids: ids(&runs.semantic),
                    },
                ],
                k,
            ),
            Fusion::Scores { how, alpha } => fuse_scores(
                &[
                    ScoredList {
                        weight: alpha,
                        hits: hits(&runs.lexical),
                    },
                    ScoredList {
                        weight: 1.0 - alpha,
                        hits: hits(&runs.semantic),
                    },
                ],
                how,
            ),
        };
        fused
            .map(|hits| hits.into_iter().map(|hit| hit.id).collect())
            .unwrap_or_default()
    }
}

fn ids(ranking: &[(String, f64)]) -> Vec<String> {
    ranking.iter().map(|(path, _)| path.clone()).collect()
}

fn hits(ranking: &[(String, f64)]) -> Vec<Hit> {
    ranking
        .iter()
        .map(|(id, score)| Hit {
            id: id.clone(),
            score: *score,
        })
        .collect()
}

/// The grid searched.
fn grid() -> Vec<Fusion> {
    let mut grid = Vec::new();
    for k in [5.0, 10.0, 20.0, 40.0, 60.0, 100.0] {
        for lexical_weight in [0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 3.0] {
            grid.push(Fusion::Rrf { k, lexical_weight });
        }
    }
    for how in [Normalization::MinMax, Normalization::ZScore] {
        for step in 0..=20 {
            grid.push(Fusion::Scores {
                how,
                alpha: f64::from(step) / 20.0,
            });
        }
    }
    grid
}

/// nDCG@10 of lexical alone, semantic alone and every grid point, best first, as a markdown
/// table (the ten best) and JSON (all).
pub fn tune(runs: &[QueryRuns]) -> (String, serde_json::Value) {
    let ndcg = |rank: &dyn Fn(&QueryRuns) -> Vec<String>| -> f64 {
        mean(
            &runs
                .iter()
                .map(|q| ndcg_at(&rank(q), &q.gains, 10))
                .collect::<Vec<_>>(),
        )
    };
    let lexical = ndcg(&|q| ids(&q.lexical));
    let semantic = ndcg(&|q| ids(&q.semantic));
    let mut scored: Vec<(String, f64)> = grid()
        .into_iter()
        .map(|fusion| (fusion.label(), ndcg(&|q| fusion.rank(q))))
        .collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1));
    let mut rows = vec![
        vec!["lexical alone".to_owned(), f4(lexical)],
        vec!["semantic alone".to_owned(), f4(semantic)],
    ];
    rows.extend(
        scored
            .iter()
            .take(10)
            .map(|(label, v)| vec![label.clone(), f4(*v)]),
    );
    let markdown = format!(
        "### Fusion grid ({} queries, nDCG@10, ten best)\n\n{}",
        runs.len(),
        table(&["fusion", "nDCG@10"], &rows)
    );
    let json = serde_json::json!({
        "lexical": lexical,
        "semantic": semantic,
        "grid": scored.iter().map(|(l, v)| serde_json::json!({"fusion": l, "ndcg_at_10": v})).collect::<Vec<_>>(),
    });
    (markdown, json)
}

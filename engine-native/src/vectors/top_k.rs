//! The exact scan: every allowed row scored against the query with engine-core's dot product,
//! the best `k` kept in a bounded heap.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use engine_core::rank::dot;

use super::{MatrixError, NoteFilter, VectorMatrix, check_vector};

/// One scored row. Ordered by rank: a higher score ranks first, equal scores rank by the
/// smaller chunk id, so results are deterministic.
#[derive(Debug, Clone, Copy)]
struct Scored {
    score: f32,
    chunk_id: i64,
}

impl Scored {
    /// `Greater` when `self` ranks before `other`. Scores are finite (the dot product refuses
    /// anything else), so `partial_cmp` always answers; `-0.0` and `0.0` tie.
    fn rank(&self, other: &Self) -> Ordering {
        self.score
            .partial_cmp(&other.score)
            .unwrap_or(Ordering::Equal)
            .then_with(|| other.chunk_id.cmp(&self.chunk_id))
    }
}

impl PartialEq for Scored {
    fn eq(&self, other: &Self) -> bool {
        self.rank(other) == Ordering::Equal
    }
}

impl Eq for Scored {}

impl PartialOrd for Scored {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Scored {
    /// Reversed rank, so the max-heap's top is the worst result kept.
    fn cmp(&self, other: &Self) -> Ordering {
        other.rank(self)
    }
}

/// The best `k` results seen so far; the worst of them is at the top of the heap.
struct Best {
    k: usize,
    heap: BinaryHeap<Scored>,
}

impl Best {
    fn new(k: usize, rows: usize) -> Self {
        Self {
            k,
            heap: BinaryHeap::with_capacity(k.min(rows)),
        }
    }

    /// Keeps `candidate` when fewer than `k` are kept or it ranks before the worst kept.
    #[inline]
    fn offer(&mut self, candidate: Scored) {
        if self.heap.len() < self.k {
            self.heap.push(candidate);
        } else if let Some(mut worst) = self.heap.peek_mut()
            && candidate.score >= worst.score
            && candidate.rank(&worst) == Ordering::Greater
        {
            *worst = candidate;
        }
    }

    /// The kept results, best first.
    fn into_ranked(self) -> Vec<(i64, f32)> {
        // Ascending by `Ord` is best first, since `Ord` reverses the rank.
        self.heap
            .into_sorted_vec()
            .into_iter()
            .map(|s| (s.chunk_id, s.score))
            .collect()
    }
}

impl VectorMatrix {
    /// The `k` rows with the highest dot product with `query` among the rows whose note
    /// `allowed` allows, best first as `(chunk_id, score)`; equal scores go by smaller chunk id.
    /// The filter applies before ranking, so hidden rows neither appear nor displace allowed
    /// ones: fewer than `k` results means fewer than `k` rows are allowed. For unit vectors the
    /// score is the cosine similarity.
    pub fn top_k(
        &self,
        query: &[f32],
        k: usize,
        allowed: &NoteFilter,
    ) -> Result<Vec<(i64, f32)>, MatrixError> {
        check_vector(self.dims(), query)?;
        if k == 0 || self.is_empty() {
            return Ok(Vec::new());
        }
        let mut best = Best::new(k, self.len());
        let rows = self.rows().chunks_exact(self.dims());
        for ((row, &chunk_id), &note_key) in rows.zip(self.chunk_ids()).zip(self.note_keys()) {
            if !allowed.allows(note_key) {
                continue;
            }
            let score = dot(query, row).map_err(|_| MatrixError::ScoreOverflow { chunk_id })?;
            best.offer(Scored { score, chunk_id });
        }
        Ok(best.into_ranked())
    }
}

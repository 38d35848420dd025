//! The exact scan: every allowed row scored against the query with engine-core's dot product,
//! the best `k` kept in a bounded heap. A large matrix is split into contiguous row ranges
//! scanned on several threads, each with its own heap, merged at the end under the same
//! total order (higher score first, then smaller chunk id), so the result is exactly the
//! sequential scan's.

use std::cmp::Ordering;
use std::collections::{BinaryHeap, HashMap};
use std::num::NonZeroUsize;
use std::ops::Range;
use std::sync::OnceLock;

use engine_core::rank::dot;

use crate::workers::on_threads;

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

    /// Offers every result `other` kept. The best `k` of a union is the best `k` of the
    /// parts' best `k`s, and the rank is a total order, so merging is exact.
    fn merge(&mut self, other: Best) {
        for candidate in other.heap {
            self.offer(candidate);
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

/// The fewest `f32`s one thread scans (4 MiB, about half a millisecond): below that, starting
/// a thread costs more than it saves.
const MIN_FLOATS_PER_THREAD: usize = 1 << 20;

/// The threads this machine runs at once (asked once; 1 when it cannot tell).
fn available_threads() -> usize {
    static THREADS: OnceLock<usize> = OnceLock::new();
    *THREADS.get_or_init(|| std::thread::available_parallelism().map_or(1, NonZeroUsize::get))
}

impl VectorMatrix {
    /// The `k` rows with the highest dot product with `query` among the rows whose note
    /// `allowed` allows, best first as `(chunk_id, score)`; equal scores go by smaller chunk id.
    /// The filter applies before ranking, so hidden rows neither appear nor displace allowed
    /// ones: fewer than `k` results means fewer than `k` rows are allowed. For unit vectors the
    /// score is the cosine similarity. A large matrix is scanned on the machine's threads
    /// (see [`VectorMatrix::top_k_on`]); the result does not depend on it.
    pub fn top_k(
        &self,
        query: &[f32],
        k: usize,
        allowed: &NoteFilter,
    ) -> Result<Vec<(i64, f32)>, MatrixError> {
        let by_size = self.rows().len() / MIN_FLOATS_PER_THREAD;
        let threads = available_threads().min(by_size).max(1);
        self.top_k_on(query, k, allowed, threads)
    }

    /// [`VectorMatrix::top_k`] with the rows split over `threads` threads (1 scans on the
    /// calling thread). The result, and the error for a row whose score overflows (the first
    /// such row), are the same for every `threads`.
    pub fn top_k_on(
        &self,
        query: &[f32],
        k: usize,
        allowed: &NoteFilter,
        threads: usize,
    ) -> Result<Vec<(i64, f32)>, MatrixError> {
        check_vector(self.dims(), query)?;
        if k == 0 || self.is_empty() {
            return Ok(Vec::new());
        }
        let threads = threads.clamp(1, self.len());
        if threads == 1 {
            return Ok(self.scan(query, k, allowed, 0..self.len())?.into_ranked());
        }
        let per_thread = self.len().div_ceil(threads);
        let ranges: Vec<Range<usize>> = (0..self.len())
            .step_by(per_thread)
            .map(|start| start..(start + per_thread).min(self.len()))
            .collect();
        // A scan does not panic (no indexing out of its range, no unwrap); if one did,
        // `on_threads` raising it again on the caller is the honest answer.
        let parts = on_threads(ranges.len(), |part| {
            self.scan(query, k, allowed, ranges[part].clone())
        });
        // Ranges are in row order, so the first error is the first overflowing row's.
        let mut best = Best::new(k, self.len());
        for part in parts {
            best.merge(part?);
        }
        Ok(best.into_ranked())
    }

    /// [`VectorMatrix::top_k`] over the rows of the notes `scope` allows and `allowed`
    /// accepts, asking `allowed` about as few notes as it can (a decision per note can cost
    /// more than scoring a row, e.g. an ACL evaluation): the `4k` best rows of `scope` are
    /// ranked first and `allowed` asked about their notes only; when fewer than `k` of them
    /// are accepted, the rows are ranked again with every note of `scope` decided. The
    /// result is exactly `top_k` with the filter of the accepted notes, ties included.
    pub fn top_k_deciding(
        &self,
        query: &[f32],
        k: usize,
        scope: &NoteFilter,
        allowed: &dyn Fn(u32) -> bool,
    ) -> Result<Vec<(i64, f32)>, MatrixError> {
        let wide = k.saturating_mul(4).max(64);
        let candidates = self.top_k(query, wide, scope)?;
        let mut decided: HashMap<u32, bool> = HashMap::new();
        let mut kept = Vec::with_capacity(k.min(candidates.len()));
        for &(chunk_id, score) in &candidates {
            if kept.len() == k {
                return Ok(kept);
            }
            let key = self.note_key(chunk_id).unwrap_or(u32::MAX);
            if *decided.entry(key).or_insert_with(|| allowed(key)) {
                kept.push((chunk_id, score));
            }
        }
        if kept.len() == k || candidates.len() < wide {
            // Either enough were accepted, or every row of `scope` was a candidate.
            return Ok(kept);
        }
        let mut filter = NoteFilter::none();
        for &key in self.note_keys() {
            if scope.allows(key) && *decided.entry(key).or_insert_with(|| allowed(key)) {
                filter.allow(key);
            }
        }
        self.top_k(query, k, &filter)
    }

    /// The best `k` allowed rows of `rows`; stops at the first row whose score overflows.
    fn scan(
        &self,
        query: &[f32],
        k: usize,
        allowed: &NoteFilter,
        rows: Range<usize>,
    ) -> Result<Best, MatrixError> {
        let dims = self.dims();
        let mut best = Best::new(k, rows.len());
        let vectors = self.rows()[rows.start * dims..rows.end * dims].chunks_exact(dims);
        let ids = &self.chunk_ids()[rows.clone()];
        let keys = &self.note_keys()[rows];
        for ((row, &chunk_id), &note_key) in vectors.zip(ids).zip(keys) {
            if !allowed.allows(note_key) {
                continue;
            }
            let score = dot(query, row).map_err(|_| MatrixError::ScoreOverflow { chunk_id })?;
            best.offer(Scored { score, chunk_id });
        }
        Ok(best)
    }
}

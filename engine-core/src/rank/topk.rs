//! Ranked results and the stable ordering every ranking in this module uses:
//! score descending, then id ascending by bytes.

use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use serde::{Deserialize, Serialize};

/// One ranked document: its id and score.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScoredDoc {
    /// The document id given at indexing time.
    pub id: String,
    /// Its BM25F score (`> 0` unless a weight or `k1` underflows it to `0`).
    pub score: f32,
}

/// The ranking order: higher score first, ties broken by id ascending (byte order).
/// Scores must not be NaN; `total_cmp` makes the order total regardless.
pub(crate) fn rank_order<S: PartialOrd + Copy>(
    (score_a, id_a): (S, &str),
    (score_b, id_b): (S, &str),
) -> Ordering {
    score_b
        .partial_cmp(&score_a)
        .unwrap_or(Ordering::Equal)
        .then_with(|| id_a.cmp(id_b))
}

/// Keeps the `k` first items of `items` under `order` and sorts them. A bounded heap holds
/// the best `k` seen so far with the worst of them at its root, so most items are turned
/// away by one comparison with that root: `O(n + k log k)` in practice (`O(n log k)` at
/// worst), and cheaper than a selection over all items, natively and in WebAssembly.
/// `order` must be a total order for the result to be independent of the input order.
pub(crate) fn select_top<T: Copy>(
    items: &mut Vec<T>,
    k: usize,
    mut order: impl FnMut(&T, &T) -> Ordering,
) {
    if k < items.len() {
        let mut heap: Vec<T> = Vec::with_capacity(k);
        for &item in items.iter() {
            if heap.len() < k {
                heap.push(item);
                sift_up(&mut heap, &mut order);
            } else if k > 0 && order(&item, &heap[0]) == Ordering::Less {
                heap[0] = item;
                sift_down(&mut heap, &mut order);
            }
        }
        *items = heap;
    }
    items.sort_unstable_by(order);
}

/// Restores the heap (root = the item that ranks last) after a push.
fn sift_up<T>(heap: &mut [T], order: &mut impl FnMut(&T, &T) -> Ordering) {
    let mut child = heap.len() - 1;
    while child > 0 {
        let parent = (child - 1) / 2;
        if order(&heap[child], &heap[parent]) != Ordering::Greater {
            break;
        }
        heap.swap(child, parent);
        child = parent;
    }
}

/// Restores the heap after its root was replaced.
fn sift_down<T>(heap: &mut [T], order: &mut impl FnMut(&T, &T) -> Ordering) {
    let mut parent = 0;
    loop {
        let (left, right) = (2 * parent + 1, 2 * parent + 2);
        let mut last = parent;
        if left < heap.len() && order(&heap[left], &heap[last]) == Ordering::Greater {
            last = left;
        }
        if right < heap.len() && order(&heap[right], &heap[last]) == Ordering::Greater {
            last = right;
        }
        if last == parent {
            return;
        }
        heap.swap(parent, last);
        parent = last;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ties_break_by_id_bytes() {
        assert_eq!(rank_order((1.0f32, "b"), (1.0, "a")), Ordering::Greater);
        assert_eq!(rank_order((2.0f32, "b"), (1.0, "a")), Ordering::Less);
        // byte order: uppercase before lowercase, "é" (0xC3..) after "z"
        assert_eq!(rank_order((1.0f32, "Z"), (1.0, "a")), Ordering::Less);
        assert_eq!(rank_order((1.0f32, "é"), (1.0, "z")), Ordering::Greater);
    }

    #[test]
    fn select_top_is_a_sorted_prefix() {
        let all: Vec<(f32, &str)> = alloc::vec![
            (1.0, "c"),
            (3.0, "a"),
            (2.0, "b"),
            (3.0, "0"),
            (0.5, "d"),
            (2.0, "a")
        ];
        let mut sorted = all.clone();
        sorted.sort_by(|a, b| rank_order(*a, *b));
        for k in 0..8 {
            for reversed in [false, true] {
                let mut top = all.clone();
                if reversed {
                    top.reverse();
                }
                select_top(&mut top, k, |a, b| rank_order(*a, *b));
                assert_eq!(top[..], sorted[..k.min(sorted.len())], "k={k}");
            }
        }
    }
}

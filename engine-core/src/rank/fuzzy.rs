//! Typo tolerance: the optimal-string-alignment distance (Levenshtein plus swaps of two
//! neighbouring characters) between two terms, bounded so most pairs are turned away early.
//!
//! Written here rather than taken from a crate: engine-core is `no_std`, and the distance
//! decides which terms a query searches, so it must be the same function bit for bit in the
//! server and in WebAssembly (the crates at hand, `strsim` among them, need `std`).

use alloc::vec::Vec;

/// The most edits a query term of `chars` characters may be away from an indexed term:
/// none below 4 characters (too many short words are one edit apart), 1 up to 7, 2 from 8.
pub(crate) fn max_edits(chars: usize) -> u32 {
    match chars {
        0..=3 => 0,
        4..=7 => 1,
        _ => 2,
    }
}

/// The optimal-string-alignment distance between `a` and `b` (as characters) when it is at
/// most `max`, else `None`.
pub(crate) fn distance_within(a: &[char], b: &[char], max: u32) -> Option<u32> {
    let max = max as usize;
    if a.len().abs_diff(b.len()) > max {
        return None;
    }
    // Three rows of the dynamic programme: two back (for swaps), one back, current.
    let width = b.len() + 1;
    let mut two_back: Vec<usize> = Vec::new();
    let mut one_back: Vec<usize> = (0..width).collect();
    let mut current = alloc::vec![0usize; width];
    for i in 1..=a.len() {
        current[0] = i;
        let mut row_min = current[0];
        for j in 1..width {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (one_back[j] + 1)
                .min(current[j - 1] + 1)
                .min(one_back[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(two_back[j - 2] + 1);
            }
            current[j] = best;
            row_min = row_min.min(best);
        }
        if row_min > max {
            return None;
        }
        two_back = core::mem::replace(&mut one_back, current.clone());
    }
    let distance = one_back[b.len()];
    (distance <= max).then_some(distance as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(a: &str, b: &str, max: u32) -> Option<u32> {
        let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
        distance_within(&a, &b, max)
    }

    #[test]
    fn counts_edits_and_swaps() {
        assert_eq!(d("review", "review", 2), Some(0));
        assert_eq!(d("reveiw", "review", 2), Some(1), "a swap is one edit");
        assert_eq!(d("revew", "review", 1), Some(1));
        assert_eq!(d("reviews", "review", 1), Some(1));
        assert_eq!(d("kitten", "sitting", 3), Some(3));
        assert_eq!(d("kitten", "sitting", 2), None);
        assert_eq!(d("заметка", "заметки", 1), Some(1), "characters, not bytes");
        assert_eq!(d("", "ab", 2), Some(2));
        assert_eq!(d("abcdef", "ab", 2), None, "lengths too far apart");
    }

    #[test]
    fn edits_allowed_grow_with_length() {
        assert_eq!(max_edits(3), 0);
        assert_eq!(max_edits(4), 1);
        assert_eq!(max_edits(7), 1);
        assert_eq!(max_edits(8), 2);
    }
}

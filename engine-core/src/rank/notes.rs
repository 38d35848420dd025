//! From a chunk ranking to a note ranking: each note is represented by its best chunk, and
//! only the notes a caller may see are ranked. The chunk ranking is read deeper until the
//! page is full or it ends, so hidden notes never show and never shorten a page.

use alloc::string::String;
use alloc::vec::Vec;

use alloc::collections::BTreeSet;

/// The best chunk of each of the first `wanted` allowed notes of a chunk ranking, as
/// `(chunk, note path, score)`, best first. `rank(depth)` gives the first `depth` chunks
/// (best first), `note_of` the note of a chunk (`None` leaves the chunk out), `allowed`
/// whether a note may be ranked. The first read is `max(4 · wanted, 64)` deep, and each
/// next one four times deeper.
pub fn best_per_note<I>(
    wanted: usize,
    allowed: &mut dyn FnMut(&str) -> bool,
    note_of: &dyn Fn(&I) -> Option<String>,
    rank: &mut dyn FnMut(usize) -> Vec<(I, f32)>,
) -> Vec<(I, String, f32)> {
    let mut depth = wanted.saturating_mul(4).max(64);
    loop {
        let hits = rank(depth);
        let exhausted = hits.len() < depth;
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for (chunk, score) in hits {
            let Some(path) = note_of(&chunk) else {
                continue;
            };
            if seen.contains(&path) {
                continue;
            }
            seen.insert(path.clone());
            if !allowed(&path) {
                continue;
            }
            out.push((chunk, path, score));
            if out.len() == wanted {
                return out;
            }
        }
        if exhausted {
            return out;
        }
        depth = depth.saturating_mul(4);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::borrow::ToOwned;
    use alloc::vec;

    fn ranking() -> Vec<(u32, f32)> {
        // chunk id / 10 is the note
        (0..200u32).map(|i| (i, 1000.0 - i as f32)).collect()
    }

    #[test]
    fn one_chunk_per_note_and_hidden_notes_skipped() {
        let all = ranking();
        let mut reads = vec![];
        let got = best_per_note(
            3,
            &mut |path: &str| path != "n1",
            &|chunk: &u32| Some(alloc::format!("n{}", chunk / 10)),
            &mut |depth| {
                reads.push(depth);
                all.iter().copied().take(depth).collect()
            },
        );
        let paths: Vec<_> = got.iter().map(|(_, p, _)| p.to_owned()).collect();
        assert_eq!(paths, ["n0", "n2", "n3"]);
        assert_eq!(got[1].0, 20);
        assert_eq!(reads, [64]);
    }

    #[test]
    fn reads_deeper_until_full_or_exhausted() {
        let all = ranking();
        let mut reads = vec![];
        let got = best_per_note(
            10,
            &mut |_: &str| true,
            &|chunk: &u32| Some(alloc::format!("n{}", chunk / 10)),
            &mut |depth| {
                reads.push(depth);
                all.iter().copied().take(depth).collect()
            },
        );
        assert_eq!(got.len(), 10);
        assert_eq!(reads, [64, 256]);
    }
}

//! Folding of non-ASCII text, with a map from the folded text back to the original.
//!
//! The folded form of a string is, in this order:
//! 1. NFKD (with `fold_compatibility`) or NFD;
//! 2. drop the characters of [`chars::is_dropped`] (default ignorables, enclosing marks);
//! 3. with `fold_case`: full case folding then lowercasing (`casefold().lower()` in Python),
//!    decomposed again;
//! 4. with `fold_diacritics`: drop [`chars::is_foldable_diacritic`] marks and map the
//!    letters of [`chars::strip_stroke`];
//! 5. NFKC (with `fold_compatibility`) or NFC.
//!
//! The text is folded in *chunks* that start at characters no normalization step can join
//! to what precedes them, so folding chunk by chunk gives the same string as folding the
//! whole text, and every folded byte can be traced to the chunk it came from. Equivalent
//! inputs (NFC, NFD, ...) therefore fold to the same string.

use alloc::string::String;
use alloc::vec::Vec;

use unicode_normalization::char::{
    canonical_combining_class, decompose_canonical, decompose_compatible, is_combining_mark,
};
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use super::chars;

/// Where one chunk of the original text starts, and where its folded form starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct ChunkStart {
    /// Byte offset in the folded text.
    pub folded: usize,
    /// Byte offset in the original text.
    pub original: usize,
}

/// Folds text according to three of the analyzer settings; owns its scratch buffer.
pub(super) struct Folder {
    fold_case: bool,
    fold_diacritics: bool,
    compatibility: bool,
    scratch: Vec<char>,
}

impl Folder {
    /// A folder for the given folding switches.
    pub fn new(fold_case: bool, fold_diacritics: bool, compatibility: bool) -> Self {
        Self {
            fold_case,
            fold_diacritics,
            compatibility,
            scratch: Vec::new(),
        }
    }

    /// Appends the folded form of `piece` to `folded` and records its chunks in `chunks`;
    /// `base` is the byte offset of `piece` in the original text.
    pub fn fold_into(
        &mut self,
        piece: &str,
        base: usize,
        folded: &mut String,
        chunks: &mut Vec<ChunkStart>,
    ) {
        let mut iter = piece.char_indices().peekable();
        while let Some((start, first)) = iter.next() {
            let mut end = start + first.len_utf8();
            while let Some(&(i, c)) = iter.peek() {
                if self.starts_chunk(c) {
                    break;
                }
                end = i + c.len_utf8();
                iter.next();
            }
            chunks.push(ChunkStart {
                folded: folded.len(),
                original: base + start,
            });
            if end == start + first.len_utf8() && self.push_if_unchanged(first, folded) {
                continue;
            }
            self.fold_chunk(piece.get(start..end).unwrap_or_default(), folded);
        }
    }

    /// Whether a chunk may start at `c`: its decomposition begins with a starter that never
    /// composes with a preceding character, and it is neither a mark nor dropped.
    fn starts_chunk(&self, c: char) -> bool {
        if c.is_ascii() {
            return true;
        }
        let mut first = None;
        self.decompose(c, &mut |d| {
            first.get_or_insert(d);
        });
        let lead = first.unwrap_or(c);
        !is_combining_mark(c)
            && !is_combining_mark(lead)
            && !chars::is_dropped(c)
            && !chars::is_dropped(lead)
            && canonical_combining_class(lead) == 0
            && is_nfc_quick(core::iter::once(lead)) == IsNormalized::Yes
    }

    /// Fast path for a chunk of one character that folding leaves alone (or only
    /// lowercases, for ASCII): pushes it and returns true.
    fn push_if_unchanged(&self, c: char, folded: &mut String) -> bool {
        if c.is_ascii() {
            folded.push(if self.fold_case {
                c.to_ascii_lowercase()
            } else {
                c
            });
            return true;
        }
        let mut count = 0;
        let mut same = true;
        self.decompose(c, &mut |d| {
            count += 1;
            same &= d == c;
        });
        let unchanged = count == 1
            && same
            && !chars::is_dropped(c)
            && !is_combining_mark(c)
            && (!self.fold_case
                || (chars::case_fold_special(c).is_none() && lowercases_to_itself(c)))
            && (!self.fold_diacritics || chars::strip_stroke(c) == c);
        if unchanged {
            folded.push(c);
        }
        unchanged
    }

    /// The general path: folds `chunk` step by step and appends the recomposed result.
    fn fold_chunk(&mut self, chunk: &str, folded: &mut String) {
        let mut out = core::mem::take(&mut self.scratch);
        out.clear();
        if self.compatibility {
            chunk.nfkd().for_each(|d| self.push_folded(d, &mut out));
        } else {
            chunk.nfd().for_each(|d| self.push_folded(d, &mut out));
        }
        if self.compatibility {
            folded.extend(out.iter().copied().nfkc());
        } else {
            folded.extend(out.iter().copied().nfc());
        }
        self.scratch = out;
    }

    /// The full canonical (or, with `compatibility`, compatibility) decomposition of `c`.
    fn decompose(&self, c: char, emit: &mut impl FnMut(char)) {
        if self.compatibility {
            decompose_compatible(c, emit);
        } else {
            decompose_canonical(c, emit);
        }
    }

    /// Steps 2 to 4 for one character of the decomposed (and canonically ordered) chunk.
    fn push_folded(&self, d: char, out: &mut Vec<char>) {
        if chars::is_dropped(d) {
            return;
        }
        if !self.fold_case {
            self.push_stripped(d, out);
            return;
        }
        let mut push_lower = |e: char| {
            for l in e.to_lowercase() {
                self.push_stripped(l, out);
            }
        };
        match chars::case_fold_special(d) {
            Some(folded) => folded
                .chars()
                .for_each(|f| self.decompose(f, &mut push_lower)),
            None => d
                .to_lowercase()
                .for_each(|l| self.decompose(l, &mut push_lower)),
        }
    }

    /// Step 4 (diacritics) for one folded character.
    fn push_stripped(&self, c: char, out: &mut Vec<char>) {
        if chars::is_dropped(c) {
            return;
        }
        if self.fold_diacritics {
            if chars::is_foldable_diacritic(c) {
                return;
            }
            out.push(chars::strip_stroke(c));
        } else {
            out.push(c);
        }
    }
}

/// Whether lowercasing `c` gives exactly `c`.
fn lowercases_to_itself(c: char) -> bool {
    let mut lower = c.to_lowercase();
    lower.next() == Some(c) && lower.next().is_none()
}

/// Maps byte ranges of the folded text back to the original text.
pub(super) struct OffsetMap<'a> {
    chunks: &'a [ChunkStart],
    /// Byte offset in the original text where the last chunk ends.
    end: usize,
}

impl<'a> OffsetMap<'a> {
    /// A map over `chunks` (in order) whose last chunk ends at original offset `end`.
    pub fn new(chunks: &'a [ChunkStart], end: usize) -> Self {
        Self { chunks, end }
    }

    /// The original byte range covering the folded range `start..end` (non-empty).
    pub fn original(&self, start: usize, end: usize) -> (usize, usize) {
        let first = self
            .chunks
            .partition_point(|c| c.folded <= start)
            .saturating_sub(1);
        let after_last = self.chunks.partition_point(|c| c.folded < end);
        let from = self.chunks.get(first).map_or(0, |c| c.original);
        let to = self.chunks.get(after_last).map_or(self.end, |c| c.original);
        (from, to)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fold(text: &str, case: bool, diacritics: bool, compat: bool) -> String {
        let mut folder = Folder::new(case, diacritics, compat);
        let (mut out, mut chunks) = (String::new(), Vec::new());
        folder.fold_into(text, 0, &mut out, &mut chunks);
        out
    }

    #[test]
    fn folds_case_diacritics_and_compatibility() {
        assert_eq!(fold("Crème BRÛLÉE", true, true, true), "creme brulee");
        assert_eq!(fold("Crème BRÛLÉE", true, false, true), "crème brûlée");
        assert_eq!(fold("Crème BRÛLÉE", false, true, true), "Creme BRULEE");
        assert_eq!(fold("Straße ẞ", true, true, true), "strasse ss");
        assert_eq!(fold("ﬁle ＡＢＣ ²", true, true, true), "file abc 2");
        assert_eq!(fold("ﬁle ＡＢＣ", true, true, false), "file ａｂｃ");
        assert_eq!(fold("ﬁle", false, false, false), "ﬁle");
        assert_eq!(fold("ΟΔΥΣΣΕΥΣ", true, false, true), "οδυσσευσ");
        assert_eq!(
            fold("İstanbul KIRMIZI kırmızı", true, true, true),
            "istanbul kirmizi kirmizi"
        );
        assert_eq!(fold("İ", true, false, true), "i\u{307}");
        assert_eq!(fold("Łódź Ørsted", true, true, true), "lodz orsted");
    }

    #[test]
    fn nfd_and_nfc_fold_alike() {
        let nfc = "Ångström café 한국어 ガ";
        let nfd: String = nfc.nfd().collect();
        assert_ne!(nfc, nfd);
        for (case, diacritics, compat) in [
            (true, true, true),
            (false, false, false),
            (true, false, true),
        ] {
            assert_eq!(
                fold(nfc, case, diacritics, compat),
                fold(&nfd, case, diacritics, compat)
            );
        }
        // Case folding turns U+0345 (a mark, class 240) into a letter: it must see the
        // canonical order, in which the Thai tone mark (class 107) comes first.
        let iota = "\u{1FB3}\u{E48}";
        let iota_nfd: String = iota.nfd().collect();
        assert_eq!(fold(iota, true, false, false), "α\u{E48}ι");
        assert_eq!(fold(&iota_nfd, true, false, false), "α\u{E48}ι");
    }

    #[test]
    fn drops_invisible_characters() {
        assert_eq!(
            fold("a\u{200D}b\u{00AD}c\u{200E}d\u{FE0F}", true, true, true),
            "abcd"
        );
        assert_eq!(fold("a\u{200B}b", true, true, true), "a\u{200B}b");
        // Dropping the ZWJ lets the accent compose with the letter before it.
        assert_eq!(fold("e\u{200D}\u{301}", false, false, false), "é");
    }

    #[test]
    fn half_width_katakana_composes_with_its_voicing_mark() {
        assert_eq!(fold("ｶﾞｷﾞ", true, true, true), "ガギ");
    }

    #[test]
    fn maps_folded_ranges_back_to_original_chunks() {
        let text = "xÉcole ﬁ";
        let mut folder = Folder::new(true, true, true);
        let (mut out, mut chunks) = (String::new(), Vec::new());
        folder.fold_into(text, 10, &mut out, &mut chunks);
        assert_eq!(out, "xecole fi");
        let map = OffsetMap::new(&chunks, 10 + text.len());
        assert_eq!(map.original(1, 6), (11, 17)); // "ecole" <- "École"
        assert_eq!(map.original(7, 8), (18, 21)); // "f" <- "ﬁ" (one chunk)
        assert_eq!(map.original(8, 9), (18, 21)); // "i" <- "ﬁ"
    }
}

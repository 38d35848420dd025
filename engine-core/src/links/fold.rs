//! Comparison keys: Obsidian compares link paths and file paths case-insensitively
//! (`toLowerCase()` on both sides). We also make the comparison insensitive to Unicode
//! normalization, so a link typed in NFC finds a file whose name the file system stored in
//! NFD (macOS) and the other way round.

use alloc::string::String;

use unicode_normalization::UnicodeNormalization;

/// The comparison key of `s`: NFC, then full Unicode lowercase (the mapping JavaScript's
/// `toLowerCase` applies, including the final-sigma rule), then NFC again because
/// lowercasing can leave a string un-normalized.
pub(crate) fn fold(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    let nfc: String = s.nfc().collect();
    nfc.to_lowercase().nfc().collect()
}

/// The length JavaScript reports for `s` (UTF-16 code units): Obsidian orders equally good
/// candidates by `path.length`, so emoji count 2 and CJK count 1.
pub(crate) fn js_length(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_is_lowercased() {
        assert_eq!(fold("Folder/Note.MD"), "folder/note.md");
    }

    #[test]
    fn nfd_and_nfc_fold_alike() {
        assert_eq!(fold("Cafe\u{301}.md"), fold("Caf\u{e9}.md"));
        assert_eq!(fold("CAF\u{c9}.md"), "caf\u{e9}.md");
    }

    #[test]
    fn unicode_lowercase_is_full() {
        assert_eq!(fold("ÄÖÜ"), "äöü");
        assert_eq!(fold("ΟΔΟΣ"), "οδος");
        assert_eq!(fold("İ"), "i\u{307}");
    }

    #[test]
    fn js_length_counts_utf16_units() {
        assert_eq!(js_length("a/b.md"), 6);
        assert_eq!(js_length("😀.md"), 5);
        assert_eq!(js_length("日本.md"), 5);
    }
}

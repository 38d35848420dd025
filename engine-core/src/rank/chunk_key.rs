//! The document id of a note's chunk in a lexical index: `path`, a NUL, then the chunk's
//! ordinal as ten digits. Byte order of these ids is the order of `(path, ordinal)` (a NUL
//! sorts before every character a path can hold, and the ordinal has a fixed width), so the
//! index's tie-break on equal scores (id ascending) ranks tied chunks by note path, then by
//! place in the note — the same on every host that indexes the same notes, whatever ids its
//! own storage gives the chunks.

use alloc::format;
use alloc::string::String;

/// The id of chunk `ordinal` (from 0) of the note at `path`.
pub fn chunk_key(path: &str, ordinal: u32) -> String {
    format!("{path}\0{ordinal:010}")
}

/// The note path of a [`chunk_key`]; `None` when `key` is not one.
pub fn chunk_key_path(key: &str) -> Option<&str> {
    let (path, ordinal) = key.rsplit_once('\0')?;
    (ordinal.len() == 10 && ordinal.bytes().all(|b| b.is_ascii_digit())).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_sort_by_path_then_ordinal() {
        let mut keys = alloc::vec![
            chunk_key("a b.md", 0),
            chunk_key("a.md", 10),
            chunk_key("a.md", 9),
            chunk_key("a/b.md", 0),
            chunk_key("a", 3),
        ];
        keys.sort();
        let order: alloc::vec::Vec<_> = keys.iter().map(|k| chunk_key_path(k).unwrap()).collect();
        assert_eq!(order, ["a", "a b.md", "a.md", "a.md", "a/b.md"]);
        assert!(keys[2] < keys[3] && keys[2].ends_with("0000000009"));
    }

    #[test]
    fn paths_come_back() {
        assert_eq!(
            chunk_key_path(&chunk_key("Folder/Note.md", 42)),
            Some("Folder/Note.md")
        );
        assert_eq!(chunk_key_path("123"), None);
        assert_eq!(chunk_key_path("a\0x"), None);
    }
}

//! Block ids: ` ^id` at the end of a line, the id made of Latin letters, digits and `-`
//! (Obsidian's rule), after whitespace or alone on the line.

use super::lines::{is_space_or_tab, trim_end};

/// The `^id` ending `bytes[content..end]`: the offset of `^` and the end of the id.
pub(crate) fn trailing_block_id(
    bytes: &[u8],
    content: usize,
    end: usize,
) -> Option<(usize, usize)> {
    let id_end = trim_end(bytes, content, end);
    let id_len = bytes[content..id_end]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'-')
        .count();
    let caret = (id_end - id_len).checked_sub(1)?;
    let ok = id_len > 0
        && caret >= content
        && bytes[caret] == b'^'
        && (caret == content || is_space_or_tab(bytes[caret - 1]));
    ok.then_some((caret, id_end))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(s: &str) -> Option<&str> {
        trailing_block_id(s.as_bytes(), 0, s.len()).map(|(c, e)| &s[c + 1..e])
    }

    #[test]
    fn ids_end_the_line_after_whitespace() {
        assert_eq!(id("text ^abc-1"), Some("abc-1"));
        assert_eq!(id("^only  "), Some("only"));
        assert_eq!(id("text\t^X9 "), Some("X9"));
        assert_eq!(id("text^abc"), None);
        assert_eq!(id("text ^"), None);
        assert_eq!(id("text ^a_b"), None);
        assert_eq!(id("text ^é"), None);
        assert_eq!(id("abc"), None);
        assert_eq!(id(""), None);
    }
}

//! The line layout of a frontmatter block: where its YAML lines are, which line break the
//! note uses, and the byte range of every top-level property (its key line plus the indented
//! lines, block-list items and block-scalar lines that belong to it). Edits replace exactly
//! one property's range, so every other byte of the note stays as it was.

use std::ops::Range;

use engine_core::markdown::Frontmatter as Span;

use super::error::FrontmatterError;

/// The YAML lines of a frontmatter block.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Layout {
    /// Where the first YAML line starts (just after the opening `---` line).
    pub start: usize,
    /// Where the closing `---` line starts; every YAML line ends (with its break) before it.
    pub end: usize,
    /// The line break of the opening `---` line, used for every line written.
    pub eol: &'static str,
    /// The byte range of each top-level property, in document order, line breaks included.
    pub entries: Vec<Range<usize>>,
}

/// What one line of the block is, for grouping lines into properties.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    /// Empty or only whitespace.
    Blank,
    /// A comment starting in column 0.
    Comment,
    /// Starts with whitespace, or is a block-list item in column 0: it continues a property.
    Continuation,
    /// A top-level `key: value` line.
    Key,
}

/// The line break a note's lines use, judged by the line that ends at `line_end`.
pub(crate) fn line_break_before(text: &str, line_end: usize) -> &'static str {
    if text[..line_end].ends_with("\r\n") {
        "\r\n"
    } else {
        "\n"
    }
}

/// The byte range of the block's YAML lines: from just after the opening `---` line to the
/// start of the closing one, so each YAML line keeps its line break.
pub(crate) fn yaml_lines(text: &str, span: &Span) -> Range<usize> {
    let rest = &text[span.yaml_range.end..];
    let break_len = if rest.starts_with("\r\n") {
        2
    } else {
        usize::from(rest.starts_with('\n'))
    };
    span.yaml_range.start..span.yaml_range.end + break_len
}

/// Finds the layout of the block `span` of `text`.
pub(crate) fn scan(text: &str, span: &Span) -> Result<Layout, FrontmatterError> {
    let Range { start, end } = yaml_lines(text, span);
    let mut lines = Vec::new();
    let mut at = start;
    for line in text[start..end].split_inclusive('\n') {
        lines.push((at..at + line.len(), classify(line)?));
        at += line.len();
    }
    Ok(Layout {
        start,
        end,
        eol: line_break_before(text, start),
        entries: group(&lines)?,
    })
}

fn classify(line: &str) -> Result<LineKind, FrontmatterError> {
    let content = line.trim_end_matches(['\n', '\r']);
    let unsupported = |what: &str| FrontmatterError::UnsupportedLayout {
        reason: format!("a line starts with {what}: {content:?}"),
    };
    Ok(match content.chars().next() {
        None => LineKind::Blank,
        Some(_) if content.trim().is_empty() => LineKind::Blank,
        Some(' ' | '\t') => LineKind::Continuation,
        Some('#') => LineKind::Comment,
        Some('-') if content == "-" || content.starts_with("- ") => LineKind::Continuation,
        Some('-' | '.') if content.starts_with("---") || content.starts_with("...") => {
            return Err(unsupported("a YAML document marker"));
        }
        Some(c @ ('{' | '[' | '?' | '%' | '&' | '!' | '*' | '|' | '>')) => {
            return Err(unsupported(&format!("{c:?}")));
        }
        Some(_) => LineKind::Key,
    })
}

/// Groups lines into properties: a key line and every continuation line up to the next key
/// line. Blank and comment lines between two continuation lines belong to the property;
/// trailing ones (and leading ones before the first key) belong to none and are kept.
fn group(lines: &[(Range<usize>, LineKind)]) -> Result<Vec<Range<usize>>, FrontmatterError> {
    let mut entries: Vec<Range<usize>> = Vec::new();
    for (range, kind) in lines {
        match kind {
            LineKind::Key => entries.push(range.clone()),
            LineKind::Continuation => match entries.last_mut() {
                Some(entry) => entry.end = range.end,
                None => {
                    return Err(FrontmatterError::UnsupportedLayout {
                        reason: "an indented line comes before the first property".to_owned(),
                    });
                }
            },
            LineKind::Blank | LineKind::Comment => {}
        }
    }
    Ok(entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use engine_core::markdown::extract;

    fn layout(text: &str) -> Layout {
        scan(text, &extract(text).frontmatter.unwrap()).unwrap()
    }

    fn entry_texts(text: &str) -> Vec<&str> {
        layout(text).entries.into_iter().map(|r| &text[r]).collect()
    }

    #[test]
    fn groups_continuations_but_not_trailing_blanks_or_comments() {
        let text = "---\n# lead\na: 1\ntags:\n- x\n\n  - y\n# between\n\nb: |\n  line\n\n  more\n# tail\n---\nbody";
        assert_eq!(
            entry_texts(text),
            [
                "a: 1\n",
                "tags:\n- x\n\n  - y\n",
                "b: |\n  line\n\n  more\n"
            ]
        );
        let l = layout(text);
        assert_eq!(&text[l.end..l.end + 3], "---");
        assert_eq!(l.eol, "\n");
    }

    #[test]
    fn crlf_and_empty_blocks() {
        let text = "---\r\na: 1\r\nb: 2\r\n---\r\n";
        assert_eq!(entry_texts(text), ["a: 1\r\n", "b: 2\r\n"]);
        assert_eq!(layout(text).eol, "\r\n");
        let empty = layout("---\n---\n");
        assert_eq!((empty.start, empty.end, empty.entries.len()), (4, 4, 0));
        let blank = layout("---\n\n---\n");
        assert_eq!((blank.start, blank.end), (4, 5));
    }

    #[test]
    fn refuses_layouts_it_cannot_edit() {
        for yaml in ["{a: 1}", "  a: 1", "? a\n: 1", "a: 1\n...", "[1, 2]"] {
            let text = format!("---\n{yaml}\n---\n");
            let span = extract(&text).frontmatter.unwrap();
            assert!(
                matches!(
                    scan(&text, &span),
                    Err(FrontmatterError::UnsupportedLayout { .. })
                ),
                "{yaml}"
            );
        }
    }
}

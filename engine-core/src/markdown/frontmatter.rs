//! The YAML frontmatter span: `---` as the very first line (after an optional BOM) up to
//! the next line that is exactly `---` (trailing spaces and tabs allowed). Without a closing
//! line there is no frontmatter. The YAML itself is left to the host.

use alloc::string::ToString;

use super::lines::{Line, trim_end};
use super::position::LineIndex;
use super::types::{ByteRange, Frontmatter};

/// Length of the UTF-8 byte order mark, if `text` starts with one.
pub(crate) fn bom_len(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    }
}

/// `true` when the line is `---` with optional trailing spaces or tabs.
fn is_fence(bytes: &[u8], line: &Line) -> bool {
    bytes.get(line.start..trim_end(bytes, line.start, line.end)) == Some(b"---".as_slice())
}

/// Finds the frontmatter; `lines` must start at the first line of the note (BOM skipped).
pub(crate) fn find(text: &str, lines: &[Line], index: &LineIndex) -> Option<Frontmatter> {
    let bytes = text.as_bytes();
    let open = lines.first().filter(|l| is_fence(bytes, l))?;
    let close = lines.iter().skip(1).find(|l| is_fence(bytes, l))?;
    let yaml_start = open.next;
    let mut yaml_end = close.start;
    if yaml_end > yaml_start && bytes[yaml_end - 1] == b'\n' {
        yaml_end -= 1;
        if yaml_end > yaml_start && bytes[yaml_end - 1] == b'\r' {
            yaml_end -= 1;
        }
    }
    Some(Frontmatter {
        yaml: text
            .get(yaml_start..yaml_end)
            .unwrap_or_default()
            .to_string(),
        yaml_range: ByteRange {
            start: yaml_start,
            end: yaml_end,
        },
        body_start: close.next,
        position: index.pos(open.start, close.end),
    })
}

#[cfg(test)]
mod tests {
    use super::super::lines::split_lines;
    use super::*;

    fn frontmatter(text: &str) -> Option<Frontmatter> {
        let from = bom_len(text);
        find(text, &split_lines(text, from), &LineIndex::new(text))
    }

    #[test]
    fn reads_the_yaml_between_the_fences() {
        let fm = frontmatter("---\na: 1\nb: 2\n---\nbody").unwrap();
        assert_eq!(fm.yaml, "a: 1\nb: 2");
        assert_eq!(fm.yaml_range, ByteRange { start: 4, end: 13 });
        assert_eq!(fm.body_start, 18);
        assert_eq!(fm.position.end.line, 3);
    }

    #[test]
    fn empty_crlf_and_bom_frontmatter() {
        assert_eq!(frontmatter("---\n---").unwrap().yaml, "");
        let fm = frontmatter("---\r\nk: v\r\n---\r\nx").unwrap();
        assert_eq!((fm.yaml.as_str(), fm.body_start), ("k: v", 16));
        let fm = frontmatter("\u{feff}---\nk: v\n---\n").unwrap();
        assert_eq!(fm.position.start.offset, 3);
    }

    #[test]
    fn needs_a_closing_fence_on_a_later_line_and_an_opening_one_first() {
        assert!(frontmatter("---\nk: v\n").is_none());
        assert!(frontmatter("\n---\nk: v\n---\n").is_none());
        assert!(frontmatter("--- \nk: ---\n---  \n").is_some());
        assert!(frontmatter("----\nk\n---\n").is_none());
    }
}

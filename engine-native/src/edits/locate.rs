//! Where a heading's section and a block lie in a note, in bytes, found from
//! `engine_core::markdown::extract`'s metadata.

use engine_core::markdown::{NoteMetadata, SectionType};

use super::error::{Candidate, EditError};
use super::heading_path::find_heading;
use super::text_lines::TextLines;

/// A heading's section: the heading line(s) through the line before the next heading of the
/// same or a higher level (or the end of the note).
pub(crate) struct SectionSpan {
    /// Start of the heading's first line.
    pub(crate) start: usize,
    /// Just after the heading's line(s) (a setext heading includes its underline).
    pub(crate) body_start: usize,
    /// Start of the next heading of the same or a higher level, or the end of the note.
    pub(crate) end: usize,
}

/// The section under the heading `path` names.
pub(crate) fn section(
    meta: &NoteMetadata,
    lines: &TextLines,
    path: &str,
) -> Result<SectionSpan, EditError> {
    let index = find_heading(&meta.headings, path)?;
    let heading = &meta.headings[index];
    let end = meta.headings[index + 1..]
        .iter()
        .find(|next| next.level <= heading.level)
        .map_or(lines.start(lines.count()), |next| {
            lines.start(next.position.start.line)
        });
    Ok(SectionSpan {
        start: lines.start(heading.position.start.line),
        body_start: lines.end(heading.position.end.line).min(end),
        end,
    })
}

/// A block that carries a `^id`.
pub(crate) struct BlockSpan {
    /// Start of the block's first line.
    pub(crate) start: usize,
    /// End of the block's text before the `^id` marker (and the whitespace before it).
    pub(crate) content_end: usize,
    /// Just after the line holding the marker.
    pub(crate) end: usize,
}

/// `id` without a leading `^`, checked against Obsidian's block id rule.
pub(crate) fn block_id(id: &str) -> Result<&str, EditError> {
    let bare = id.trim().trim_start_matches('^');
    if bare.is_empty() || !bare.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Err(EditError::invalid(format!(
            "{id:?} is not a block id; give '^' followed by Latin letters, digits and '-', such as '^intro-1'"
        )));
    }
    Ok(bare)
}

/// The block carrying `^id`: the list item or top-level block whose last line ends with the
/// marker, or, for a marker alone on its line (Obsidian's form for lists, quotes and tables),
/// the block before it.
pub(crate) fn block(
    text: &str,
    meta: &NoteMetadata,
    lines: &TextLines,
    id: &str,
) -> Result<BlockSpan, EditError> {
    let bare = block_id(id)?;
    let marks: Vec<_> = meta.blocks.iter().filter(|b| b.id == bare).collect();
    let mark = match marks.as_slice() {
        [one] => *one,
        [] => {
            return Err(EditError::NotFound {
                target: format!("block ^{bare}"),
                hint: "block ids are case-sensitive and end a paragraph or list item; read the note to see its ids".into(),
            });
        }
        many => {
            return Err(EditError::Ambiguous {
                target: format!("block ^{bare}"),
                count: many.len(),
                candidates: many
                    .iter()
                    .map(|b| Candidate {
                        line: b.position.start.line + 1,
                        label: format!("^{}", b.id),
                    })
                    .collect(),
                hint: "block ids should be unique in a note; edit by line range or heading, or rename one of the ids".into(),
            });
        }
    };
    let caret = mark.position.start.offset;
    let end = lines.end(mark.position.start.line);
    let first_line = meta
        .list_items
        .iter()
        .find(|item| {
            item.id.as_deref() == Some(bare)
                && item.position.start.offset <= caret
                && caret < item.position.end.offset
        })
        .map(|item| item.position.start.line)
        .or_else(|| {
            meta.sections
                .iter()
                .find(|s| s.position.start.offset <= caret && caret < s.position.end.offset)
                .map(|s| s.position.start.line)
        })
        .unwrap_or(mark.position.start.line);
    let start = lines.start(first_line);
    let before_marker = text[start..caret].trim_end();
    if before_marker.is_empty() {
        let previous = meta.sections.iter().rev().find(|s| {
            s.position.end.offset <= start
                && !matches!(s.section_type, SectionType::Yaml | SectionType::Heading)
        });
        if let Some(previous) = previous {
            return Ok(BlockSpan {
                start: lines.start(previous.position.start.line),
                content_end: previous.position.end.offset,
                end,
            });
        }
    }
    Ok(BlockSpan {
        start,
        content_end: start + before_marker.len(),
        end,
    })
}

/// `true` when a setext heading's text line starts at `offset`: text put just before it would
/// become part of the heading unless a blank line separates them.
pub(crate) fn setext_heading_at(meta: &NoteMetadata, lines: &TextLines, offset: usize) -> bool {
    meta.headings.iter().any(|h| {
        h.position.start.line != h.position.end.line && lines.start(h.position.start.line) == offset
    })
}

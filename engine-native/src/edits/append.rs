//! `append_note`: add text at the end of a note, at the end of a section, after a block, or
//! at the top of the body (under the frontmatter).

use engine_core::markdown::extract;

use super::error::EditError;
use super::locate::{block, section, setext_heading_at};
use super::outcome::{Edit, splice};
use super::text_lines::TextLines;

/// Where to add the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppendAt {
    /// After the last line of the note.
    End,
    /// Before the first line of the body: just after the frontmatter's closing `---`, or at
    /// the very top of a note without frontmatter.
    Prepend,
    /// After the last non-blank line of a heading's section (named by text or
    /// `Parent#Child`), so blank lines before the next heading stay where they are.
    Section(String),
    /// After the last line of the block carrying this id.
    AfterBlock(String),
}

/// `text` with `content` added at `at` as whole lines: a line break separates it from the
/// line before (added only when that line lacks one), and one ends it when text follows.
pub fn append(text: &str, content: &str, at: &AppendAt) -> Result<Edit, EditError> {
    if content.is_empty() {
        return Err(EditError::invalid(
            "the content to add is empty; give the text to add",
        ));
    }
    let lines = TextLines::new(text);
    let meta = extract(text);
    let point = match at {
        AppendAt::End => text.len(),
        AppendAt::Prepend => meta
            .frontmatter
            .as_ref()
            .map_or(0, |fm| fm.body_start.min(text.len())),
        AppendAt::Section(path) => {
            let span = section(&meta, &lines, path)?;
            lines
                .end_of_content(span.body_start, span.end)
                .max(span.body_start)
        }
        AppendAt::AfterBlock(id) => block(text, &meta, &lines, id)?.end,
    };
    let separate = setext_heading_at(&meta, &lines, point);
    Ok(Edit::new(
        text,
        splice(text, point, point, content, separate),
    ))
}

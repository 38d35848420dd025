//! `patch_note`: replace a unique string, a heading's section or a block's text. Frontmatter
//! keys are edited by the frontmatter module, not here.

use engine_core::markdown::extract;

use super::error::{Candidate, EditError};
use super::locate::{block, block_id, section, setext_heading_at};
use super::outcome::{Edit, splice};
use super::text_lines::TextLines;

/// What to replace.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchTarget {
    /// The one occurrence of this string (it must occur exactly once).
    Unique(String),
    /// A heading's section (named by text or `Parent#Child`): its body, up to its last
    /// non-blank line, or with `include_heading` the heading line(s) too.
    Section {
        /// The heading text or path.
        heading: String,
        /// Replace the heading line(s) as well as the body.
        include_heading: bool,
    },
    /// The text of the block carrying this id; the ` ^id` marker is kept.
    Block(String),
}

/// `text` with `target` replaced by `replacement`. The result reports the lines removed and
/// added and whether the change needs a human's confirmation.
pub fn patch(text: &str, target: &PatchTarget, replacement: &str) -> Result<Edit, EditError> {
    let after = match target {
        PatchTarget::Unique(old) => replace_unique(text, old, replacement)?,
        PatchTarget::Section {
            heading,
            include_heading,
        } => {
            let lines = TextLines::new(text);
            let meta = extract(text);
            let span = section(&meta, &lines, heading)?;
            let from = if *include_heading {
                span.start
            } else {
                span.body_start
            };
            let to = lines.end_of_content(from, span.end).max(span.body_start);
            let separate = setext_heading_at(&meta, &lines, to);
            splice(text, from, to, replacement, separate)
        }
        PatchTarget::Block(id) => {
            let span = block(text, &extract(text), &TextLines::new(text), id)?;
            let new_text = block_text(replacement, block_id(id)?)?;
            let mut out = String::with_capacity(text.len() + new_text.len());
            out.push_str(&text[..span.start]);
            out.push_str(new_text);
            out.push_str(&text[span.content_end..]);
            out
        }
    };
    Ok(Edit::new(text, after))
}

/// The replacement for a block: line breaks and a repeated `^id` at its end dropped, since
/// the note keeps its own marker.
fn block_text<'a>(replacement: &'a str, id: &str) -> Result<&'a str, EditError> {
    let trimmed = replacement.trim_end();
    let without_marker = trimmed
        .strip_suffix(&format!("^{id}"))
        .filter(|rest| rest.is_empty() || rest.ends_with(char::is_whitespace))
        .map_or(trimmed, str::trim_end);
    if without_marker.is_empty() {
        return Err(EditError::invalid(
            "the block's new text is empty; give the text, or delete the block by patching its section or lines",
        ));
    }
    Ok(without_marker)
}

/// The byte offsets of every occurrence of `needle` in `haystack`, overlapping ones included.
fn occurrences(haystack: &str, needle: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut from = 0;
    while let Some(hit) = haystack[from..].find(needle) {
        let at = from + hit;
        found.push(at);
        from = at + haystack[at..].chars().next().map_or(1, char::len_utf8);
    }
    found
}

/// `text` with the single occurrence of `old` replaced by `new`.
fn replace_unique(text: &str, old: &str, new: &str) -> Result<String, EditError> {
    if old.is_empty() {
        return Err(EditError::invalid(
            "the string to replace is empty; give text that occurs exactly once in the note",
        ));
    }
    let hits = occurrences(text, old);
    match hits.as_slice() {
        [at] => Ok(format!("{}{new}{}", &text[..*at], &text[at + old.len()..])),
        [] => Err(EditError::NotFound {
            target: format!("the string {old:?}"),
            hint:
                "read the note again and copy the text exactly (spaces, case and line breaks count)"
                    .into(),
        }),
        many => {
            let lines = TextLines::new(text);
            Err(EditError::Ambiguous {
                target: format!("the string {old:?}"),
                count: many.len(),
                candidates: many
                    .iter()
                    .map(|&at| {
                        let line = lines.line_of(at);
                        Candidate {
                            line: line + 1,
                            label: text[lines.start(line)..lines.end(line)]
                                .trim_end()
                                .to_owned(),
                        }
                    })
                    .collect(),
                hint: "include more of the surrounding text so that it occurs exactly once".into(),
            })
        }
    }
}

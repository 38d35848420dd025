//! The text changes the link-editing tools (`rewrite_link`, `prune_hub_links`) plan: byte
//! ranges of a note's text replaced, the line-by-line view shown to the caller (each changed
//! line before and after), and the [`NoteChange`] the all-or-nothing commit of
//! [`crate::tools::common::relink`] writes.

use schemars::JsonSchema;
use serde::Serialize;

use crate::tools::common::relink::NoteChange;
use crate::vault::{NoteFile, TextFile};

/// One replacement in a note's text: bytes `start..end` become `new`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Replacement {
    /// Byte offset of the first replaced byte.
    pub(super) start: usize,
    /// Byte offset one past the last replaced byte.
    pub(super) end: usize,
    /// The text put in their place.
    pub(super) new: String,
}

/// One changed line, as shown to the caller.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(super) struct LineChange {
    /// The 1-based line number in the note as it is now.
    pub(super) line: u32,
    /// The line as it is now (without its line break).
    pub(super) old: String,
    /// The line after the change; absent when the whole line is removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) new: Option<String>,
}

/// One note's planned change, as shown to the caller.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(super) struct FileChange {
    /// The note's path.
    pub(super) path: String,
    /// Its SHA-256 now (the commit refuses to write it if it changes meanwhile).
    pub(super) sha256: String,
    /// How many links change in it.
    pub(super) links: usize,
    /// Its changed lines, in order.
    pub(super) lines: Vec<LineChange>,
}

/// `text` with `replacements` (sorted by `start`, not overlapping) applied, and the changed
/// lines. A replacement belongs to the line it starts on; one that covers a whole line and
/// its line break with nothing removes that line.
pub(super) fn apply(text: &str, replacements: &[Replacement]) -> (String, Vec<LineChange>) {
    let mut out = String::with_capacity(text.len());
    let mut copied = 0;
    for rep in replacements {
        out.push_str(&text[copied..rep.start]);
        out.push_str(&rep.new);
        copied = rep.end;
    }
    out.push_str(&text[copied..]);
    let mut lines = Vec::new();
    let mut offset = 0;
    let mut next = replacements.iter().peekable();
    for (index, line) in text.split_inclusive('\n').enumerate() {
        let end = offset + line.len();
        let mut on_line = Vec::new();
        while let Some(rep) = next.next_if(|rep| rep.start < end) {
            on_line.push(rep);
        }
        if !on_line.is_empty() {
            let body = line.trim_end_matches('\n').trim_end_matches('\r');
            let removed = on_line.len() == 1
                && on_line[0].start == offset
                && on_line[0].end == end
                && on_line[0].new.is_empty();
            let new = (!removed).then(|| {
                let mut changed = String::with_capacity(line.len());
                let mut at = offset;
                for rep in &on_line {
                    changed.push_str(&text[at..rep.start]);
                    changed.push_str(&rep.new);
                    at = rep.end.min(end).max(at);
                }
                changed.push_str(&text[at..end]);
                changed
                    .trim_end_matches('\n')
                    .trim_end_matches('\r')
                    .to_owned()
            });
            lines.push(LineChange {
                line: u32::try_from(index + 1).unwrap_or(u32::MAX),
                old: body.to_owned(),
                new,
            });
        }
        offset = end;
    }
    (out, lines)
}

/// The commit step of a note whose decoded text becomes `new_text` (same BOM and line
/// endings as before).
pub(super) fn note_change(
    original: NoteFile,
    decoded: TextFile,
    new_text: String,
    links: usize,
) -> NoteChange {
    NoteChange {
        path: original.path.clone(),
        new_bytes: TextFile {
            text: new_text,
            ..decoded
        }
        .encode(),
        original,
        links,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rep(start: usize, end: usize, new: &str) -> Replacement {
        Replacement {
            start,
            end,
            new: new.to_owned(),
        }
    }

    #[test]
    fn lines_show_each_change_and_whole_line_removals() {
        let text = "a [[x]] b [[x]]\n- [[y]]\nlast";
        let (out, lines) = apply(
            text,
            &[rep(2, 7, "[[z]]"), rep(10, 15, "[[z]]"), rep(16, 24, "")],
        );
        assert_eq!(out, "a [[z]] b [[z]]\nlast");
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].line, 1);
        assert_eq!(lines[0].new.as_deref(), Some("a [[z]] b [[z]]"));
        assert_eq!(lines[1].line, 2);
        assert_eq!(lines[1].old, "- [[y]]");
        assert_eq!(lines[1].new, None);
    }
}

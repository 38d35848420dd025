//! Editing properties line by line. `set`, `remove` and `merge` rewrite only the lines of the
//! properties they change (or append new ones at the end of the block), so every other byte
//! of the note — values like `zip: 01234`, comments, quoting, blank lines, line breaks —
//! stays exactly as it was. `replace` is the one destructive mode: it rewrites the whole
//! block. Every edit is checked by reading the result back: if any property other than the
//! edited ones would change, the edit is refused.

use engine_core::markdown::frontmatter_of;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::emit::property_lines;
use super::error::FrontmatterError;
use super::key::validate_key;
use super::layout::{line_break_before, scan, yaml_lines};
use super::read::{parse_note, read};

/// A change to a note's properties.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "mode", rename_all = "snake_case")]
pub enum Edit {
    /// Sets one property, replacing only its lines, or appending it at the end of the block
    /// (creating the block at the top of the note when there is none).
    Set {
        /// Property name.
        key: String,
        /// The new value.
        value: Value,
    },
    /// Removes one property's lines (the whole block when they were its only line, as
    /// Obsidian does). Removing a property the note does not have is not an error: the note
    /// is left as it is and the result says `changed: false`.
    Remove {
        /// Property name.
        key: String,
    },
    /// Sets several properties. When both the current and the given value are lists, the
    /// result is their union: the current items in order, then the given items not already
    /// present. Any other value replaces the current one (`null` empties it, never removes).
    Merge {
        /// Property name to value.
        properties: Map<String, Value>,
    },
    /// Rewrites the whole block from `properties` (in name order). Destructive: comments,
    /// quoting and properties not listed are lost. Allowed even when the current block is not
    /// valid YAML.
    Replace {
        /// The complete new set of properties.
        properties: Map<String, Value>,
    },
}

/// The outcome of an edit.
#[derive(Debug, Clone, PartialEq)]
pub struct EditResult {
    /// The note's new text (the same text when nothing changed).
    pub text: String,
    /// Whether the text changed.
    pub changed: bool,
    /// The properties before the edit (empty when a `replace` overwrote an unreadable block).
    pub before: Map<String, Value>,
    /// The properties after the edit.
    pub after: Map<String, Value>,
}

/// One line-level change.
enum Op<'a> {
    Set(&'a str, Value),
    Remove(&'a str),
}

/// A frontmatter block holding `properties` in order (the text of a new note, before its
/// body), each set as [`Edit::Set`] sets it.
pub fn block_of<'k>(
    properties: impl IntoIterator<Item = (&'k str, Value)>,
) -> Result<String, FrontmatterError> {
    let mut note = String::new();
    for (key, value) in properties {
        note = apply(
            &note,
            &Edit::Set {
                key: key.to_owned(),
                value,
            },
        )?
        .text;
    }
    Ok(note)
}

/// Applies an edit to a note's text. Refused edits (invalid key, unreadable block for a
/// non-`replace` mode, a layout that cannot be edited safely) change nothing.
pub fn apply(text: &str, edit: &Edit) -> Result<EditResult, FrontmatterError> {
    match edit {
        Edit::Set { key, value } => edit_lines(text, vec![Op::Set(key, value.clone())]),
        Edit::Remove { key } => edit_lines(text, vec![Op::Remove(key)]),
        Edit::Merge { properties } => {
            let current = read(text)?.properties;
            let ops = properties
                .iter()
                .map(|(k, v)| Op::Set(k, merged(current.get(k), v)))
                .collect();
            edit_lines(text, ops)
        }
        Edit::Replace { properties } => replace(text, properties),
    }
}

/// List union for `merge`; any other combination takes the given value.
fn merged(current: Option<&Value>, given: &Value) -> Value {
    match (current, given) {
        (Some(Value::Array(old)), Value::Array(new)) => {
            let mut items = old.clone();
            for item in new {
                if !items.contains(item) {
                    items.push(item.clone());
                }
            }
            Value::Array(items)
        }
        _ => given.clone(),
    }
}

fn edit_lines(text: &str, ops: Vec<Op<'_>>) -> Result<EditResult, FrontmatterError> {
    for op in &ops {
        let (Op::Set(key, _) | Op::Remove(key)) = op;
        validate_key(key)?;
    }
    let before = read(text)?.properties;
    let mut expected = before.clone();
    let mut out = text.to_owned();
    for op in &ops {
        out = apply_op(&out, op)?;
        match op {
            Op::Set(key, value) => expected.insert((*key).to_owned(), value.clone()),
            Op::Remove(key) => expected.remove(*key),
        };
    }
    finish(text, out, before, expected)
}

/// Reads the new text back and refuses the edit unless it holds exactly `expected`.
fn finish(
    text: &str,
    out: String,
    before: Map<String, Value>,
    expected: Map<String, Value>,
) -> Result<EditResult, FrontmatterError> {
    let after = read(&out)?.properties;
    if after != expected {
        let wrong: Vec<&String> = expected
            .keys()
            .chain(after.keys())
            .filter(|k| after.get(*k) != expected.get(*k))
            .collect();
        let only_edited_keys = wrong.iter().all(|k| before.get(*k) != expected.get(*k));
        return Err(match wrong.first() {
            Some(key) if only_edited_keys => FrontmatterError::ValueNotRepresentable {
                key: (*key).clone(),
            },
            _ => FrontmatterError::UnsupportedLayout {
                reason: "writing the new lines would change how other properties read".to_owned(),
            },
        });
    }
    Ok(EditResult {
        changed: out != text,
        text: out,
        before,
        after,
    })
}

fn apply_op(text: &str, op: &Op<'_>) -> Result<String, FrontmatterError> {
    let (span, ordered) = parse_note(text)?;
    let Some(span) = span else {
        return Ok(match op {
            Op::Set(key, value) => with_new_block(text, |eol| property_lines(key, value, eol)),
            Op::Remove(_) => text.to_owned(),
        });
    };
    let layout = scan(text, &span)?;
    if layout.entries.len() != ordered.len() {
        return Err(FrontmatterError::UnsupportedLayout {
            reason: format!(
                "{} property lines found for {} properties",
                layout.entries.len(),
                ordered.len()
            ),
        });
    }
    let (key, value) = match op {
        Op::Set(key, value) => (*key, Some(value)),
        Op::Remove(key) => (*key, None),
    };
    let index = ordered.iter().position(|(k, _)| k == key);
    let (range, new_lines) = match (index, value) {
        (Some(i), Some(value)) if &ordered[i].1 == value => return Ok(text.to_owned()),
        (Some(i), Some(value)) => (
            layout.entries[i].clone(),
            property_lines(key, value, layout.eol),
        ),
        // Removing the block's only line removes the block, as Obsidian does.
        (Some(i), None) if layout.entries[i] == (layout.start..layout.end) => {
            (block_start(text)..span.body_start, String::new())
        }
        (Some(i), None) => (layout.entries[i].clone(), String::new()),
        (None, Some(value)) => (
            layout.end..layout.end,
            property_lines(key, value, layout.eol),
        ),
        (None, None) => return Ok(text.to_owned()),
    };
    let mut out = text.to_owned();
    out.replace_range(range, &new_lines);
    Ok(out)
}

fn replace(text: &str, properties: &Map<String, Value>) -> Result<EditResult, FrontmatterError> {
    for key in properties.keys() {
        validate_key(key)?;
    }
    let before = read(text).map(|fm| fm.properties).unwrap_or_default();
    let block = |eol: &str| -> String {
        properties
            .iter()
            .map(|(k, v)| property_lines(k, v, eol))
            .collect()
    };
    let out = match frontmatter_of(text) {
        Some(span) => {
            let range = yaml_lines(text, &span);
            let mut out = text.to_owned();
            out.replace_range(range.clone(), &block(line_break_before(text, range.start)));
            out
        }
        None => with_new_block(text, block),
    };
    finish(text, out, before, properties.clone())
}

/// Puts a new frontmatter block holding `lines` at the very top of a note that has none
/// (after a byte order mark), using the note's line break.
fn with_new_block(text: &str, lines: impl FnOnce(&str) -> String) -> String {
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let at = block_start(text);
    format!(
        "{}---{eol}{}---{eol}{}",
        &text[..at],
        lines(eol),
        &text[at..]
    )
}

/// Where a frontmatter block starts: after the byte order mark, if any.
fn block_start(text: &str) -> usize {
    if text.starts_with('\u{feff}') {
        '\u{feff}'.len_utf8()
    } else {
        0
    }
}

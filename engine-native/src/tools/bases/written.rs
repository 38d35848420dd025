//! Writing a base: its sections rendered as YAML the way properties are written, parsed back
//! with the base parser before anything is written, and the result reported. An update
//! keeps the file's own text (comments, quoting, layout) for every top-level section it does
//! not change; only the changed sections are rendered anew.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::load::parse_base_text;
use crate::errors::ToolError;
use crate::frontmatter::property_lines;
use crate::runtime::ToolContext;
use crate::tools::common::structured::structured;
use crate::tools::common::write_back::write_back;

/// The result of `create_base` and `update_base`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BaseWritten {
    /// The base's path.
    pub path: String,
    /// Whether the file did not exist before.
    pub created: bool,
    /// The view names now, in order.
    pub view_names: Vec<String>,
    /// The file's SHA-256 now.
    pub sha256: String,
    /// Its SHA-256 before (when it replaced a file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_sha256: Option<String>,
}

/// A base rendered and checked, ready to write.
pub(super) struct Prepared {
    /// The YAML text.
    text: String,
    /// Its view names, in order.
    view_names: Vec<String>,
}

/// Renders `sections` (top-level keys in the given order) as YAML and checks that the text
/// parses as a base, before anything is asked or written.
pub(super) fn prepare(path: &str, sections: &[(String, Value)]) -> Result<Prepared, ToolError> {
    let text: String = sections
        .iter()
        .map(|(key, value)| property_lines(key, value, "\n"))
        .collect();
    let (_, base) = parse_base_text(path, &text)?;
    Ok(Prepared {
        text,
        view_names: base.views.into_iter().map(|v| v.name).collect(),
    })
}

/// Like [`prepare`] for an update of the base whose text was `original_text` (its sections
/// `original`): each section whose value is unchanged keeps its lines as written, every
/// section kept keeps the comments and blank lines just above it, and so do the lines before
/// the first section and after the last. When the kept text would not parse back to exactly `sections`, the whole
/// base is rendered anew.
pub(super) fn prepare_update(
    path: &str,
    (original_text, original): (&str, &[(String, Value)]),
    sections: &[(String, Value)],
) -> Result<Prepared, ToolError> {
    let Some(blocks) = SectionBlocks::split(original_text, original) else {
        return prepare(path, sections);
    };
    let mut text = blocks.head.clone();
    for (key, value) in sections {
        let unchanged = original.iter().any(|(k, v)| k == key && v == value);
        let block = blocks.by_key.iter().find(|block| block.key == *key);
        if let Some(block) = block {
            text.push_str(&block.above);
        }
        match block {
            Some(block) if unchanged => text.push_str(&block.lines),
            _ => text.push_str(&property_lines(key, value, "\n")),
        }
    }
    text.push_str(&blocks.tail);
    match parse_base_text(path, &text) {
        Ok((parsed, base)) if parsed == sections => Ok(Prepared {
            text,
            view_names: base.views.into_iter().map(|v| v.name).collect(),
        }),
        _ => prepare(path, sections),
    }
}

/// One top-level section of a base's text.
struct SectionBlock {
    /// Its key.
    key: String,
    /// The comment and blank lines just above it.
    above: String,
    /// Its own lines, from the key's line on.
    lines: String,
}

/// A base's text cut at its top-level keys.
struct SectionBlocks {
    /// The lines before the first key that are not a comment block above it.
    head: String,
    /// Each section, in order.
    by_key: Vec<SectionBlock>,
    /// The comment and blank lines after the last section.
    tail: String,
}

impl SectionBlocks {
    /// Cuts `text` at the lines that start each key of `sections`; `None` when the keys
    /// are not found there one line each, in order.
    fn split(text: &str, sections: &[(String, Value)]) -> Option<SectionBlocks> {
        let mut keys = sections.iter().map(|(key, _)| key.as_str()).peekable();
        let mut head = String::new();
        let mut by_key: Vec<SectionBlock> = Vec::new();
        let mut pending = String::new();
        for line in text.split_inclusive('\n') {
            let starts_key = keys.peek().is_some_and(|key| {
                line.strip_prefix(key)
                    .is_some_and(|rest| rest.starts_with(':'))
            });
            if starts_key {
                let key = keys.next()?;
                by_key.push(SectionBlock {
                    key: key.to_owned(),
                    above: std::mem::take(&mut pending),
                    lines: line.to_owned(),
                });
            } else if line.trim().is_empty() || line.starts_with('#') {
                pending.push_str(line);
            } else {
                let into = match by_key.last_mut() {
                    Some(block) => &mut block.lines,
                    None => &mut head,
                };
                into.push_str(&std::mem::take(&mut pending));
                into.push_str(line);
            }
        }
        if keys.next().is_some() || !text.ends_with('\n') {
            return None;
        }
        Some(SectionBlocks {
            head,
            by_key,
            tail: pending,
        })
    }
}

/// Writes a prepared base to `path`: a new file, or (with `previous_sha256`) a replacement
/// of the file that still has that content.
pub(super) fn write_base(
    ctx: &ToolContext<'_>,
    path: &str,
    prepared: Prepared,
    previous_sha256: Option<String>,
) -> Result<Value, ToolError> {
    let written = write_back(ctx, path, prepared.text.as_bytes(), previous_sha256.clone())?;
    structured(&BaseWritten {
        path: written.path,
        created: written.created,
        view_names: prepared.view_names,
        sha256: written.sha256,
        previous_sha256,
    })
}

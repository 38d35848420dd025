//! Tag edits of one note's text, computed without touching anything else: inline tags are
//! replaced or cut at their exact byte spans (body first, from the end), then the
//! frontmatter tags property is set through [`crate::frontmatter::apply`], which changes
//! only its own lines.

use serde_json::Value;

use super::parse::{InlineTag, NoteTags, TAG_PROPERTIES, is_under, key_of, read_tags};
use crate::frontmatter::{Edit, FrontmatterError, apply};

/// The new text of a note and how many tags the edit touched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Edited {
    /// The note's text after the edit.
    pub text: String,
    /// Frontmatter tags added, removed or renamed.
    pub frontmatter: usize,
    /// Inline tags added, removed or renamed.
    pub inline: usize,
}

/// The line break the note uses (`\r\n` when it has any, else `\n`).
fn line_break(text: &str) -> &'static str {
    if text.contains("\r\n") { "\r\n" } else { "\n" }
}

/// `text` with each `(start, end, replacement)` applied, spans not overlapping.
fn splice(text: &str, mut edits: Vec<(usize, usize, String)>) -> String {
    edits.sort_by_key(|edit| std::cmp::Reverse(edit.0));
    let mut out = text.to_owned();
    for (start, end, replacement) in edits {
        out.replace_range(start..end, &replacement);
    }
    out
}

/// The span to cut for an inline tag: the tag and one space before it (or after it, when
/// it opens its line), so no double space is left.
fn cut_span(text: &str, tag: &InlineTag) -> (usize, usize) {
    let bytes = text.as_bytes();
    if tag.start > 0 && bytes[tag.start - 1] == b' ' {
        (tag.start - 1, tag.end)
    } else if bytes.get(tag.end) == Some(&b' ') {
        (tag.start, tag.end + 1)
    } else {
        (tag.start, tag.end)
    }
}

/// Sets the tags property to `items` (removes it when empty), after the body edits.
fn set_items(text: &str, tags: &NoteTags, items: Vec<Value>) -> Result<String, FrontmatterError> {
    let key = tags.property.unwrap_or(TAG_PROPERTIES[0]).to_owned();
    let edit = if items.is_empty() {
        Edit::Remove { key }
    } else {
        Edit::Set {
            key,
            value: Value::Array(items),
        }
    };
    Ok(apply(text, &edit)?.text)
}

/// Adds `tag` to the frontmatter tags property (made a list) unless the note has it there.
pub(super) fn add_frontmatter(text: &str, tag: &str) -> Result<Edited, FrontmatterError> {
    let tags = read_tags(text)?;
    let key = key_of(tag);
    if tags.frontmatter.iter().any(|t| t.key == key) {
        return Ok(unchanged(text));
    }
    let mut items = tags.items.clone();
    items.push(Value::String(tag.to_owned()));
    Ok(Edited {
        text: set_items(text, &tags, items)?,
        frontmatter: 1,
        inline: 0,
    })
}

/// Appends `#tag` on a line of its own at the end of the note unless the body has it.
pub(super) fn add_inline(text: &str, tag: &str) -> Result<Edited, FrontmatterError> {
    let tags = read_tags(text)?;
    let key = key_of(tag);
    if tags.inline.iter().any(|t| t.written.key == key) {
        return Ok(unchanged(text));
    }
    let eol = line_break(text);
    let mut out = text.to_owned();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push_str(eol);
    }
    out.push('#');
    out.push_str(tag);
    out.push_str(eol);
    Ok(Edited {
        text: out,
        frontmatter: 0,
        inline: 1,
    })
}

/// Removes every occurrence of exactly `tag` (not its nested tags) from the frontmatter
/// and/or the body.
pub(super) fn remove(
    text: &str,
    tag: &str,
    frontmatter: bool,
    inline: bool,
) -> Result<Edited, FrontmatterError> {
    let tags = read_tags(text)?;
    let key = key_of(tag);
    let cuts: Vec<(usize, usize, String)> = if inline {
        tags.inline
            .iter()
            .filter(|t| t.written.key == key)
            .map(|t| {
                let (start, end) = cut_span(text, t);
                (start, end, String::new())
            })
            .collect()
    } else {
        Vec::new()
    };
    let inline_count = cuts.len();
    let mut out = splice(text, cuts);
    let keep: Vec<Value> = tags
        .items
        .iter()
        .filter(|item| item.as_str().is_none_or(|s| key_of(s) != key))
        .cloned()
        .collect();
    let frontmatter_count = if frontmatter {
        tags.items.len() - keep.len()
    } else {
        0
    };
    if frontmatter_count > 0 {
        out = set_items(&out, &tags, keep)?;
    }
    Ok(Edited {
        text: out,
        frontmatter: frontmatter_count,
        inline: inline_count,
    })
}

/// `written` (without `#`) renamed from `from` to `to` when its key is `from` or nested
/// under it: the nested segments keep their spelling (`A/Child` → `to/Child`).
fn renamed(written: &str, from_key: &str, to: &str) -> Option<String> {
    let key = key_of(written);
    if !is_under(&key, from_key) {
        return None;
    }
    let depth = from_key.split('/').count();
    let rest: Vec<&str> = written.split('/').skip(depth).collect();
    Some(if rest.is_empty() {
        to.to_owned()
    } else {
        format!("{to}/{}", rest.join("/"))
    })
}

/// Renames `from` to `to` everywhere in the note, nested tags included (`from/x` becomes
/// `to/x`); frontmatter items that become equal to an earlier one are dropped.
pub(super) fn rename(text: &str, from: &str, to: &str) -> Result<Edited, FrontmatterError> {
    let tags = read_tags(text)?;
    let from_key = key_of(from);
    let body_edits: Vec<(usize, usize, String)> = tags
        .inline
        .iter()
        .filter_map(|t| {
            renamed(&t.written.tag, &from_key, to).map(|new| (t.start, t.end, format!("#{new}")))
        })
        .collect();
    let inline_count = body_edits.len();
    let mut out = splice(text, body_edits);
    let mut frontmatter_count = 0;
    let mut items: Vec<Value> = Vec::new();
    let mut keys: Vec<String> = Vec::new();
    for item in &tags.items {
        let Some(written) = item.as_str() else {
            items.push(item.clone());
            continue;
        };
        let hash = if written.trim_start().starts_with('#') {
            "#"
        } else {
            ""
        };
        let bare = written.trim().trim_start_matches('#');
        let new = match renamed(bare, &from_key, to) {
            Some(new) => {
                frontmatter_count += 1;
                format!("{hash}{new}")
            }
            None => written.to_owned(),
        };
        let key = key_of(&new);
        if !keys.contains(&key) {
            keys.push(key);
            items.push(Value::String(new));
        }
    }
    if frontmatter_count > 0 {
        out = set_items(&out, &tags, items)?;
    }
    Ok(Edited {
        text: out,
        frontmatter: frontmatter_count,
        inline: inline_count,
    })
}

fn unchanged(text: &str) -> Edited {
    Edited {
        text: text.to_owned(),
        frontmatter: 0,
        inline: 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTE: &str = "---\ntitle: x # keep\ntags: [a, b]\n---\nText #a and #a/kid and #ab.\n";

    #[test]
    fn add_keeps_every_other_byte() {
        let added = add_frontmatter(NOTE, "c").expect("edit");
        assert_eq!(
            read_tags(&added.text).expect("valid").keys(),
            ["a", "a/kid", "ab", "b", "c"]
        );
        assert!(added.text.starts_with("---\ntitle: x # keep\n"));
        assert!(added.text.ends_with("---\nText #a and #a/kid and #ab.\n"));
        assert_eq!(add_frontmatter(NOTE, "A").expect("edit").frontmatter, 0);
        let inline = add_inline("no break", "new").expect("edit");
        assert_eq!(inline.text, "no break\n#new\n");
    }

    #[test]
    fn remove_takes_exactly_the_tag_not_its_children_or_lookalikes() {
        let removed = remove(NOTE, "#A", true, true).expect("edit");
        assert_eq!(removed.inline, 1);
        assert_eq!(removed.frontmatter, 1);
        assert!(removed.text.ends_with("---\nText and #a/kid and #ab.\n"));
        assert!(removed.text.contains("title: x # keep\n"));
        let body_only = remove(NOTE, "a", false, true).expect("edit");
        assert!(body_only.text.contains("tags: [a, b]"));
    }

    #[test]
    fn rename_moves_nested_tags_and_keeps_their_spelling() {
        let text = "---\ntags: [\"#A/Kid\", b, a]\n---\n#a here #A/Kid/Deep #ab\n";
        let done = rename(text, "a", "z").expect("edit");
        assert_eq!(done.inline, 2);
        assert_eq!(done.frontmatter, 2);
        assert!(
            done.text.ends_with("---\n#z here #z/Kid/Deep #ab\n"),
            "{}",
            done.text
        );
        let tags = read_tags(&done.text).expect("valid");
        assert_eq!(tags.keys(), ["ab", "b", "z", "z/kid", "z/kid/deep"]);
        let merged = rename("---\ntags: [a, z]\n---\n", "a", "z").expect("edit");
        assert_eq!(read_tags(&merged.text).expect("valid").items.len(), 1);
    }
}

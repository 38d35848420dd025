//! The note-level fields every chunk of a note is found by in a lexical index: its title
//! (file name without `.md`), its aliases and its tags (inline and frontmatter). The native
//! server and the plugin both derive them here, so their indexes hold the same documents.

use alloc::borrow::ToOwned;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use super::NoteMetadata;

/// The title, aliases and tags of one note.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteFields {
    /// The file name without its `.md` extension.
    pub title: String,
    /// `aliases` (or `alias`) of the frontmatter, in order.
    pub aliases: Vec<String>,
    /// Tag keys (lowercase, no `#`), inline and frontmatter, sorted and unique.
    pub tags: Vec<String>,
}

/// The fields of the note at `path`, from its extracted metadata (`meta.tags`) and its
/// frontmatter properties (`{}` without frontmatter, or when it does not parse).
pub fn note_fields(
    path: &str,
    meta: &NoteMetadata,
    frontmatter: &Map<String, Value>,
) -> NoteFields {
    let aliases = string_list(frontmatter, &["aliases", "alias"]);
    let mut tags: Vec<String> = meta.tags.iter().map(|tag| tag.key.clone()).collect();
    tags.extend(
        string_list(frontmatter, &["tags", "tag"])
            .into_iter()
            .map(|tag| tag.trim_start_matches('#').to_lowercase())
            .filter(|tag| !tag.is_empty()),
    );
    tags.sort();
    tags.dedup();
    NoteFields {
        title: title_of(path),
        aliases,
        tags,
    }
}

/// The file name without its `.md` extension.
pub fn title_of(path: &str) -> String {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.strip_suffix(".md").unwrap_or(name).to_owned()
}

/// The strings under the first present key of `keys`: a list, or one string split on commas
/// (Obsidian accepts `tags: a, b`).
fn string_list(properties: &Map<String, Value>, keys: &[&str]) -> Vec<String> {
    let Some(value) = keys.iter().find_map(|key| properties.get(*key)) else {
        return Vec::new();
    };
    match value {
        Value::String(text) => text
            .split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        Value::Array(items) => items
            .iter()
            .filter_map(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_owned)
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::markdown::extract;
    use serde_json::json;

    #[test]
    fn fields_from_metadata_and_frontmatter() {
        let text = "body #Inline/Tag and #b\n";
        let Value::Object(fm) = json!({"aliases": ["One", " ", "Two "], "tags": "#B, c"}) else {
            unreachable!()
        };
        let fields = note_fields("Folder/My note.md", &extract(text), &fm);
        assert_eq!(fields.title, "My note");
        assert_eq!(fields.aliases, ["One", "Two"]);
        assert_eq!(fields.tags, ["b", "c", "inline/tag"]);
    }

    #[test]
    fn alias_is_read_when_aliases_is_absent_and_other_types_are_ignored() {
        let Value::Object(fm) = json!({"alias": "A, B", "tags": 3}) else {
            unreachable!()
        };
        let fields = note_fields("n.md", &extract(""), &fm);
        assert_eq!(fields.aliases, ["A", "B"]);
        assert!(fields.tags.is_empty());
        assert_eq!(title_of("x.txt"), "x.txt");
    }
}

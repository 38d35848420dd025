//! The arguments of the tag tools.

use schemars::JsonSchema;
use serde::Deserialize;

/// Where `add_tag` writes a tag.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(super) enum AddLocation {
    /// The frontmatter `tags` list (default).
    #[default]
    Frontmatter,
    /// `#tag` on a line of its own at the end of the body.
    Inline,
}

/// Where `remove_tag` removes a tag from.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(super) enum RemoveLocation {
    /// The frontmatter `tags` list.
    Frontmatter,
    /// Every `#tag` of the body.
    Inline,
    /// Both (default).
    #[default]
    All,
}

/// The arguments of `list_tags`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct ListTags {
    /// Only notes under this folder (default: the whole vault).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    pub folder: Option<String>,
    /// The most tags returned, by tag (1-5000, default 1000).
    #[serde(default = "default_list_limit")]
    #[schemars(range(min = 1, max = 5000))]
    pub limit: usize,
}

/// The arguments of `get_note_tags`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct NoteTagsArgs {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
}

/// The arguments of `find_notes_by_tag`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct FindByTag {
    /// The tag, with or without `#`; case does not matter.
    #[schemars(length(min = 1, max = 256))]
    pub tag: String,
    /// Only the tag itself, not its nested tags (default false: `#a` matches `#a/b`).
    #[serde(default)]
    pub exact: bool,
    /// Only notes under this folder.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    pub folder: Option<String>,
    /// The most notes returned, by path (1-1000, default 100).
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: usize,
}

/// The arguments of `add_tag`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct AddTag {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// The tag, with or without `#` (`project/alpha`).
    #[schemars(length(min = 1, max = 256))]
    pub tag: String,
    /// `frontmatter` (default) or `inline`.
    #[serde(default)]
    pub location: AddLocation,
    /// Show the change without writing.
    #[serde(default)]
    pub dry_run: bool,
    /// Refuse the write unless the note's SHA-256 is this one.
    #[serde(default)]
    #[schemars(length(equal = 64))]
    pub expected_sha256: Option<String>,
}

/// The arguments of `remove_tag`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RemoveTag {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    pub path: String,
    /// The tag, with or without `#`; nested tags (`tag/x`) are kept.
    #[schemars(length(min = 1, max = 256))]
    pub tag: String,
    /// `frontmatter`, `inline` or `all` (default).
    #[serde(default)]
    pub location: RemoveLocation,
    /// Show the change without writing.
    #[serde(default)]
    pub dry_run: bool,
    /// Refuse the write unless the note's SHA-256 is this one.
    #[serde(default)]
    #[schemars(length(equal = 64))]
    pub expected_sha256: Option<String>,
}

/// The arguments of `rename_tag`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RenameTag {
    /// The tag to rename, with or without `#`; its nested tags are renamed too.
    #[schemars(length(min = 1, max = 256))]
    pub from: String,
    /// The new name.
    #[schemars(length(min = 1, max = 256))]
    pub to: String,
    /// Show what would change without writing (default true: look first, then run with
    /// false).
    #[serde(default = "yes")]
    pub dry_run: bool,
}

fn default_list_limit() -> usize {
    1000
}
fn default_limit() -> usize {
    100
}
fn yes() -> bool {
    true
}

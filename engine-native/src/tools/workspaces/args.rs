//! The arguments of the workspace and bookmark tools.

use schemars::JsonSchema;
use serde::Deserialize;

/// `list_workspaces` and `list_bookmarks` arguments (none).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct NoArgs {}

/// `save_workspace` and `open_workspace` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct WorkspaceName {
    /// The workspace's name (saving over an existing one asks the user first).
    pub name: String,
}

/// What a new bookmark points at.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(super) enum BookmarkKind {
    /// A file (`path`).
    File,
    /// A folder (`path`).
    Folder,
    /// A heading of a note (`path` and `subpath`: the heading text).
    Heading,
    /// A block of a note (`path` and `subpath`: the block id, with or without `^`).
    Block,
    /// A saved search (`query`).
    Search,
    /// A web address (`url`).
    Url,
}

/// `add_bookmark` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct AddBookmark {
    /// What the bookmark points at.
    #[serde(rename = "type")]
    pub kind: BookmarkKind,
    /// The file or folder (file, folder, heading, block).
    pub path: Option<String>,
    /// The heading text (heading) or block id (block).
    pub subpath: Option<String>,
    /// The search query (search).
    pub query: Option<String>,
    /// The address (url).
    pub url: Option<String>,
    /// A display title (optional; url bookmarks show it).
    pub title: Option<String>,
    /// The group to put it in, outermost first (`["Reading", "2026"]`); missing groups are
    /// created. Default: the top level.
    #[serde(default)]
    pub group: Vec<String>,
}

/// `remove_bookmark` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct RemoveBookmark {
    /// The bookmark's id, as `list_bookmarks` gives it.
    pub id: String,
}

//! Workspace tools (domain `workspace`) over Obsidian's two agent-writable settings files.
//!
//! - `list_workspaces`: the saved workspaces, which one is active, the files each layout
//!   has open (only those the caller may read).
//! - `save_workspace`: the current layout (`.obsidian/workspace.json`, read by the server)
//!   saved under a name and made active; replacing a saved one asks the user first.
//! - `open_workspace`: the name is checked (`not_found`), then the vault's TC Bridge
//!   companion loads the layout in the running app (`plugin_missing` without one).
//! - `list_bookmarks`: every bookmark flattened with its group path and a stable id.
//! - `add_bookmark`: a file, folder, heading, block, search or url bookmark, optionally into
//!   a group (created when missing); a duplicate target is refused.
//! - `remove_bookmark`: destructive (always confirmed), by id.
//!
//! Bookmarks pointing at a path the caller may not read are never listed or touched.

mod args;
mod bookmarks;
mod json_file;
mod layouts;

use crate::runtime::{Handler, ToolDef};
use crate::tools::common::args::input_schema;
use crate::tools::common::structured::output_schema;

/// A workspace tool.
fn tool(
    (name, title, description): (&'static str, &'static str, &'static str),
    keywords: &'static [&'static str],
    schemas: (serde_json::Value, Option<serde_json::Value>),
    scopes: &'static [&'static str],
    handler: Handler,
) -> ToolDef {
    ToolDef::new(
        (name, title, description),
        "workspace",
        (schemas.0, schemas.1),
        handler,
    )
    .keywords(keywords)
    .scopes(scopes)
}

/// The workspace and bookmark tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            (
                "list_workspaces",
                "List workspaces",
                "Saved workspace layouts (Workspaces core plugin): which one is active and the tabs each layout shows.",
            ),
            &["workspaces", "saved layouts", "workspace layout", "layouts", "which layout"],
            (
                input_schema::<args::NoArgs>(),
                output_schema::<layouts::WorkspaceList>(),
            ),
            &["read:workspaces"],
            layouts::list_workspaces,
        ),
        tool(
            (
                "save_workspace",
                "Save workspace",
                "Store the current pane and tab layout as a saved workspace layout and make it active. Replacing a saved layout asks the user first.",
            ),
            &["save layout", "save workspace", "workspace layout", "remember layout", "keep tabs"],
            (
                input_schema::<args::WorkspaceName>(),
                output_schema::<layouts::WorkspaceSaved>(),
            ),
            &["write:workspaces"],
            layouts::save_workspace,
        )
        .idempotent(true),
        tool(
            (
                "open_workspace",
                "Switch workspace",
                "Switch the app to a saved workspace layout (its panes, splits, sidebars and tabs), carried out in the running app by the TC Bridge companion; without a reachable companion the call fails with plugin_missing or plugin_unreachable and does nothing.",
            ),
            &["load layout", "switch workspace", "workspace layout", "switch layout", "change layout"],
            (
                input_schema::<args::WorkspaceName>(),
                output_schema::<layouts::WorkspaceOpened>(),
            ),
            &["write:workspaces"],
            layouts::open_workspace,
        ),
        tool(
            (
                "list_bookmarks",
                "List bookmarks",
                "Every bookmark (Bookmarks core plugin) flattened: type (file, folder, heading, block, search, url, graph, group), its group path, target and a stable id for remove_bookmark.",
            ),
            &["bookmarks", "bookmarked", "starred", "favorites", "show bookmarks", "my bookmarks"],
            (
                input_schema::<args::NoArgs>(),
                output_schema::<bookmarks::BookmarkList>(),
            ),
            &["read:bookmarks"],
            bookmarks::list_bookmarks,
        ),
        tool(
            (
                "add_bookmark",
                "Add bookmark",
                "Bookmark a file, folder, heading (subpath: heading text), block (subpath: block id), search (query) or url, optionally into a group (titles outermost first, created when missing). A target already bookmarked is refused.",
            ),
            &["bookmark", "add bookmark", "star note", "favorite"],
            (
                input_schema::<args::AddBookmark>(),
                output_schema::<bookmarks::BookmarkChanged>(),
            ),
            &["write:bookmarks"],
            bookmarks::add_bookmark,
        )
        .idempotent(true),
        tool(
            (
                "remove_bookmark",
                "Remove bookmark",
                "Remove a bookmark (or a group with its contents) by the id list_bookmarks gives. Always asks the user first.",
            ),
            &["take out of bookmarks", "starred", "remove bookmark", "unbookmark", "unstar", "delete bookmark", "unfavorite"],
            (
                input_schema::<args::RemoveBookmark>(),
                output_schema::<bookmarks::BookmarkChanged>(),
            ),
            &["delete:bookmarks"],
            bookmarks::remove_bookmark,
        )
        .destructive(),
    ]
}

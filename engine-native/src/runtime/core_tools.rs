//! The `core` tool profile (`toolVisibility.profile: "core"`): the curated everyday set for
//! MCP clients that cap how many tools they take (several cap at 100 or 128; the flat
//! listing of every tool is larger). Under `core` every other tool is neither listed nor
//! callable (`capability_hidden`), as in the original's profile.
//!
//! The set is this one list, kept next to the visibility rules rather than as a flag on each
//! [`crate::runtime::ToolDef`]: the whole curated set, and its size, read in one place, and a
//! tool added later stays out of `core` until someone decides it belongs, so the listing
//! never grows past a client's cap unnoticed (`tests/it/runtime/core_tools.rs` checks that
//! every name is registered and that the set stays under 100).
//!
//! What is in, by the original's reasoning (usage: the everyday tools an agent reaches for):
//! notes, search and context, links and the three graph tools of everyday navigation,
//! frontmatter and tags, tasks (native here, not a plugin bridge), agent memory, the capture
//! queue, snapshots and undo, sessions and their start (`session_bootstrap`), the work memory
//! and goals (the maintenance sweep calls `expire_goals` through dispatch, so it stays
//! callable; `work_episode_chain` and `record_retrieval_feedback` are out, the original
//! recorded no feedback in 97 logged retrievals), the bulk note tools, the vault registry and the
//! visibility and ACL inspectors, git (native here, many vaults are repositories), and the
//! facade's own tools. What is out: the other names of search_vault's modes
//! (`search_semantic`, `search_jsonlogic`), `audit_provenance`, the
//! structured-document families (bases, canvas, Kanban, periodic notes, workspaces and
//! bookmarks, attachments, tables), every tool carried out by TC Bridge in a running
//! Obsidian (commands, Dataview, Templater, QuickAdd, OCR, Excalidraw, make.md, Omnisearch,
//! active note), the rarely used graph analytics (`graph_centrality`,
//! `graph_communities`, `suggest_links`, `find_link_cycles`, `prune_hub_links`,
//! `vault_health_score`), the typed-link and property-hygiene tools, and the operator's
//! tools (`get_metrics`, `query_audit_log`, `reset_vault_cache`).

/// The tools of the `core` profile, by family.
pub const CORE_TOOLS: &[&str] = &[
    // facade
    "find_capability",
    "describe_capability",
    // notes
    "note_exists",
    "read_note",
    "read_notes",
    "list_notes",
    "write_note",
    "append_note",
    "patch_note",
    "edit_note",
    "move_note",
    "copy_note",
    "delete_note",
    // search and context
    "search_vault",
    "search_and_read",
    "search_text",
    "search_regex",
    "index_vault",
    "get_index_status",
    "search",
    "fetch",
    "get_context",
    "vault_context",
    "vault_graph_search",
    "bundle_files",
    "bundle_folder",
    // links and everyday graph navigation
    "get_outgoing_links",
    "get_backlinks",
    "find_orphans",
    "find_unresolved_links",
    "resolve_note",
    "get_vault_tree",
    "rewrite_link",
    "bulk_move_notes",
    "graph_neighbors",
    "graph_path_between",
    "get_link_strength",
    "generate_uri",
    // frontmatter and tags
    "read_frontmatter",
    "read_property",
    "update_frontmatter",
    "list_properties",
    "find_notes_by_property",
    "list_tags",
    "get_note_tags",
    "find_notes_by_tag",
    "add_tag",
    "remove_tag",
    "rename_tag",
    // tasks
    "list_tasks",
    "update_task",
    // agent memory
    "create_entity",
    "get_entity",
    "add_observation",
    "link_entities",
    "unlink_entities",
    "query_entity_graph",
    "search_entities",
    "rename_entity",
    "delete_entity",
    // capture queue
    "capture_note",
    "enqueue_capture",
    "list_capture_queue",
    "commit_capture",
    // snapshots and undo
    "list_snapshots",
    "snapshot_note",
    "read_snapshot",
    "restore_note",
    "undo_last_change",
    // sessions
    "start_session",
    "end_session",
    "get_session_traces",
    "session_bootstrap",
    // work memory and goals
    "work_search",
    "work_episodes",
    "work_forget",
    "work_result",
    "episode_stats",
    "set_goal",
    "list_goals",
    "close_goal",
    "expire_goals",
    // bulk
    "bulk_create_notes",
    "bulk_set_property",
    // vaults and inspection
    "server_health",
    "get_server_config",
    "list_vaults",
    "get_vault",
    "reload_vault",
    "add_vault",
    "inspect_acl",
    "inspect_visibility",
    // git
    "git_status",
    "git_diff",
    "git_log",
    "git_show",
    "git_stage",
    "git_commit",
];

/// Whether the tool `name` is in the `core` profile.
pub fn is_core(name: &str) -> bool {
    CORE_TOOLS.contains(&name)
}

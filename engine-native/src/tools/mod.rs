//! The built-in tools. Each module but [`common`] is a tool family that declares its tools as
//! [`ToolDef`]s; [`all_tools`] lists them all, for [`crate::dispatch::register_builtin`] to
//! register. No family uses another (`tests/it/layers.rs` checks it): what several share is
//! in [`common`].
//!
//! - [`common`]: what the families share: typed arguments and results (`args`,
//!   `structured`, `ordered_json`), paging (`paging`: cursors, `Page`, page sizes), the vault's
//!   errors and guarded writes (`vault_error`, `write_back`), the search index and the link
//!   table (`index`, `link_table`), link rewriting (`relink`), note edits (`edit_flow`,
//!   `edit_error`, `note_text`), frontmatter reading (`frontmatter`), calls to TC Bridge
//!   (`companion`), the `admin` domain's tool shape (`admin`), the memory folder and note
//!   URIs (`memory_folder`, `note_uri`), the response budget of packed text (`budget`), and
//!   the notes read at a session's start (`preload`), the open contradictions a caller may see
//!   (`contradictions`), the model of a call and its egress guard (`model`).
//! - [`admin`]: `server_health`, `get_server_config`, `inspect_acl`, `inspect_visibility`,
//!   `get_metrics` (each scoped to a vault-bound caller).
//! - [`audit`]: `query_audit_log`, the vault's audit rows (the paths the caller may read).
//! - [`vaults`]: `list_vaults`, `get_vault`, `reload_vault` (re-read the config file),
//!   `reset_vault_cache` (destructive: HITL, drops one vault's rows of the cache database).
//! - [`frontmatter`]: `read_frontmatter`, `read_property`, `update_frontmatter` (`replace`:
//!   conditional HITL), `list_properties`, `find_notes_by_property`, `audit_provenance`.
//! - [`notes`]: `note_exists`, `read_note` (whole note), `delete_note` (destructive: HITL,
//!   soft delete into `.trash/`).
//! - [`search`]: `search_vault` (lexical ranking, ACL-filtered, paged), `index_vault`,
//!   `get_index_status`, `search_semantic` / `search_jsonlogic` (the original's names for two
//!   of its modes).
//! - [`context`]: `vault_graph_search` (GraphRAG), `get_context` / `vault_context`,
//!   `bundle_folder`, `bundle_files`, the connector pair `search` / `fetch`, and
//!   `search_and_read` (the best notes read whole, to the response budget).
//! - [`snapshots`]: `list_snapshots`, `read_snapshot`, `restore_note` (dry run first, HITL),
//!   `undo_last_change` (the caller's last change put back, all or nothing), `snapshot_note`
//!   (a snapshot taken by hand).
//! - [`links`]: `get_outgoing_links`, `get_backlinks`, `find_orphans`, `find_unresolved_links`,
//!   `bulk_move_notes`, `rewrite_link`, `prune_hub_links`, `resolve_note`, `get_vault_tree`
//!   (and the link rewriting of `move_note` / `copy_note`).
//! - [`graph`]: graph analytics (`graph_path_between`, `graph_neighbors`, `find_link_cycles`,
//!   `get_link_strength`, `suggest_links`, `graph_centrality`, `graph_communities`,
//!   `vault_health_score`) over the ACL-filtered typed link graph.
//! - [`tags`]: `list_tags`, `get_note_tags`, `find_notes_by_tag`, `add_tag`, `remove_tag`,
//!   `rename_tag` (vault-wide, dry run first, all or nothing).
//! - [`bases`]: `read_base`, `query_base` (run a `.base` view over the vault's files).
//! - [`tasks`]: `list_tasks` (typed filters, paged), `update_task` (status, dates, priority).
//! - [`periodic`]: `get_periodic_note`, `create_periodic_note`, `find_or_create_periodic_note`,
//!   `append_to_periodic_note`, `list_periodic_notes` (as Obsidian's settings lay them out).
//! - [`attachments`]: `list_attachments`, `get_attachment`, `move_attachment` (rewrites
//!   references, all or nothing), `delete_attachment` (destructive).
//! - [`bulk`]: `bulk_create_notes`, `bulk_set_property` (HITL floor, per-item results,
//!   `bulk_partial`); [`capture`]: `capture_note` (a new timestamped note in the inbox);
//!   [`memory`]: agent memory as entity notes (`create_entity`, `get_entity`, `add_observation`,
//!   `link_entities`, `unlink_entities`, `query_entity_graph`).
//! - [`sessions`]: `start_session`, `end_session`, `get_session_traces` (every call of a
//!   caller with a session open is a line of its JSONL trace), `session_bootstrap` (the notes
//!   a session starts with, triaged from its opening message).
//! - [`tables`]: `format_table`, `insert_table_row`, `insert_table_column`,
//!   `sort_table_by_column` (GFM tables by index or heading).
//! - [`canvas`]: `read_canvas`, `create_canvas`, `update_canvas` (all or nothing),
//!   `query_canvas` (JSON Canvas, unknown keys kept, Obsidian's layout).
//! - [`kanban`]: `list_kanban_boards`, `read_kanban_board`, `add_kanban_card`,
//!   `move_kanban_card` (Kanban plugin boards, every other byte kept).
//! - [`typed_links`]: `get_typed_links`, `find_typed_link_backrefs`, `suggest_typed_links`
//!   (AILSS typed links), `frontmatter_validate`, `improve_frontmatter` (property hygiene).
//! - [`workspaces`]: `list_workspaces`, `save_workspace`, `open_workspace`, `list_bookmarks`,
//!   `add_bookmark`, `remove_bookmark` (destructive) over `.obsidian/workspaces.json` and
//!   `.obsidian/bookmarks.json`.
//! - [`obsidian`]: the tools a running Obsidian carries out through TC Bridge (commands,
//!   Dataview, Tasks, Templater, QuickAdd, OCR, Excalidraw, make.md, Omnisearch, daily notes,
//!   active and open note) and `refresh_plugin_capabilities`.
//! - [`uri`]: `generate_uri` (scope-free; builds `obsidian://` URIs, touches nothing).
//! - [`git`]: `git_status`, `git_diff`, `git_log`, `git_show`, `git_stage`, `git_commit`
//!   (HITL floor) over the git repository holding the vault, natively.
//! - [`goals`]: `set_goal`, `list_goals`, `close_goal`, `expire_goals`: goals a person
//!   stated, as notes in the memory folder's `goals/` subfolder.
//! - [`work`]: the work memory: `work_search`, `work_episodes`, `work_episode_chain`,
//!   `work_forget`, `work_result`, `episode_stats` over the episodes dispatch keeps of each
//!   caller's calls.
//! - [`knowledge`]: `diagnose_retrieval` (a query's ranking traced for one note),
//!   `explain_answer` (the lineage of the caller's searches), `run_gap_pass` and `gap_report`
//!   (queries the vault answers badly).
//! - [`contradictions`]: `list_contradictions`, `detect_contradictions`: passages a model
//!   judged to contradict each other, found among semantic neighbours.
//! - [`note_quality`]: `note_quality_report`, `compute_note_quality`: each note's measures,
//!   flags and score from the `note-quality` pass.
//! - [`wiki`]: `find_existing_page`, `lint_wiki`, `draft_wiki_page`, `commit_wiki_page`
//!   (a wiki of notes in the vault's wiki folder, all or nothing).

pub mod admin;
pub mod attachments;
pub mod audit;
pub mod bases;
pub mod bulk;
pub mod canvas;
pub mod capture;
pub mod common;
pub mod context;
pub mod contradictions;
pub mod frontmatter;
pub mod git;
pub mod goals;
pub mod graph;
pub mod kanban;
pub mod knowledge;
pub mod links;
pub mod memory;
pub mod note_quality;
pub mod notes;
pub mod obsidian;
pub mod periodic;
pub mod search;
pub mod sessions;
pub mod snapshots;
pub mod tables;
pub mod tags;
pub mod tasks;
pub mod typed_links;
pub mod uri;
pub mod vaults;
pub mod wiki;
pub mod work;
pub mod workspaces;

use crate::runtime::ToolDef;

/// Every tool of the tool families (the facade adds its own: [`crate::dispatch::builtin_tools`]).
pub fn all_tools() -> Vec<ToolDef> {
    let mut tools = admin::tools();
    tools.push(audit::tool());
    tools.extend(vaults::tools());
    tools.extend(notes::tools());
    tools.extend(bulk::tools());
    tools.extend(capture::tools());
    tools.extend(memory::tools());
    tools.push(search::entity_search_tool());
    tools.extend(sessions::tools());
    tools.extend(attachments::tools());
    tools.extend(tables::tools());
    tools.extend(frontmatter::tools());
    tools.extend(search::tools());
    tools.extend(context::tools());
    tools.extend(snapshots::tools());
    tools.extend(links::tools());
    tools.extend(graph::tools());
    tools.extend(tags::tools());
    tools.extend(tasks::tools());
    tools.extend(periodic::tools());
    tools.extend(bases::tools());
    tools.extend(canvas::tools());
    tools.extend(kanban::tools());
    tools.extend(typed_links::tools());
    tools.extend(workspaces::tools());
    tools.extend(obsidian::tools());
    tools.push(uri::tool());
    tools.extend(git::tools());
    tools.extend(goals::tools());
    tools.extend(work::tools());
    tools.extend(knowledge::tools());
    tools.extend(contradictions::tools());
    tools.extend(note_quality::tools());
    tools.extend(wiki::tools());
    tools
}

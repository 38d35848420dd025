"""Every tool the release binary lists, driven once or more by the real Python `mcp` client
over stdio, so that the SDK checks every structured result against the tool's declared
`outputSchema` (`mcp` 2.3.0 raises on a mismatch).

The server runs on a temp copy of tests/fixtures/sample-vault with the hand-made files of
tests/fixtures/every-tool/ laid over it (a Kanban board, a canvas, a base, attachments,
workspaces, bookmarks, an Excalidraw drawing, typed links, a table), with a temp config:
the `flat` tool facade (tools/list names every tool), no throttle, no TC Bridge companion,
a temp cache folder, and `HF_HUB_OFFLINE=1` (lexical search only, no model download).

    .venv/bin/python tests/e2e/py_every_tool.py     # OBSIDIAN_TC_BIN as in py_sdk.py

STEPS below is the table: one row per call, grouped by domain, in an order where a row can
use what an earlier one saved (`$name` in its arguments). A row that asks for a human's
confirmation (`elicit_required`) is approved with `obsidian-tc elicit approve` and called
again, as a person would. A row with `error` expects that typed tool error (the reason is in
`why`): the tools that need a running Obsidian with TC Bridge, which this test has not.

The run fails (exit 1) when a listed tool has no row, a row names a tool that is not listed,
a call raises (the SDK's output-schema validation included) or ends otherwise than its row
expects. Every failure is printed at the end, then `N passed, M failed` (tools).
"""

from __future__ import annotations

import asyncio
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import traceback
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[2]
BIN = os.environ.get("OBSIDIAN_TC_BIN", str(ROOT / "target" / "release" / "obsidian-tc"))
FIXTURES = ROOT / "tests" / "fixtures"
TODAY = datetime.date.today().isoformat()

# Why a bridge tool cannot succeed here.
NO_BRIDGE = "needs TC Bridge in a running Obsidian; this vault has none (companion: false)"

# ---------------------------------------------------------------------------------------------
# The table. Keys of a row:
#   tool   the tool name               args   its arguments ($name: a value saved before)
#   save   {name: dotted path in the structured result} kept for later rows
#   error  the expected error code     why    the reason it cannot succeed here
#   note   what the row is about (printed with a failure)
# ---------------------------------------------------------------------------------------------
STEPS: list[dict[str, Any]] = [
    # --- admin and vaults -------------------------------------------------------------------
    {"tool": "server_health", "args": {}},
    {"tool": "get_server_config", "args": {}},
    {"tool": "list_vaults", "args": {}},
    {"tool": "get_vault", "args": {"vault": "main"}},
    {"tool": "inspect_acl", "args": {"path": "Recipes.md", "op": "read"}},
    {"tool": "inspect_visibility", "args": {"name": "read_note"}},
    {"tool": "get_metrics", "args": {}},
    {"tool": "reload_vault", "args": {}},
    {"tool": "add_vault", "args": {"vault_id": "main", "path": "/"}, "error": "already_exists",
     "why": "an id in use is refused before a person is asked (tests/it/tools/vaults/add.rs adds one)"},
    {"tool": "generate_uri", "args": {"action": "open", "path": "Recipes.md"}},
    {"tool": "generate_uri", "args": {"action": "search", "query": "tomato"}},

    # --- index and search -------------------------------------------------------------------
    {"tool": "index_vault", "args": {}},
    {"tool": "get_index_status", "args": {}},
    {"tool": "search_vault", "args": {"query": "tomato soup"}},
    {"tool": "search_vault", "args": {"query": "irrigation", "mode": "lexical", "explain": True},
     "save": {"chunk": "results.0.chunk_id"}},
    {"tool": "record_retrieval_feedback", "args": {"chunk_id": "$chunk", "feedback": 1}},
    {"tool": "search_text", "args": {"query": "drip"}},
    {"tool": "search_regex", "args": {"pattern": r"^- \[ \]"}},
    {"tool": "search", "args": {"query": "garden"}},
    {"tool": "fetch", "args": {"id": "Recipes.md"}},
    {"tool": "get_context", "args": {"query": "garden irrigation", "max_tokens": 2000}},
    {"tool": "vault_context", "args": {"query": "garden irrigation", "max_tokens": 2000}},
    {"tool": "vault_context", "args": {"mode": "bootstrap", "query": "garden", "max_tokens": 2000},
     "note": "the hand-off note first (none in the sample vault: said in the answer)"},
    {"tool": "vault_graph_search", "args": {"query": "irrigation"}},
    {"tool": "search_and_read", "args": {"query": "irrigation", "k": 2}},
    {"tool": "search_and_read", "args": {"query": "irrigation", "k": 2, "mode": "section"}},
    {"tool": "search_jsonlogic", "args": {"logic": {"!!": [{"var": "status"}]}}},
    {"tool": "search_semantic", "args": {"query": "irrigation"}, "error": "invalid_input",
     "why": "HF_HUB_OFFLINE=1: no embeddings, and search_semantic refuses as search_vault mode semantic does"},
    {"tool": "bundle_folder", "args": {"folder": "Projects", "max_tokens": 5000}},
    {"tool": "bundle_files", "args": {"paths": ["Recipes.md", "Welcome.md"], "max_tokens": 5000}},

    # --- notes ------------------------------------------------------------------------------
    {"tool": "list_notes", "args": {}},
    {"tool": "note_exists", "args": {"path": "Welcome.md"}},
    {"tool": "read_note", "args": {"path": "Recipes.md"}},
    {"tool": "read_note", "args": {"path": "Projects/Garden.md", "heading": "Garden#Irrigation"}},
    {"tool": "read_notes", "args": {"paths": ["Recipes.md", "Welcome.md", "missing.md"]}},
    {"tool": "write_note", "args": {"path": "Inbox/Plan.md", "content": "# Plan\n\nfirst draft\n"}},
    {"tool": "append_note", "args": {"path": "Inbox/Plan.md", "content": "- [ ] water the basil"}},
    {"tool": "patch_note", "args": {"path": "Inbox/Plan.md", "old": "first draft", "new": "second draft"}},
    {"tool": "read_note", "args": {"path": "Inbox/Plan.md"}, "save": {"plan_sha": "sha256"}},
    {"tool": "edit_note", "args": {"path": "Inbox/Plan.md", "operations": [
        {"op": "replace", "start": 3, "expected": "second draft", "content": "third draft"}]}, "note": "dry run"},
    {"tool": "edit_note", "args": {"path": "Inbox/Plan.md", "dry_run": False, "expected_sha256": "$plan_sha", "operations": [
        {"op": "replace", "start": 3, "expected": "second draft", "content": "third draft"}]}},
    {"tool": "copy_note", "args": {"from": "Inbox/Plan.md", "to": "Inbox/Plan copy.md"}},
    {"tool": "move_note", "args": {"from": "Inbox/Plan copy.md", "to": "Archive/Plan copy.md"}},
    {"tool": "delete_note", "args": {"path": "Archive/Plan copy.md"}},

    # --- snapshots and undo -----------------------------------------------------------------
    {"tool": "snapshot_note", "args": {"path": "Inbox/Plan.md"}},
    {"tool": "list_snapshots", "args": {"path": "Inbox/Plan.md"}, "save": {"snapshot": "items.1.id"},
     "note": "items.0 is snapshot_note's; items.1 the last edit's"},
    {"tool": "read_snapshot", "args": {"id": "$snapshot"}},
    {"tool": "restore_note", "args": {"snapshot_id": "$snapshot"}, "note": "dry run (the default)"},
    {"tool": "restore_note", "args": {"snapshot_id": "$snapshot", "dry_run": False}},
    {"tool": "append_note", "args": {"path": "Inbox/Plan.md", "content": "to be undone"}},
    {"tool": "undo_last_change", "args": {"dry_run": True}},
    {"tool": "undo_last_change", "args": {}},

    # --- frontmatter and properties ---------------------------------------------------------
    {"tool": "read_frontmatter", "args": {"path": "Projects/Garden.md"}},
    {"tool": "read_property", "args": {"path": "Projects/Garden.md", "key": "status"}},
    {"tool": "update_frontmatter", "args": {"path": "Projects/Garden.md", "mode": "set", "key": "owner", "value": "Ana"}},
    {"tool": "list_properties", "args": {}},
    {"tool": "find_notes_by_property", "args": {"key": "status", "op": "exists"}},
    {"tool": "audit_provenance", "args": {"exclude": ["Archive/**"], "limit": 5}},
    {"tool": "frontmatter_validate", "args": {"required": ["status"]}},
    {"tool": "improve_frontmatter", "args": {"path": "Projects/Garden.md", "required": ["status"]}},

    # --- tags -------------------------------------------------------------------------------
    {"tool": "list_tags", "args": {}},
    {"tool": "get_note_tags", "args": {"path": "Welcome.md"}},
    {"tool": "find_notes_by_tag", "args": {"tag": "inbox"}},
    {"tool": "add_tag", "args": {"path": "Recipes.md", "tag": "food"}},
    {"tool": "remove_tag", "args": {"path": "Recipes.md", "tag": "food"}},
    {"tool": "rename_tag", "args": {"from": "garden", "to": "gardening"}, "note": "dry run"},

    # --- links and graph --------------------------------------------------------------------
    {"tool": "get_outgoing_links", "args": {"path": "Welcome.md"}},
    {"tool": "get_backlinks", "args": {"path": "Projects/Garden.md"}},
    {"tool": "find_orphans", "args": {}},
    {"tool": "find_unresolved_links", "args": {}},
    {"tool": "resolve_note", "args": {"query": "Garden"}},
    {"tool": "get_vault_tree", "args": {}},
    {"tool": "rewrite_link", "args": {"from": "Recipes.md", "to": "Welcome.md"}, "note": "dry run"},
    {"tool": "prune_hub_links", "args": {"path": "Links/Hub.md", "policy": {"unresolved": True}}},
    {"tool": "bulk_move_notes", "args": {"moves": [{"from": "Links/Hub.md", "to": "Links/Moved Hub.md"}]}},
    {"tool": "graph_path_between", "args": {"from": "Welcome.md", "to": "Recipes.md"}},
    {"tool": "graph_neighbors", "args": {"path": "Projects/Garden.md", "hops": 2}},
    {"tool": "find_link_cycles", "args": {}},
    {"tool": "get_link_strength", "args": {"a": "Welcome.md", "b": "Projects/Garden.md"}},
    {"tool": "suggest_links", "args": {"path": "Recipes.md"}},
    {"tool": "graph_centrality", "args": {}},
    {"tool": "graph_communities", "args": {}},
    {"tool": "vault_health_score", "args": {}},

    # --- typed links ------------------------------------------------------------------------
    {"tool": "get_typed_links", "args": {"path": "Projects/Irrigation plan.md"}},
    {"tool": "find_typed_link_backrefs", "args": {"path": "Projects/Garden.md"}},
    {"tool": "suggest_typed_links", "args": {"path": "Projects/Irrigation plan.md"}},

    # --- tasks ------------------------------------------------------------------------------
    {"tool": "list_tasks", "args": {"text_contains": "Buy a timer"},
     "save": {"task_path": "tasks.0.path", "task_line": "tasks.0.line", "task_text": "tasks.0.text"}},
    {"tool": "update_task", "args": {"path": "$task_path", "line": "$task_line",
                                     "expected_text": "$task_text", "toggle": True}},

    # --- periodic notes ---------------------------------------------------------------------
    {"tool": "get_periodic_note", "args": {"period": "daily", "date": "2026-11-20"}},
    {"tool": "create_periodic_note", "args": {"period": "daily", "date": "2026-11-21"}},
    {"tool": "find_or_create_periodic_note", "args": {"period": "weekly", "date": "2026-11-21"}},
    {"tool": "append_to_periodic_note", "args": {"period": "daily", "date": "2026-11-21", "content": "- noted"}},
    {"tool": "list_periodic_notes", "args": {"period": "daily"}},

    # --- attachments ------------------------------------------------------------------------
    {"tool": "list_attachments", "args": {}},
    {"tool": "get_attachment", "args": {"path": "assets/pic.png", "include_content": True}},
    {"tool": "move_attachment", "args": {"from": "assets/pic.png", "to": "assets/photo.png"}},
    {"tool": "delete_attachment", "args": {"path": "assets/doc.pdf"}},

    # --- markdown tables --------------------------------------------------------------------
    {"tool": "format_table", "args": {"path": "Tables.md"}},
    {"tool": "insert_table_row", "args": {"path": "Tables.md", "cells": ["c", "3"]}},
    {"tool": "insert_table_column", "args": {"path": "Tables.md", "header": "X", "values": ["1", "2", "3"]}},
    {"tool": "sort_table_by_column", "args": {"path": "Tables.md", "heading": "Data", "column": "N", "numeric": True}},

    # --- canvas, bases, kanban --------------------------------------------------------------
    {"tool": "read_canvas", "args": {"path": "Map.canvas"}},
    {"tool": "query_canvas", "args": {"type": "text", "contains": "garden"}},
    {"tool": "create_canvas", "args": {"path": "New.canvas", "nodes": [
        {"id": "a", "type": "text", "text": "t", "x": 0, "y": 0, "width": 10, "height": 10}]}},
    {"tool": "update_canvas", "args": {"path": "Map.canvas", "add_nodes": [
        {"id": "n3", "type": "text", "text": "more", "x": 0, "y": 100, "width": 10, "height": 10}]}},
    {"tool": "read_base", "args": {"path": "Books.base"}},
    {"tool": "query_base", "args": {"path": "Books.base"}},
    {"tool": "create_base", "args": {"path": "New.base", "views": [{"type": "table", "name": "All"}]}},
    {"tool": "update_base", "args": {"path": "Books.base", "formulas": {"decade": "year - year % 10"}}},
    {"tool": "list_kanban_boards", "args": {}},
    {"tool": "read_kanban_board", "args": {"path": "Board.md"}},
    {"tool": "add_kanban_card", "args": {"path": "Board.md", "column": "Doing", "card": "Fresh"}},
    {"tool": "move_kanban_card", "args": {"path": "Board.md", "card": "Review", "to_column": "Done"}},

    # --- workspaces and bookmarks -----------------------------------------------------------
    {"tool": "list_workspaces", "args": {}},
    {"tool": "save_workspace", "args": {"name": "Fresh"}},
    {"tool": "open_workspace", "args": {"name": "Research"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "list_bookmarks", "args": {}},
    {"tool": "add_bookmark", "args": {"type": "file", "path": "Recipes.md"}, "save": {"bookmark": "bookmark.id"}},
    {"tool": "remove_bookmark", "args": {"id": "$bookmark"}},

    # --- bulk and capture -------------------------------------------------------------------
    {"tool": "bulk_create_notes", "args": {"notes": [{"path": "Bulk/one.md", "content": "1\n"},
                                                     {"path": "Bulk/two.md", "content": "2\n"}]}},
    {"tool": "bulk_set_property", "args": {"paths": ["Bulk/one.md", "Bulk/two.md"], "key": "status", "value": "x"}},
    {"tool": "capture_note", "args": {"content": "a quick thought\n"}},
    {"tool": "enqueue_capture", "args": {"content": "buy seeds\n", "title": "Seeds", "suggested_path": "Inbox/seeds.md",
                                         "tags": ["errand"]}, "save": {"capture": "capture.id"}},
    {"tool": "list_capture_queue", "args": {"include_content": True}},
    {"tool": "commit_capture", "args": {"capture_id": "$capture"}},

    # --- agent memory -----------------------------------------------------------------------
    {"tool": "create_entity", "args": {"name": "Acme", "type": "other", "observations": ["A firm in Lisbon"]}},
    {"tool": "create_entity", "args": {"name": "Ann", "type": "person"}},
    {"tool": "create_entity", "args": {"name": "Jo Smith", "type": "person", "aliases": ["Jo"],
                                       "relations": [{"relation": "works_at", "target": "Acme"}]}},
    {"tool": "get_entity", "args": {"name": "Jo Smith"}},
    {"tool": "add_observation", "args": {"name": "Jo Smith", "text": "Plays chess"}},
    {"tool": "link_entities", "args": {"from": "Jo Smith", "relation": "knows", "to": "Ann"}},
    {"tool": "unlink_entities", "args": {"from": "Jo Smith", "relation": "knows", "to": "Ann"}},
    {"tool": "query_entity_graph", "args": {"name": "Jo Smith", "depth": 1}},
    {"tool": "search_entities", "args": {"query": "chess", "mode": "lexical"}},
    {"tool": "rename_entity", "args": {"name": "Acme", "new_name": "Acme Corp"},
     "note": "without status (known bug: answers status null)"},
    {"tool": "rename_entity", "args": {"name": "Ann", "status": "retired"}, "note": "with status"},
    {"tool": "delete_entity", "args": {"name": "Ann"}},
    {"tool": "set_goal", "args": {"text": "Water the garden every week", "target_date": "2999-12-31"},
     "save": {"goal": "id"}},
    {"tool": "list_goals", "args": {"status": "any"}},
    {"tool": "close_goal", "args": {"id": "$goal", "status": "completed"}},
    {"tool": "expire_goals", "args": {}},

    # --- sessions and audit -----------------------------------------------------------------
    {"tool": "start_session", "args": {"label": "every tool"}, "save": {"session": "session_id"}},
    {"tool": "note_exists", "args": {"path": "Recipes.md"}, "note": "a traced call"},
    {"tool": "session_bootstrap", "args": {"message": "where did we leave off with the garden?"}},
    {"tool": "end_session", "args": {"session_id": "$session", "note": True},
     "note": "with a session note in the memory folder"},
    {"tool": "get_session_traces", "args": {"session_id": "$session"}},
    {"tool": "query_audit_log", "args": {"limit": 5}},

    # --- work memory: the episodes of the calls above ---------------------------------------
    {"tool": "work_episodes", "args": {"session_id": "$session"}, "save": {"episode": "episodes.0.id"}},
    {"tool": "work_search", "args": {"query": "note_exists", "include_pending": True}},
    {"tool": "work_episode_chain", "args": {"id": "$episode", "k": 5}},
    {"tool": "episode_stats", "args": {"group_by": "status", "min_bucket": 2}},
    {"tool": "start_session", "args": {"label": "judged"}, "note": "work_result judges an open session"},
    {"tool": "work_result", "args": {"result": 1}},
    {"tool": "end_session", "args": {}},
    {"tool": "work_forget", "args": {"episode_id": "$episode"}},

    # --- knowledge: retrieval diagnosis, lineage, gaps --------------------------------------
    {"tool": "diagnose_retrieval", "args": {"query": "garden", "path": "Recipes.md", "final_top_k": 10}},
    {"tool": "explain_answer", "args": {"limit": 5}},
    {"tool": "run_gap_pass", "args": {"queries": ["garden", "quantum chromodynamics"], "budget_ms": 5000}},
    {"tool": "gap_report", "args": {"gaps_only": False, "limit": 10}},
    # --- knowledge: no model here (the client offers no sampling, no endpoint) ------------------
    {"tool": "reflect", "args": {"query": "irrigation schedule"},
     "note": "available false with the sources (tests/e2e/py_reflect.py drives a model)"},
    {"tool": "knowledge_challenge", "args": {"proposal": "Stop watering the garden in summer"},
     "note": "available false"},
    # --- knowledge: contradictions (no model here: nothing judged) and note quality ---------
    {"tool": "detect_contradictions", "args": {"max_pairs": 10, "budget_ms": 1000},
     "note": "available: false (no model is configured)"},
    {"tool": "list_contradictions", "args": {"paths": ["Recipes.md"]}},
    {"tool": "compute_note_quality", "args": {"budget_ms": 10000}},
    {"tool": "note_quality_report", "args": {"flags": ["orphan"], "limit": 5}},
    # --- knowledge: the wiki (folder Wiki/ in this config; no model: the judge is not asked) --
    {"tool": "find_existing_page", "args": {"topic": "Composting"}},
    {"tool": "draft_wiki_page", "args": {"topic": "Composting"}},
    {"tool": "commit_wiki_page", "args": {"topic": "Composting", "page": {
        "path": "Wiki/Composting.md", "mode": "create", "frontmatter": {}, "body": "How the garden composts."}}},
    {"tool": "lint_wiki", "args": {"limit_per_check": 5}},

    # --- TC Bridge (a running Obsidian) -----------------------------------------------------
    {"tool": "refresh_plugin_capabilities", "args": {}},
    {"tool": "read_excalidraw", "args": {"path": "Drawings/Sketch.excalidraw.md"},
     "note": "read from the file when Obsidian is not running"},
    {"tool": "list_commands", "args": {}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "execute_command", "args": {"id": "editor:save-file"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "search_dql", "args": {"query": "LIST FROM \"Projects\""}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "validate_dql", "args": {"query": "LIST"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "eval_dataview_field", "args": {"path": "Recipes.md", "expression": "file.name"},
     "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "tasks_filter", "args": {"status": "open", "limit": 5}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "list_templates", "args": {}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "execute_template", "args": {"template": "Templates/t.md", "target": "From template.md"},
     "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "list_quickadd_actions", "args": {}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "trigger_quickadd", "args": {"name": "Capture"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "ocr_attachment", "args": {"path": "assets/photo.png"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "ocr_bulk", "args": {"folder": "assets"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "create_excalidraw", "args": {"path": "Drawings/New.excalidraw.md"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "update_excalidraw", "args": {"path": "Drawings/Sketch.excalidraw.md", "remove": ["b2"]},
     "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "makemd_list_spaces", "args": {}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "makemd_query", "args": {"space": "Projects"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "search_omnisearch", "args": {"query": "garden"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "resolve_daily_note", "args": {"date": "2026-11-20"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "get_active_note", "args": {}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "open_note", "args": {"path": "Recipes.md"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "remotely_save_status", "args": {}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "remotely_save_trigger", "args": {}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "query_datacore", "args": {"query": "@page and #recipe"}, "error": "plugin_missing", "why": NO_BRIDGE},
    {"tool": "read_metadata_fields", "args": {"path": "Recipes.md"}, "error": "plugin_missing", "why": NO_BRIDGE},

    # --- git: make_vault commits the fixtures, the rows above changed the vault -------------
    {"tool": "git_status", "args": {}},
    {"tool": "git_diff", "args": {"path": "Inbox/Plan.md"}},
    {"tool": "git_log", "args": {"limit": 5}},
    {"tool": "git_log", "args": {"path": "Welcome.md"}, "save": {"welcome_version": "entries.0.version"}},
    {"tool": "git_show", "args": {"path": "Welcome.md", "version": "$welcome_version"}},
    {"tool": "git_stage", "args": {"paths": ["Inbox/Plan.md"]}},
    {"tool": "git_commit", "args": {"message": "every tool: the agent's plan"}},

    # --- last: drops the vault's cache rows (destructive, confirmed) ------------------------
    {"tool": "reset_vault_cache", "args": {}},
]


# The default `triad` facade lists only its own tools (the `flat` listing above leaves them
# out): a second server process on the same vault and cache, with the default facade.
TRIAD_STEPS: list[dict[str, Any]] = [
    {"tool": "find_capability", "args": {"query": "rename a note"}},
    {"tool": "describe_capability", "args": {"name": "read_note"}},
    {"tool": "call_read_capability", "args": {"name": "read_note", "arguments": {"path": "Recipes.md"}}},
    {"tool": "call_capability", "args": {"name": "note_exists", "arguments": {"path": "Welcome.md"}}},
]

# Each server process: its facade mode and its rows.
PHASES = [("flat", STEPS), ("triad", TRIAD_STEPS)]


class StepFailed(AssertionError):
    """A row did not go as the table expects."""


def at(value: Any, dotted: str) -> Any:
    """The value at a dotted path (`a.0.b`: list indexes too), or None."""
    for key in dotted.split("."):
        if isinstance(value, list) and key.isdigit() and int(key) < len(value):
            value = value[int(key)]
        elif isinstance(value, dict):
            value = value.get(key)
        else:
            return None
    return value


def fill(value: Any, saved: dict[str, Any]) -> Any:
    """`value` with every "$name" string replaced by what a row saved under that name."""
    if isinstance(value, str) and value.startswith("$"):
        if value[1:] not in saved:
            raise StepFailed(f"{value} was not saved by an earlier row")
        return saved[value[1:]]
    if isinstance(value, dict):
        return {key: fill(item, saved) for key, item in value.items()}
    if isinstance(value, list):
        return [fill(item, saved) for item in value]
    return value


def make_vault() -> Path:
    """A temp folder holding the vault: the sample vault with the every-tool fixtures over it."""
    if not Path(BIN).is_file():
        sys.exit(f"{BIN} is missing: run `cargo build --release -p obsidian-tc` first")
    top = Path(tempfile.mkdtemp(prefix="obsidian-tc-every-tool-"))
    vault = top / "vault"
    shutil.copytree(FIXTURES / "sample-vault", vault, ignore=shutil.ignore_patterns(".obsidian-tc"))
    shutil.copytree(FIXTURES / "every-tool", vault, dirs_exist_ok=True)
    # A git repository with the fixtures committed, for the git rows (set up with the git
    # CLI; the server never runs it).
    git_env = {**os.environ, "GIT_AUTHOR_NAME": "Tester", "GIT_AUTHOR_EMAIL": "t@example.org",
               "GIT_COMMITTER_NAME": "Tester", "GIT_COMMITTER_EMAIL": "t@example.org"}
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-qm", "fixtures"]):
        subprocess.run(["git", *args], cwd=vault, env=git_env, check=True, capture_output=True)
    return top


def write_config(top: Path, facade: str) -> Path:
    """The config file of one server process: the vault without a TC Bridge companion, the
    cache in the temp folder, the facade mode `facade`, no throttle."""
    config = top / f"config-{facade}.json"
    config.write_text(json.dumps({
        "vaults": [{"id": "main", "path": str(top / "vault"), "companion": False,
                    "wiki": {"folder": "Wiki"}}],
        "cacheDir": str(top / "cache"),
        "toolFacade": {"mode": facade},
        "throttle": {"enabled": False},
    }, indent=2), encoding="utf-8")
    return config


def approve(args_hash: str, config: Path) -> None:
    """`obsidian-tc elicit approve <args_hash> <config>`: a person says yes."""
    run = subprocess.run([BIN, "elicit", "approve", args_hash, str(config)],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise StepFailed(f"elicit approve failed: {run.stderr.strip()}")


def describe(error: BaseException) -> str:
    """One line for an exception (an exception group's single member unwrapped)."""
    while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
        error = error.exceptions[0]
    return f"{type(error).__name__}: {error}"


class Run:
    """The tally of a run, over every phase."""

    def __init__(self) -> None:
        self.failures: list[str] = []
        self.failed_tools: set[str] = set()
        self.driven: dict[str, str] = {}  # tool -> "validated" | "unvalidated" | error code
        self.approved: list[str] = []
        self.listed: set[str] = set()
        self.covered: set[str] = set()
        self.with_schema: set[str] = set()  # listed with an output schema the SDK validates

    def fail(self, tool: str, message: str) -> None:
        self.failed_tools.add(tool)
        self.failures.append(f"{tool}: {message}")


async def run_step(client: Client, step: dict[str, Any], saved: dict[str, Any],
                   config: Path, run: Run) -> None:
    tool = step["tool"]
    args = fill(step["args"], saved)
    label = f"{tool} {json.dumps(args, ensure_ascii=False)}"
    if step.get("note"):
        label += f" ({step['note']})"
    try:
        result = await client.call_tool(tool, args, read_timeout_seconds=120)
        if result.is_error and (result.structured_content or {}).get("code") == "elicit_required" \
                and step.get("error") != "elicit_required":
            args_hash = at(result.structured_content, "details.args_hash")
            if not args_hash:
                raise StepFailed(f"elicit_required without details.args_hash: {result.structured_content}")
            approve(args_hash, config)
            run.approved.append(tool)
            result = await client.call_tool(tool, args, read_timeout_seconds=120)
    except Exception as error:  # noqa: BLE001 — the SDK's schema validation included: reported
        run.fail(tool, f"{label}\n      raised {describe(error)}")
        return
    structured = result.structured_content
    if "error" in step:
        code = (structured or {}).get("code")
        if not result.is_error or code != step["error"]:
            got = f"error {code}" if result.is_error else "success"
            run.fail(tool, f"{label}\n      expected error {step['error']} ({step['why']}), got {got}: "
                           f"{json.dumps(structured, ensure_ascii=False)[:600]}")
            return
        run.driven.setdefault(tool, code)
        return
    if result.is_error:
        text = json.dumps(structured, ensure_ascii=False) if structured else \
            " ".join(getattr(block, "text", "") for block in result.content)
        run.fail(tool, f"{label}\n      answered an error: {text[:600]}")
        return
    for name, path in step.get("save", {}).items():
        value = at(structured, path)
        if value is None:
            run.fail(tool, f"{label}\n      nothing at {path} to save as ${name}: "
                           f"{json.dumps(structured, ensure_ascii=False)[:600]}")
            return
        saved[name] = value
    # The SDK validated `structured` against the tool's output schema (or raised above).
    run.driven.setdefault(tool, "validated" if tool in run.with_schema else "unvalidated")


async def drive(config: Path, steps: list[dict[str, Any]], run: Run) -> None:
    """One server process on `config`: checks its listing against `steps`, then runs them."""
    # Merged over the SDK's default environment: no embedding model download, lexical only.
    params = StdioServerParameters(command=BIN, args=[str(config)], env={"HF_HUB_OFFLINE": "1"})
    async with Client(params, mode="auto") as client:
        listed_tools = (await client.list_tools()).tools
        listed = {tool.name for tool in listed_tools}
        without_schema = sorted(tool.name for tool in listed_tools if tool.output_schema is None)
        covered = {step["tool"] for step in steps}
        run.listed |= listed
        run.covered |= covered
        run.with_schema |= listed - set(without_schema)
        print(f"{config.name}: tools/list has {len(listed)} tools, {len(without_schema)} of them "
              f"without an output schema: {', '.join(without_schema)}", flush=True)
        for tool in sorted(listed - covered):
            run.fail(tool, "listed by the server but no row of the table calls it: add one")
        for tool in sorted(covered - listed):
            run.fail(tool, "a row of the table calls it but the server does not list it")
        saved: dict[str, Any] = {}
        for step in steps:
            if step["tool"] in listed:
                await run_step(client, step, saved, config, run)


async def main() -> int:
    top = make_vault()
    run = Run()
    started = time.monotonic()
    try:
        for facade, steps in PHASES:
            try:
                await drive(write_config(top, facade), steps, run)
            except Exception as error:  # noqa: BLE001 — the connection itself failed
                run.fail(f"({facade} session)", describe(error) + "\n" + traceback.format_exc(limit=5))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    every = run.listed | run.covered
    passed = sorted(tool for tool in every if tool in run.driven and tool not in run.failed_tools)
    failed = sorted(tool for tool in every if tool not in passed)
    ok_validated = [t for t in passed if run.driven[t] == "validated"]
    ok_plain = [t for t in passed if run.driven[t] == "unvalidated"]
    typed_errors = {t: run.driven[t] for t in passed if run.driven[t] not in ("validated", "unvalidated")}
    if run.failures:
        print(f"\n{len(run.failures)} failure(s):", flush=True)
        for failure in run.failures:
            print(f"  not ok - {failure}", flush=True)
    if run.approved:
        print(f"\nconfirmed by `obsidian-tc elicit approve`: {', '.join(sorted(set(run.approved)))}")
    if typed_errors:
        print(f"expected typed errors: {', '.join(f'{t} ({c})' for t, c in sorted(typed_errors.items()))}")
    print(f"\n{len(ok_validated)} tools answered success with structured content validated against "
          f"their output schema, {len(ok_plain)} success without an output schema to validate "
          f"({', '.join(ok_plain) or 'none'}), "
          f"{len(typed_errors)} ended in an expected typed error "
          f"({time.monotonic() - started:.1f} s)")
    print(f"{len(passed)} passed, {len(failed)} failed", flush=True)
    return 1 if failed or run.failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

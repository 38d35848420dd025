//! Every tool that does not write answers the same on both vaults, under every variant.

use std::collections::BTreeSet;

use obsidian_tc::dispatch::CallOutcome;
use obsidian_tc::runtime::Tool;
use serde_json::Value;

use super::args::{arguments, fixture_path, given};
use super::vaults::{Variant, ask, canonical, on_pair, pair};
use crate::support::dispatch::Fixture;

/// The tools that do not write but cannot be covered (no call with arguments built from
/// their schema succeeds on the fixture under the folder ACL), with the reason.
pub const NOT_COVERED: &[(&str, &str)] = &[
    ("eval_dataview_field", BRIDGE),
    ("get_active_note", BRIDGE),
    ("list_commands", BRIDGE),
    ("list_quickadd_actions", BRIDGE),
    ("list_templates", BRIDGE),
    ("makemd_list_spaces", BRIDGE),
    ("makemd_query", BRIDGE),
    ("ocr_attachment", BRIDGE),
    ("ocr_bulk", BRIDGE),
    ("open_note", BRIDGE),
    ("query_datacore", BRIDGE),
    ("read_metadata_fields", BRIDGE),
    ("remotely_save_status", BRIDGE),
    ("resolve_daily_note", BRIDGE),
    ("search_dql", BRIDGE),
    ("search_omnisearch", BRIDGE),
    ("tasks_filter", BRIDGE),
    ("validate_dql", BRIDGE),
    (
        "read_snapshot",
        "needs the id of a snapshot, which only a write makes; the fixture writes nothing",
    ),
    (
        "git_log",
        "without a path (all its schema requires) it is refused under every read restriction \
         (acl_denied on both vaults: commit messages may name hidden notes); one note's \
         history is compared by git_history_is_blind_to_hidden_commits",
    ),
    (
        "reset_vault_cache",
        "asks for a human's confirmation before it runs (elicit_required on both vaults)",
    ),
    (
        "search_semantic",
        "needs embeddings, which the fixture has none of (the same invalid_input on both \
         vaults); search_vault's semantic ranking of readable notes is what it runs",
    ),
    (
        "work_episode_chain",
        "needs the id of an episode, random per server (not_found on both vaults); its \
         episodes are shown as work_episodes shows them, which is covered",
    ),
    (
        "add_vault",
        "changes the server, not a vault (the config file and the vaults served), and asks \
         for a human's confirmation before it runs",
    ),
    (
        "detect_contradictions",
        "reads every note of the vault: refused under every read restriction (acl_denied on \
         both vaults); what it stores is shown by list_contradictions, which is covered",
    ),
    (
        "compute_note_quality",
        "reads every note of the vault: refused under every read restriction (acl_denied on \
         both vaults); what it stores is shown by note_quality_report, which is covered",
    ),
];

/// Why a tool that runs inside Obsidian is not covered.
const BRIDGE: &str = "runs inside Obsidian through TC Bridge, which the test server has \
                      none of (plugin_missing on both vaults); the plugin applies its own \
                      folder access";

/// One tool's answer on one vault, as compared text, and whether it succeeded.
fn answer(fx: &Fixture, caller: &obsidian_tc::auth::Caller, tool: &ReadTool) -> (String, bool) {
    let args =
        given(&tool.name).unwrap_or_else(|| arguments(&tool.schema, fixture_path(&tool.name)));
    let CallOutcome { result, .. } = fx.call(caller, &tool.name, args);
    match result {
        Ok(value) => (canonical(fx, &value), true),
        Err(error) => {
            let shown = serde_json::json!({
                "error": error.code.to_string(),
                "message": error.message,
                "details": error.details,
            });
            (canonical(fx, &shown), false)
        }
    }
}

/// A tool that does not write: its name and input schema.
struct ReadTool {
    name: String,
    schema: Value,
}

/// The tools that do not write, from the registry.
fn read_tools(fx: &Fixture) -> Vec<ReadTool> {
    let server = fx.server.runtime();
    server
        .registry()
        .tools()
        .filter(|tool: &&Tool| !tool.is_mutating())
        .map(|tool| ReadTool {
            name: tool.name().to_owned(),
            schema: tool.def.input_schema.clone(),
        })
        .collect()
}

/// Runs every read tool on both vaults of `variant`; returns the tools that differ (with
/// both answers) and the tools that succeeded.
fn run(variant: Variant) -> (Vec<(String, String, String)>, BTreeSet<String>) {
    let [a, b] = pair(variant);
    let (caller_a, caller_b) = (variant.caller(&a), variant.caller(&b));
    let mut differ = Vec::new();
    let mut covered = BTreeSet::new();
    for tool in read_tools(&a) {
        let (left, ok_a) = answer(&a, &caller_a, &tool);
        let (right, ok_b) = answer(&b, &caller_b, &tool);
        if ok_a || ok_b {
            covered.insert(tool.name.clone());
        }
        if left != right {
            differ.push((tool.name, left, right));
        }
    }
    (differ, covered)
}

/// Fails with every difference, each tool with its two answers.
fn assert_no_difference(variant: Variant, differ: &[(String, String, String)]) {
    let report: Vec<String> = differ
        .iter()
        .map(|(tool, a, b)| format!("{tool}:\n  few hidden:  {a}\n  many hidden: {b}"))
        .collect();
    assert!(
        differ.is_empty(),
        "{variant:?}: {} tool(s) answer differently when only Secret/ differs:\n{}",
        differ.len(),
        report.join("\n")
    );
}

#[test]
fn read_tools_are_blind_to_a_folder_outside_read_paths() {
    let (differ, covered) = run(Variant::FolderAcl);
    assert_no_difference(Variant::FolderAcl, &differ);
    let fx = Fixture::new(serde_json::json!({}));
    let all: BTreeSet<String> = read_tools(&fx).into_iter().map(|t| t.name).collect();
    let listed: BTreeSet<String> = NOT_COVERED.iter().map(|(t, _)| (*t).to_owned()).collect();
    let uncovered: BTreeSet<String> = all.difference(&covered).cloned().collect();
    assert_eq!(
        uncovered,
        listed,
        "tools not covered must be exactly those of NOT_COVERED (covered {} of {})",
        covered.len(),
        all.len()
    );
    eprintln!(
        "noninterference: {} read tools, {} covered",
        all.len(),
        covered.len()
    );
}

#[test]
fn read_tools_are_blind_to_everything_under_strict_read_default() {
    let (differ, _) = run(Variant::StrictReadDefault);
    assert_no_difference(Variant::StrictReadDefault, &differ);
}

#[test]
fn read_tools_are_blind_to_a_folder_a_jwt_callers_scopes_do_not_reach() {
    let (differ, covered) = run(Variant::JwtScopes);
    assert_no_difference(Variant::JwtScopes, &differ);
    assert!(!covered.is_empty());
}

/// One note's git history, and the note's text at a version it lists and at HEAD, are the
/// same whether the hidden folder has few commits and changes or more: under every variant
/// (no commit hash is shown under a read restriction; a hash digests the hidden notes too).
#[test]
fn git_history_is_blind_to_hidden_commits() {
    for variant in Variant::ALL {
        let answers = on_pair(variant, |fx, caller| {
            let ask = |tool: &str, args: Value| ask(fx, caller, tool, args);
            let history = ask("git_log", serde_json::json!({"path": "Public/beta.md"}));
            let parsed: Value = serde_json::from_str(&history).expect("json");
            let version = parsed["entries"][1]["version"].clone();
            [
                history,
                ask(
                    "git_show",
                    serde_json::json!({"path": "Public/beta.md", "version": version}),
                ),
                ask("git_show", serde_json::json!({"path": "Public/beta.md"})),
                ask("git_status", serde_json::json!({})),
                ask("git_diff", serde_json::json!({"path": "Public/beta.md"})),
            ]
        });
        assert_eq!(answers[0], answers[1], "{variant:?}");
        if variant == Variant::FolderAcl {
            let entries: Value = serde_json::from_str(&answers[0][0]).expect("json");
            assert_eq!(
                entries["entries"].as_array().map(Vec::len),
                Some(2),
                "{}",
                answers[0][0]
            );
            assert!(
                answers[0][1].contains("Alpha") || answers[0][1].contains("Beta"),
                "{}",
                answers[0][1]
            );
            assert!(
                answers[0][3].contains("Public/beta.md"),
                "{}",
                answers[0][3]
            );
            assert!(
                answers[0][4].contains("+In the working tree."),
                "{}",
                answers[0][4]
            );
        }
    }
}

/// Answers are compared as data: a field added to every answer changes nothing.
#[test]
fn an_added_field_is_compared_like_any_other() {
    let fx = Fixture::new(serde_json::json!({}));
    let with = |extra: Value| {
        let mut value = serde_json::json!({"results": [{"path": "a.md"}]});
        value["results"][0]["flags"] = extra;
        canonical(&fx, &value)
    };
    assert_eq!(with(serde_json::json!([])), with(serde_json::json!([])));
    assert_ne!(with(serde_json::json!([])), with(serde_json::json!(["x"])));
}

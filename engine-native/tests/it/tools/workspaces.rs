//! The workspace tools through the real dispatcher, on Obsidian-shaped
//! `.obsidian/workspaces.json` and `.obsidian/workspace.json`: listing with the active one
//! and each layout's open files (ACL-filtered), saving the current layout (replacing a name
//! asks first, unknown keys survive, 2-space JSON as Obsidian writes it), and
//! `open_workspace` asking the vault's TC Bridge companion to load a checked name (and
//! refusing, changing nothing, without one).

mod bookmarks;

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::companion::{FakeCompanion, Mode};
use crate::support::dispatch::{Fixture, caller};

/// A leaf of Obsidian's layout showing `file`.
fn leaf(id: &str, file: &str) -> Value {
    json!({
        "id": id,
        "type": "leaf",
        "state": {"type": "markdown", "state": {"file": file, "mode": "source", "source": false}, "icon": "lucide-file", "title": "x"}
    })
}

fn layout(files: &[&str]) -> Value {
    let leaves: Vec<Value> = files
        .iter()
        .enumerate()
        .map(|(i, f)| leaf(&format!("l{i}"), f))
        .collect();
    json!({
        "main": {"id": "m", "type": "split", "children": [{"id": "t", "type": "tabs", "children": leaves}], "direction": "vertical"},
        "left": {"id": "left", "type": "split", "children": [], "direction": "horizontal", "width": 300},
        "active": "l0"
    })
}

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    let fx = Fixture::new(config);
    let saved = json!({
        "workspaces": {
            "Writing": layout(&["Public/draft.md", "Private/diary.md"]),
            "Research": layout(&["Public/paper.md"])
        },
        "active": "Writing",
        "futureKey": [1, 2]
    });
    fx.write(
        "main",
        ".obsidian/workspaces.json",
        &serde_json::to_string_pretty(&saved).unwrap(),
    );
    let mut current = layout(&["Public/new.md", "Private/secret.md"]);
    current["lastOpenFiles"] = json!(["Public/draft.md"]);
    fx.write(
        "main",
        ".obsidian/workspace.json",
        &serde_json::to_string_pretty(&current).unwrap(),
    );
    fx
}

fn saved(fx: &Fixture) -> (String, Value) {
    let text = std::fs::read_to_string(fx.vault_dir("main").join(".obsidian/workspaces.json"))
        .expect("file");
    let json = serde_json::from_str(&text).expect("json");
    (text, json)
}

#[test]
fn workspaces_are_listed_with_the_active_one_and_readable_open_files() {
    let fx = fixture(json!({"acl": {"readPaths": ["Public/**"]}}));
    let list = fx.ok("list_workspaces", json!({}));
    assert_eq!(list["active"], "Writing");
    assert_eq!(
        list["workspaces"],
        json!([
            {"name": "Research", "active": false, "files": ["Public/paper.md"]},
            {"name": "Writing", "active": true, "files": ["Public/draft.md"]}
        ])
    );
    let outsider = caller("o", &["read:notes"], None);
    fx.err_as(
        &outsider,
        "list_workspaces",
        json!({}),
        ErrorCode::Forbidden,
    );
}

#[test]
fn no_workspaces_file_is_an_empty_list() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    let list = fx.ok("list_workspaces", json!({}));
    assert_eq!(list, json!({"workspaces": [], "active": null}));
}

#[test]
fn saving_stores_the_current_layout_and_replacing_asks_first() {
    let fx = fixture(json!({}));
    let done = fx.ok("save_workspace", json!({"name": "Fresh"}));
    assert_eq!(done["replaced"], false);
    assert_eq!(done["files"], json!(["Private/secret.md", "Public/new.md"]));
    let (text, json) = saved(&fx);
    assert!(text.starts_with("{\n  \"active\": \"Fresh\",\n"), "{text}");
    assert!(!text.ends_with('\n'));
    assert_eq!(json["futureKey"], json!([1, 2]));
    assert_eq!(json["workspaces"]["Fresh"]["left"]["width"], 300);
    assert!(json["workspaces"]["Fresh"].get("lastOpenFiles").is_none());
    assert!(json["workspaces"]["Writing"].is_object());

    let before = saved(&fx).0;
    let asked = fx.err(
        "save_workspace",
        json!({"name": "Writing"}),
        ErrorCode::ElicitRequired,
    );
    assert_eq!(saved(&fx).0, before);
    fx.approve_error(&asked);
    let replaced = fx.ok("save_workspace", json!({"name": "Writing"}));
    assert_eq!(replaced["replaced"], true);
    let list = fx.ok("list_workspaces", json!({}));
    assert_eq!(
        list["workspaces"][2]["files"],
        json!(["Private/secret.md", "Public/new.md"])
    );
}

#[test]
fn saving_without_obsidian_layout_or_with_a_broken_file_changes_nothing() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.err("save_workspace", json!({"name": "X"}), ErrorCode::NotFound);
    assert!(!fx.exists("main", ".obsidian/workspaces.json"));
    let fx = fixture(json!({}));
    fx.write("main", ".obsidian/workspaces.json", "{\"workspaces\": ");
    fx.err(
        "save_workspace",
        json!({"name": "X"}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(saved_text(&fx), "{\"workspaces\": ");
}

fn saved_text(fx: &Fixture) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(".obsidian/workspaces.json")).expect("file")
}

#[test]
fn open_workspace_without_a_companion_names_tc_bridge_and_changes_nothing() {
    let fx = fixture(json!({}));
    let before = saved_text(&fx);
    fx.err(
        "open_workspace",
        json!({"name": "Nope"}),
        ErrorCode::NotFound,
    );
    let error = fx.err(
        "open_workspace",
        json!({"name": "Research"}),
        ErrorCode::PluginMissing,
    );
    assert_eq!(error.details["plugin"], "tc-bridge", "{error}");
    assert!(
        error.recovery.contains("obsidian-tc plugin install"),
        "{}",
        error.recovery
    );
    assert_eq!(saved_text(&fx), before);
}

#[test]
fn open_workspace_has_the_companion_load_a_saved_name_only() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(
        json!({"vaults": [{"id": "main", "path": "main", "companion": companion.config()}]}),
    );
    let opened = fx.ok("open_workspace", json!({"name": "Research"}));
    assert_eq!(
        opened,
        json!({"name": "Research", "opened": true, "active": "Research"})
    );
    assert_eq!(
        companion.requests_to("/obsidian-tc/v1/workspaces/open"),
        vec![json!({"name": "Research"})],
        "one request, carrying the name"
    );
    // an unknown name never reaches Obsidian
    fx.err(
        "open_workspace",
        json!({"name": "Nope"}),
        ErrorCode::NotFound,
    );
    assert_eq!(
        companion
            .requests_to("/obsidian-tc/v1/workspaces/open")
            .len(),
        1
    );
}

#[test]
fn the_current_layout_file_stays_hidden_from_agents() {
    let fx = fixture(json!({}));
    fx.err(
        "read_note",
        json!({"path": ".obsidian/workspace.json"}),
        ErrorCode::AclDenied,
    );
}

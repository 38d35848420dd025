//! `bulk_create_notes` and `bulk_set_property` through the dispatcher on temp vaults: the
//! HITL floor, per-item results, `bulk_partial`, never overwriting unless asked, bad input
//! changing nothing, and the folder ACL hiding notes from a selection.

use engine_core::hash::sha256_hex;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

fn read(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("file")
}

/// Calls `tool` with `args`, approves the elicitation the bulk floor asks for, calls again.
fn approved(
    fx: &Fixture,
    tool: &str,
    args: Value,
) -> Result<Value, obsidian_tc::errors::ToolError> {
    let asked = fx.err(tool, args.clone(), ErrorCode::ElicitRequired);
    fx.approve_error(&asked);
    fx.call(&obsidian_tc::auth::Caller::stdio(), tool, args)
        .result
}

#[test]
fn bulk_create_needs_confirmation_then_creates_every_note() {
    let fx = fixture();
    let args = json!({"notes": [
        {"path": "A/one.md", "content": "one\n"},
        {"path": "A/two.md", "content": "two\n"}
    ]});
    let asked = fx.err("bulk_create_notes", args.clone(), ErrorCode::ElicitRequired);
    assert!(!fx.exists("main", "A/one.md"), "nothing before approval");
    fx.approve_error(&asked);
    let done = fx.ok("bulk_create_notes", args);
    assert_eq!(done["written"], 2);
    assert_eq!(done["results"][0]["status"], "created");
    assert_eq!(done["results"][1]["sha256"], sha256_hex(b"two\n"));
    assert_eq!(read(&fx, "A/one.md"), "one\n");
}

#[test]
fn an_existing_note_is_kept_and_reported_as_bulk_partial() {
    let fx = fixture();
    fx.write("main", "keep.md", "original\n");
    fx.write("main", "same.md", "same\n");
    let args = json!({"notes": [
        {"path": "keep.md", "content": "replacement\n"},
        {"path": "same.md", "content": "same\n"},
        {"path": "new.md", "content": "new\n"}
    ]});
    let error = approved(&fx, "bulk_create_notes", args).expect_err("partial");
    assert_eq!(error.code, ErrorCode::BulkPartial);
    let results = &error.details["results"];
    assert_eq!(results[0]["status"], "failed");
    assert_eq!(results[0]["error"]["code"], "already_exists");
    assert_eq!(results[1]["status"], "unchanged");
    assert_eq!(results[2]["status"], "created");
    assert_eq!(error.details["failed"], 1);
    assert_eq!(read(&fx, "keep.md"), "original\n");
    assert_eq!(read(&fx, "new.md"), "new\n");
}

#[test]
fn overwrite_replaces_existing_notes_when_asked() {
    let fx = fixture();
    fx.write("main", "keep.md", "original\n");
    let args =
        json!({"overwrite": true, "notes": [{"path": "keep.md", "content": "replacement\n"}]});
    let done = approved(&fx, "bulk_create_notes", args).expect("overwrite");
    assert_eq!(done["results"][0]["status"], "overwritten");
    assert_eq!(read(&fx, "keep.md"), "replacement\n");
}

#[test]
fn duplicate_or_invalid_paths_refuse_the_whole_call_before_confirmation() {
    let fx = fixture();
    fx.err(
        "bulk_create_notes",
        json!({"notes": [{"path": "a.md", "content": "1"}, {"path": "A.md", "content": "2"}]}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "bulk_create_notes",
        json!({"notes": [{"path": "ok.md", "content": "1"}, {"path": "../out.md", "content": "2"}]}),
        ErrorCode::PathInvalid,
    );
    assert!(!fx.exists("main", "a.md") && !fx.exists("main", "ok.md"));
}

#[test]
fn a_path_outside_the_callers_folders_fails_as_its_own_item() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Public/**"], "writePaths": ["Public/**"]}
    }));
    let writer = caller("w", &["write:notes", "bulk:notes", "read:notes"], None);
    let args = json!({"notes": [
        {"path": "Public/a.md", "content": "a"},
        {"path": "Private/b.md", "content": "b"}
    ]});
    let asked = fx.err_as(
        &writer,
        "bulk_create_notes",
        args.clone(),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&asked);
    let error = fx.err_as(&writer, "bulk_create_notes", args, ErrorCode::BulkPartial);
    assert_eq!(error.details["results"][1]["error"]["code"], "acl_denied");
    assert!(fx.exists("main", "Public/a.md"));
    assert!(!fx.exists("main", "Private/b.md"));
}

#[test]
fn bulk_set_property_edits_only_that_property_in_the_selected_notes() {
    let fx = fixture();
    fx.write(
        "main",
        "P/a.md",
        "---\ntitle: A\nstatus: draft\n---\nbody #proj\n",
    );
    fx.write("main", "P/b.md", "plain #proj/sub\n");
    fx.write("main", "P/c.md", "no tag here\n");
    fx.write("main", "Q/d.md", "#proj elsewhere\n");
    let args = json!({"folder": "P", "tag": "#proj", "key": "status", "value": "done"});
    let done = approved(&fx, "bulk_set_property", args).expect("set");
    let paths: Vec<&str> = done["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| r["path"].as_str().expect("path"))
        .collect();
    assert_eq!(paths, ["P/a.md", "P/b.md"]);
    assert_eq!(
        read(&fx, "P/a.md"),
        "---\ntitle: A\nstatus: done\n---\nbody #proj\n"
    );
    assert!(read(&fx, "P/b.md").starts_with("---\nstatus: done\n---\n"));
    assert_eq!(read(&fx, "P/c.md"), "no tag here\n");
    assert_eq!(read(&fx, "Q/d.md"), "#proj elsewhere\n");
}

#[test]
fn bulk_set_property_reports_missing_paths_and_keeps_going() {
    let fx = fixture();
    fx.write("main", "a.md", "---\nstatus: done\n---\n");
    fx.write("main", "b.md", "text\n");
    let args = json!({"paths": ["a.md", "missing.md", "b.md"], "key": "status", "value": "done"});
    let error = approved(&fx, "bulk_set_property", args).expect_err("partial");
    assert_eq!(error.code, ErrorCode::BulkPartial);
    let results = &error.details["results"];
    assert_eq!(results[0]["status"], "unchanged");
    assert_eq!(results[1]["error"]["code"], "not_found");
    assert_eq!(results[2]["status"], "updated");
}

#[test]
fn a_folder_selection_never_includes_hidden_notes() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Open/**"], "writePaths": ["Open/**"]}
    }));
    fx.write("main", "Open/a.md", "a\n");
    fx.write("main", "Secret/b.md", "b\n");
    let writer = caller("w", &["write:notes", "bulk:notes", "read:notes"], None);
    let args = json!({"tag": "nothing-matches-but-walk", "key": "k", "value": 1});
    let asked = fx.err_as(
        &writer,
        "bulk_set_property",
        args.clone(),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&asked);
    let none = match fx.call(&writer, "bulk_set_property", args).result {
        Ok(value) => value,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(none["results"], json!([]));
    let args = json!({"folder": "Open", "key": "k", "value": 1});
    let asked = fx.err_as(
        &writer,
        "bulk_set_property",
        args.clone(),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&asked);
    let done = match fx.call(&writer, "bulk_set_property", args).result {
        Ok(value) => value,
        Err(error) => panic!("{error}"),
    };
    assert_eq!(done["results"].as_array().map(Vec::len), Some(1));
    assert_eq!(read(&fx, "Secret/b.md"), "b\n");
}

#[test]
fn bulk_set_property_refuses_a_contradictory_selection() {
    let fx = fixture();
    fx.err(
        "bulk_set_property",
        json!({"paths": ["a.md"], "folder": "P", "key": "k", "value": 1}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "bulk_set_property",
        json!({"key": "k", "value": 1}),
        ErrorCode::InvalidInput,
    );
}

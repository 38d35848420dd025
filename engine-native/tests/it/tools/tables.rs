//! The GFM table tools through the dispatcher: formatting with alignment, inserting rows
//! and columns, sorting, tables found by index or heading, escaped pipes and inline code
//! kept, bad input and dry runs leaving the note byte-identical, ACL.

use obsidian_tc::errors::ErrorCode;
use serde_json::json;

use crate::support::dispatch::{Fixture, caller};

const NOTE: &str = "# Intro\n\n|a|b|\n|-|-:|\n|x|1|\n\n## Data\n\n| name | n |\n|:--|--:|\n| b \\| c | 10 |\n| `p|q` | 9 |\n| a | 2 |\n\ntail\n";

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "t.md", NOTE);
    fx
}

fn text(fx: &Fixture) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join("t.md")).expect("note")
}

#[test]
fn format_table_pads_columns_and_keeps_alignment() {
    let fx = fixture();
    fx.ok("format_table", json!({"path": "t.md"}));
    assert!(
        text(&fx).starts_with("# Intro\n\n| a   |   b |\n| --- | --: |\n| x   |   1 |\n\n## Data")
    );
}

#[test]
fn sort_by_a_numeric_column_under_a_heading_keeps_escaped_pipes_and_code() {
    let fx = fixture();
    fx.ok(
        "sort_table_by_column",
        json!({"path": "t.md", "heading": "Data", "column": "n", "numeric": true}),
    );
    let after = text(&fx);
    let table: Vec<&str> = after.lines().skip(8).take(5).collect();
    assert_eq!(
        table,
        [
            "| name   |   n |",
            "| :----- | --: |",
            "| a      |   2 |",
            "| `p|q`  |   9 |",
            "| b \\| c |  10 |",
        ]
    );
    assert!(after.ends_with("\n\ntail\n"));
    assert!(
        after.starts_with("# Intro\n\n|a|b|\n"),
        "the other table is untouched"
    );
}

#[test]
fn insert_row_and_column() {
    let fx = fixture();
    fx.ok(
        "insert_table_row",
        json!({"path": "t.md", "cells": ["y|z", "3"], "position": 0}),
    );
    fx.ok(
        "insert_table_column",
        json!({"path": "t.md", "header": "c", "values": ["first"], "alignment": "center", "position": 1}),
    );
    let after = text(&fx);
    let table: Vec<&str> = after.lines().skip(2).take(4).collect();
    assert_eq!(
        table,
        [
            "| a    |   c   |   b |",
            "| ---- | :---: | --: |",
            "| y\\|z | first |   3 |",
            "| x    |       |   1 |",
        ]
    );
}

#[test]
fn bad_input_and_dry_runs_change_nothing() {
    let fx = fixture();
    let preview = fx.ok(
        "format_table",
        json!({"path": "t.md", "index": 1, "dry_run": true}),
    );
    assert!(
        preview["preview"]
            .as_str()
            .expect("diff")
            .contains("+| name")
    );
    fx.err(
        "format_table",
        json!({"path": "t.md", "index": 2}),
        ErrorCode::NotFound,
    );
    fx.err(
        "format_table",
        json!({"path": "t.md", "heading": "Nope"}),
        ErrorCode::NotFound,
    );
    fx.err(
        "insert_table_row",
        json!({"path": "t.md", "cells": ["1", "2", "3"]}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "sort_table_by_column",
        json!({"path": "t.md", "column": "missing"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "insert_table_column",
        json!({"path": "t.md", "header": "h", "alignment": "diagonal"}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(text(&fx), NOTE);
}

#[test]
fn a_note_outside_the_callers_folders_is_refused() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Open/**"], "writePaths": ["Open/**"]}
    }));
    fx.write("main", "Secret/t.md", NOTE);
    let writer = caller("w", &["write:notes"], None);
    fx.err_as(
        &writer,
        "format_table",
        json!({"path": "Secret/t.md"}),
        ErrorCode::AclDenied,
    );
}

//! The bookmark tools through the real dispatcher on an Obsidian-shaped
//! `.obsidian/bookmarks.json`: flattened listing with group paths and stable ids, ACL
//! filtering, adding (targets checked, groups created, duplicates refused, unknown keys
//! kept) and the always-confirmed removal by id.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support;
use crate::support::dispatch::{Fixture, caller};

const FILE: &str = ".obsidian/bookmarks.json";

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    let fx = Fixture::new(config);
    fx.write("main", "Public/a.md", "# A\n## Part two\ntext ^blk\n");
    fx.write("main", "Public/b.md", "b\n");
    fx.write("main", "Private/secret.md", "s\n");
    let bookmarks = json!({
        "items": [
            {"type": "file", "ctime": 1700000000000_i64, "path": "Public/a.md"},
            {"type": "group", "ctime": 1700000000001_i64, "title": "Reading", "items": [
                {"type": "heading", "ctime": 1700000000002_i64, "path": "Public/a.md", "subpath": "#Part two", "color": "red"},
                {"type": "file", "ctime": 1700000000003_i64, "path": "Private/secret.md"}
            ]},
            {"type": "search", "ctime": 1700000000004_i64, "query": "tag:#todo"},
            {"type": "graph", "ctime": 1700000000005_i64, "title": "Graph", "options": {"depth": 2}}
        ],
        "pluginKey": true
    });
    fx.write(
        "main",
        FILE,
        &serde_json::to_string_pretty(&bookmarks).unwrap(),
    );
    fx
}

fn text(fx: &Fixture) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(FILE)).expect("bookmarks")
}

fn kinds(list: &Value) -> Vec<(String, Value)> {
    list["bookmarks"]
        .as_array()
        .expect("bookmarks")
        .iter()
        .map(|b| (b["type"].as_str().unwrap().to_owned(), b["group"].clone()))
        .collect()
}

#[test]
fn bookmarks_are_flattened_with_groups_and_stable_ids() {
    let fx = fixture(json!({}));
    let list = fx.ok("list_bookmarks", json!({}));
    assert_eq!(
        kinds(&list),
        [
            ("file".into(), json!([])),
            ("group".into(), json!([])),
            ("heading".into(), json!(["Reading"])),
            ("file".into(), json!(["Reading"])),
            ("search".into(), json!([])),
            ("graph".into(), json!([])),
        ]
    );
    assert_eq!(list["bookmarks"][2]["subpath"], "#Part two");
    assert_eq!(list["bookmarks"][4]["query"], "tag:#todo");
    let id = list["bookmarks"][0]["id"].as_str().unwrap().to_owned();
    assert!(id.starts_with("bm_") && id.len() == 19, "{id}");
    assert_eq!(fx.ok("list_bookmarks", json!({}))["bookmarks"][0]["id"], id);
}

#[test]
fn hidden_targets_are_never_listed_nor_removable() {
    let fx = fixture(json!({"acl": {"readPaths": ["Public/**"]}}));
    let all = fixture(json!({})).ok("list_bookmarks", json!({}));
    let secret_id = all["bookmarks"][3]["id"].clone();
    let group_id = all["bookmarks"][1]["id"].clone();
    let list = fx.ok("list_bookmarks", json!({}));
    assert_eq!(list["bookmarks"].as_array().unwrap().len(), 5);
    assert!(!list.to_string().contains("secret"));
    let before = text(&fx);
    let asked = fx.err(
        "remove_bookmark",
        json!({"id": secret_id}),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&asked);
    fx.err(
        "remove_bookmark",
        json!({"id": secret_id}),
        ErrorCode::NotFound,
    );
    let asked = fx.err(
        "remove_bookmark",
        json!({"id": group_id}),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&asked);
    fx.err(
        "remove_bookmark",
        json!({"id": group_id}),
        ErrorCode::AclDenied,
    );
    assert_eq!(text(&fx), before);
    fx.err(
        "add_bookmark",
        json!({"type": "file", "path": "Private/secret.md"}),
        ErrorCode::AclDenied,
    );
    assert_eq!(text(&fx), before);
}

#[test]
fn adding_checks_the_target_creates_groups_and_keeps_unknown_keys() {
    let fx = fixture(json!({}));
    let added = fx.ok(
        "add_bookmark",
        json!({"type": "block", "path": "Public/a.md", "subpath": "^blk", "group": ["Reading", "Deep"]}),
    );
    assert_eq!(added["bookmark"]["subpath"], "#^blk");
    assert_eq!(added["bookmark"]["group"], json!(["Reading", "Deep"]));
    fx.ok(
        "add_bookmark",
        json!({"type": "url", "url": "https://obsidian.md", "title": "Obsidian"}),
    );
    fx.ok("add_bookmark", json!({"type": "folder", "path": "Public"}));
    let saved = text(&fx);
    assert!(saved.starts_with("{\n  \"items\": [\n    {\n"), "{saved}");
    let json: Value = serde_json::from_str(&saved).unwrap();
    assert_eq!(json["pluginKey"], true);
    assert_eq!(json["items"][1]["items"][0]["color"], "red");
    assert_eq!(json["items"][3]["options"]["depth"], 2);
    let deep = &json["items"][1]["items"][2];
    assert_eq!(deep["type"], "group");
    assert_eq!(deep["title"], "Deep");
    assert_eq!(deep["items"][0]["path"], "Public/a.md");
    assert_eq!(
        deep["items"][0]["ctime"],
        json!(support::dispatch::START_MS)
    );
    assert_eq!(json["items"][4]["url"], "https://obsidian.md");
    assert_eq!(json["items"][5]["path"], "Public");

    let before = text(&fx);
    let dup = fx.err(
        "add_bookmark",
        json!({"type": "file", "path": "Public/a.md", "group": ["Other"]}),
        ErrorCode::AlreadyExists,
    );
    assert_eq!(
        dup.details["id"],
        fx.ok("list_bookmarks", json!({}))["bookmarks"][0]["id"]
    );
    fx.err(
        "add_bookmark",
        json!({"type": "file", "path": "Public/missing.md"}),
        ErrorCode::NotFound,
    );
    fx.err(
        "add_bookmark",
        json!({"type": "heading", "path": "Public/b.md"}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "add_bookmark",
        json!({"type": "search"}),
        ErrorCode::InvalidInput,
    );
    let writer = caller("w", &["read:bookmarks"], None);
    fx.err_as(
        &writer,
        "add_bookmark",
        json!({"type": "search", "query": "x"}),
        ErrorCode::Forbidden,
    );
    assert_eq!(text(&fx), before);
}

#[test]
fn the_first_bookmark_creates_the_file() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write("main", "note.md", "x\n");
    assert_eq!(fx.ok("list_bookmarks", json!({})), json!({"bookmarks": []}));
    fx.ok("add_bookmark", json!({"type": "file", "path": "note.md"}));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(fx.vault_dir("main").join(FILE)).unwrap())
            .unwrap();
    assert_eq!(json["items"][0]["path"], "note.md");
}

#[test]
fn removal_is_always_confirmed_and_takes_one_bookmark_by_id() {
    let fx = fixture(json!({}));
    let list = fx.ok("list_bookmarks", json!({}));
    let heading = list["bookmarks"][2]["id"].clone();
    let before = text(&fx);
    let asked = fx.err(
        "remove_bookmark",
        json!({"id": heading}),
        ErrorCode::ElicitRequired,
    );
    assert_eq!(text(&fx), before);
    fx.approve_error(&asked);
    let removed = fx.ok("remove_bookmark", json!({"id": heading}));
    assert_eq!(removed["bookmark"]["group"], json!(["Reading"]));
    let json: Value = serde_json::from_str(&text(&fx)).unwrap();
    assert_eq!(json["items"][1]["items"].as_array().unwrap().len(), 1);
    assert_eq!(json["pluginKey"], true);
    let asked = fx.err(
        "remove_bookmark",
        json!({"id": "bm_0000000000000000"}),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&asked);
    fx.err(
        "remove_bookmark",
        json!({"id": "bm_0000000000000000"}),
        ErrorCode::NotFound,
    );
}

/// `bookmarks.json` as Obsidian writes it: `JSON.stringify(data, null, 2)`, keys in the
/// order Obsidian builds them (not sorted), no final newline.
const OBSIDIAN_WRITTEN: &str = "{\n  \"items\": [\n    {\n      \"type\": \"file\",\n      \"ctime\": 1700000000000,\n      \"path\": \"Public/a.md\"\n    },\n    {\n      \"type\": \"group\",\n      \"ctime\": 1700000000001,\n      \"items\": [],\n      \"title\": \"Reading\"\n    }\n  ]\n}";

#[test]
fn an_obsidian_written_file_keeps_its_key_order_and_round_trips() {
    let fx = fixture(json!({}));
    fx.write("main", FILE, OBSIDIAN_WRITTEN);
    let added = fx.ok(
        "add_bookmark",
        json!({"type": "file", "path": "Public/b.md"}),
    );
    let saved = text(&fx);
    let (head, _) = OBSIDIAN_WRITTEN
        .rsplit_once("\n  ]\n}")
        .expect("the items array closes the file");
    assert!(
        saved.starts_with(head),
        "every item Obsidian wrote keeps its text:\n{saved}"
    );
    assert!(
        saved.ends_with(&format!(
            ",\n    {{\n      \"type\": \"file\",\n      \"ctime\": {},\n      \"path\": \"Public/b.md\"\n    }}\n  ]\n}}",
            support::dispatch::START_MS
        )),
        "the new bookmark's keys follow its siblings' order:\n{saved}"
    );
    let asked = fx.err(
        "remove_bookmark",
        json!({"id": added["bookmark"]["id"]}),
        ErrorCode::ElicitRequired,
    );
    fx.approve_error(&asked);
    fx.ok("remove_bookmark", json!({"id": added["bookmark"]["id"]}));
    assert_eq!(text(&fx), OBSIDIAN_WRITTEN, "back to the same bytes");
}

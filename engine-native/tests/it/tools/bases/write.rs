//! `create_base` and `update_base` through the real dispatcher: a created base parses and
//! runs with `query_base`; invalid or duplicate input is a typed error that writes nothing;
//! overwriting and changing the top-level filters ask first; view, formula and property
//! patches keep every other key; `expected_sha256` guards against a concurrent edit.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn fixture() -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    fx.write(
        "main",
        "Books/Dune.md",
        "---\ntags: [book]\nyear: 1965\nauthor: Frank Herbert\n---\n# Dune\n",
    );
    fx.write(
        "main",
        "Books/Neuromancer.md",
        "---\ntags: [book]\nyear: 1984\nauthor: William Gibson\n---\n",
    );
    fx.write(
        "main",
        "Notes/idea.md",
        "---\nyear: 2020\n---\nnot a book\n",
    );
    fx.ok("index_vault", json!({}));
    fx
}

fn text(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("file")
}

fn books_args() -> Value {
    json!({
        "path": "Views/Books.base",
        "filters": {"and": ["file.hasTag(\"book\")"]},
        "formulas": {"age": "2026 - year"},
        "properties": {"note.author": {"displayName": "Author"}},
        "views": [{
            "type": "table",
            "name": "By year",
            "order": ["file.name", "year", "formula.age"],
            "sort": [{"property": "year", "direction": "DESC"}]
        }]
    })
}

fn row_paths(rows: &Value) -> Vec<&str> {
    rows["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["path"].as_str().expect("path"))
        .collect()
}

#[test]
fn a_created_base_parses_and_runs_with_query_base() {
    let fx = fixture();
    let created = fx.ok("create_base", books_args());
    assert_eq!(created["created"], true);
    assert_eq!(created["view_names"], json!(["By year"]));
    let yaml = text(&fx, "Views/Books.base");
    assert!(yaml.starts_with("filters:\n  and:\n"), "{yaml}");
    let read = fx.ok("read_base", json!({"path": "Views/Books.base"}));
    assert_eq!(read["formulas"], json!({"age": "2026 - year"}));
    assert_eq!(read["properties"]["note.author"]["displayName"], "Author");
    assert_eq!(read["sha256"], created["sha256"]);
    let rows = fx.ok("query_base", json!({"path": "Views/Books.base"}));
    assert_eq!(row_paths(&rows), ["Books/Neuromancer.md", "Books/Dune.md"]);
    assert_eq!(rows["rows"][1]["values"]["formula.age"], json!(61.0));
}

#[test]
fn invalid_or_existing_bases_are_refused_and_nothing_changes() {
    let fx = fixture();
    let mut bad = books_args();
    bad["filters"] = json!({"xor": ["file.hasTag(\"book\")"]});
    fx.err("create_base", bad, ErrorCode::UnsupportedBaseFilter);
    assert!(!fx.exists("main", "Views/Books.base"));
    let mut not_base = books_args();
    not_base["path"] = json!("Views/Books.md");
    fx.err("create_base", not_base, ErrorCode::InvalidInput);

    fx.ok("create_base", books_args());
    let before = text(&fx, "Views/Books.base");
    let mut again = books_args();
    again["views"] = json!([]);
    fx.err("create_base", again.clone(), ErrorCode::AlreadyExists);
    again["overwrite"] = json!(true);
    let asked = fx.err("create_base", again.clone(), ErrorCode::ElicitRequired);
    assert_eq!(text(&fx, "Views/Books.base"), before);
    fx.approve_error(&asked);
    let replaced = fx.ok("create_base", again);
    assert_eq!(replaced["created"], false);
    assert!(replaced["previous_sha256"].is_string());
    assert_eq!(replaced["view_names"], json!([]));
}

#[test]
fn create_base_needs_write_bases_and_the_folder_acl() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"writePaths": ["Views/**"]}
    }));
    let reader = caller("r", &["read:bases"], None);
    fx.err_as(&reader, "create_base", books_args(), ErrorCode::Forbidden);
    let writer = caller("w", &["write:bases"], None);
    let mut outside = books_args();
    outside["path"] = json!("Elsewhere/Books.base");
    fx.err_as(&writer, "create_base", outside, ErrorCode::AclDenied);
    assert!(!fx.exists("main", "Elsewhere/Books.base"));
}

const HAND_WRITTEN: &str = "filters:\n  and:\n    - file.hasTag(\"book\")\nformulas:\n  age: 2026 - year\nviews:\n  - type: table\n    name: Table\n    order:\n      - file.name\n  - type: cards\n    name: Gallery\n    image: note.cover\ncustomKey:\n  kept: true\n";

#[test]
fn update_base_patches_views_formulas_and_properties_keeping_other_keys() {
    let fx = fixture();
    fx.write("main", "Books.base", HAND_WRITTEN);
    let read = fx.ok("read_base", json!({"path": "Books.base"}));
    let updated = fx.ok(
        "update_base",
        json!({
            "path": "Books.base",
            "expected_sha256": read["sha256"],
            "formulas": {"age": null, "decade": "year - year % 10"},
            "properties": {"note.author": {"displayName": "Author"}},
            "views": [
                {"op": "add", "name": "Recent", "view": {"type": "table", "order": ["file.name", "formula.decade"], "limit": 1, "sort": [{"property": "year", "direction": "DESC"}]}},
                {"op": "remove", "name": "Table"}
            ]
        }),
    );
    assert_eq!(updated["view_names"], json!(["Gallery", "Recent"]));
    let after = fx.ok("read_base", json!({"path": "Books.base"}));
    assert_eq!(after["formulas"], json!({"decade": "year - year % 10"}));
    assert_eq!(after["views"][0]["image"], "note.cover");
    let yaml = text(&fx, "Books.base");
    assert!(yaml.contains("customKey:\n  kept: true\n"), "{yaml}");
    let rows = fx.ok(
        "query_base",
        json!({"path": "Books.base", "view": "Recent"}),
    );
    assert_eq!(row_paths(&rows), ["Books/Neuromancer.md"]);
    assert_eq!(rows["rows"][0]["values"]["formula.decade"], json!(1980.0));

    // A duplicate or missing view name, or a stale hash, writes nothing.
    let before = text(&fx, "Books.base");
    fx.err(
        "update_base",
        json!({"path": "Books.base", "views": [{"op": "add", "name": "Recent", "view": {"type": "table"}}]}),
        ErrorCode::AlreadyExists,
    );
    fx.err(
        "update_base",
        json!({"path": "Books.base", "views": [{"op": "replace", "name": "Nope", "view": {"type": "table"}}]}),
        ErrorCode::NotFound,
    );
    fx.err(
        "update_base",
        json!({"path": "Books.base", "expected_sha256": read["sha256"], "formulas": {"x": "1"}}),
        ErrorCode::ConcurrentModification,
    );
    assert_eq!(text(&fx, "Books.base"), before);
}

/// A base as a person writes it: comments above and inside sections, quoting and layout the
/// renderer would not choose.
const COMMENTED: &str = "# Reading list, kept by hand\n\n# only books\nfilters:\n  and:\n    - 'file.hasTag(\"book\")'   # the tag, not the folder\n\n# how old each book is\nformulas:\n  age: 2026 - year\nviews:\n  # the main table\n  - type: table\n    name: Table\n    order: [file.name, year]\n\n# end of file\n";

#[test]
fn update_base_keeps_the_text_and_comments_of_every_section_it_does_not_change() {
    let fx = fixture();
    fx.write("main", "Books.base", COMMENTED);
    let updated = fx.ok(
        "update_base",
        json!({"path": "Books.base", "formulas": {"decade": "year - year % 10"}}),
    );
    assert_eq!(updated["view_names"], json!(["Table"]));
    let yaml = text(&fx, "Books.base");
    let (before_formulas, _) = COMMENTED.split_once("formulas:").expect("formulas");
    let (_, from_views) = COMMENTED.split_once("views:").expect("views");
    assert!(
        yaml.starts_with(before_formulas),
        "the header, the filters as written and the comment above formulas stay:\n{yaml}"
    );
    assert!(
        yaml.ends_with(&format!("views:{from_views}")),
        "the views as written and the closing comment stay:\n{yaml}"
    );
    let after = fx.ok("read_base", json!({"path": "Books.base"}));
    assert_eq!(
        after["formulas"],
        json!({"age": "2026 - year", "decade": "year - year % 10"})
    );
    let rows = fx.ok("query_base", json!({"path": "Books.base", "view": "Table"}));
    assert_eq!(row_paths(&rows).len(), 2);
}

#[test]
fn changing_the_top_level_filters_asks_first() {
    let fx = fixture();
    fx.write("main", "Books.base", HAND_WRITTEN);
    let before = text(&fx, "Books.base");
    let args = json!({"path": "Books.base", "filters": "year > 2000"});
    let asked = fx.err("update_base", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(text(&fx, "Books.base"), before);
    fx.approve_error(&asked);
    fx.ok("update_base", args);
    let rows = fx.ok("query_base", json!({"path": "Books.base", "view": "Table"}));
    assert_eq!(row_paths(&rows), ["Notes/idea.md"]);

    // Setting them to what they already are asks nothing; clearing them asks.
    fx.ok(
        "update_base",
        json!({"path": "Books.base", "filters": "year > 2000", "formulas": {"x": "1"}}),
    );
    fx.err(
        "update_base",
        json!({"path": "Books.base", "clear_filters": true}),
        ErrorCode::ElicitRequired,
    );
}

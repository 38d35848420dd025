//! The Kanban tools through the real dispatcher on boards in the plugin's format (both
//! `basic` and `board` frontmatter values): columns and cards read with their lines; adding
//! and moving a card changes only that card's lines (the settings block and every other
//! byte stay); an ambiguous card is refused listing the matches; a hidden board never lists.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    Fixture::new(config)
}

const SETTINGS: &str = "%% kanban:settings\n```\n{\"kanban-plugin\":\"basic\",\"list-collapse\":[false,false]}\n```\n%%";

fn board() -> String {
    format!(
        "---\n\nkanban-plugin: basic\n\n---\n\n## Todo\n\n- [ ] Write spec @{{2026-01-02}} #p1\n\tDetails line\n\t- [x] sub step\n- [ ] Review\n\n\n## Doing\n\n\n\n## Done\n\n**Complete**\n- [x] Ship it\n\n***\n\n## Archive\n\n- [x] Old card\n\n{SETTINGS}\n"
    )
}

fn read(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("note")
}

#[test]
fn a_board_reads_as_columns_and_cards_with_lines() {
    let fx = fixture(json!({}));
    fx.write("main", "Board.md", &board());
    let read = fx.ok("read_kanban_board", json!({"path": "Board.md"}));
    assert_eq!(read["kind"], "basic");
    let columns = read["columns"].as_array().expect("columns");
    let names: Vec<&str> = columns
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Todo", "Doing", "Done", "Archive"]);
    assert_eq!(
        columns[0]["cards"][0],
        json!({"text": "Write spec @{2026-01-02} #p1", "checked": false, "line": 9, "lines": 3})
    );
    assert_eq!(columns[0]["cards"][1]["line"], 12);
    assert_eq!(columns[1]["cards"], json!([]));
    assert_eq!(columns[2]["complete"], true);
    assert_eq!(columns[2]["cards"][0]["checked"], true);
    assert_eq!(columns[3]["archived"], true);
    fx.write("main", "Plain.md", "# Not a board\n- [ ] task\n");
    fx.err(
        "read_kanban_board",
        json!({"path": "Plain.md"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn adding_cards_changes_only_the_inserted_lines() {
    let fx = fixture(json!({}));
    let original = board();
    fx.write("main", "Board.md", &original);
    let sha = fx.ok("read_kanban_board", json!({"path": "Board.md"}))["sha256"].clone();
    let added = fx.ok(
        "add_kanban_card",
        json!({"path": "Board.md", "column": "Doing", "card": "Fresh", "expected_sha256": sha}),
    );
    assert_eq!(added["line"], 17);
    let after = read(&fx, "Board.md");
    assert_eq!(
        after,
        original.replace("## Doing\n\n\n\n", "## Doing\n\n- [ ] Fresh\n\n\n")
    );
    fx.ok(
        "add_kanban_card",
        json!({"path": "Board.md", "column": "todo", "card": "First", "position": "top"}),
    );
    fx.ok(
        "add_kanban_card",
        json!({"path": "Board.md", "column": "Todo", "card": "Last", "checked": true}),
    );
    let expected = original
        .replace("## Doing\n\n\n\n", "## Doing\n\n- [ ] Fresh\n\n\n")
        .replace(
            "## Todo\n\n- [ ] Write",
            "## Todo\n\n- [ ] First\n- [ ] Write",
        )
        .replace("- [ ] Review\n", "- [ ] Review\n- [x] Last\n");
    assert_eq!(read(&fx, "Board.md"), expected);
    assert!(read(&fx, "Board.md").ends_with(&format!("{SETTINGS}\n")));

    fx.err(
        "add_kanban_card",
        json!({"path": "Board.md", "column": "Nowhere", "card": "x"}),
        ErrorCode::NotFound,
    );
    fx.err(
        "add_kanban_card",
        json!({"path": "Board.md", "column": "Todo", "card": "x", "expected_sha256": sha}),
        ErrorCode::ConcurrentModification,
    );
    fx.err(
        "add_kanban_card",
        json!({"path": "Board.md", "column": "Todo", "card": "two\nlines"}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(read(&fx, "Board.md"), expected);
}

#[test]
fn moving_a_card_keeps_its_lines_and_every_other_byte() {
    let fx = fixture(json!({}));
    let original = board().replace("kanban-plugin: basic", "kanban-plugin: board");
    fx.write("main", "Board.md", &original);
    let card = "- [ ] Write spec @{2026-01-02} #p1\n\tDetails line\n\t- [x] sub step\n";
    let moved = fx.ok(
        "move_kanban_card",
        json!({"path": "Board.md", "card": "Write spec @{2026-01-02} #p1", "to_column": "Done"}),
    );
    assert_eq!(moved["column"], "Done");
    let expected = original
        .replace(card, "")
        .replace("- [x] Ship it\n", &format!("- [x] Ship it\n{card}"));
    assert_eq!(read(&fx, "Board.md"), expected);

    fx.ok(
        "move_kanban_card",
        json!({"path": "Board.md", "card": "Review", "to_column": "Doing", "position": "top"}),
    );
    let expected = expected
        .replace("- [ ] Review\n", "")
        .replace("## Doing\n\n\n\n", "## Doing\n\n- [ ] Review\n\n\n");
    assert_eq!(read(&fx, "Board.md"), expected);
    let board = fx.ok("read_kanban_board", json!({"path": "Board.md"}));
    assert_eq!(board["kind"], "board");
    assert_eq!(board["columns"][0]["cards"], json!([]));
    assert_eq!(board["columns"][2]["cards"][1]["lines"], 3);
}

#[test]
fn an_ambiguous_card_is_refused_with_its_matches() {
    let fx = fixture(json!({}));
    let original = board().replace("- [x] Old card", "- [ ] Review");
    fx.write("main", "Board.md", &original);
    let error = fx.err(
        "move_kanban_card",
        json!({"path": "Board.md", "card": "Review", "to_column": "Done"}),
        ErrorCode::Ambiguous,
    );
    assert_eq!(
        error.details["matches"],
        json!([{"column": "Todo", "line": 12}, {"column": "Archive", "line": 28}])
    );
    assert_eq!(read(&fx, "Board.md"), original);
    fx.err(
        "move_kanban_card",
        json!({"path": "Board.md", "card": "Missing", "to_column": "Done"}),
        ErrorCode::NotFound,
    );
    fx.ok(
        "move_kanban_card",
        json!({"path": "Board.md", "card": "Review", "from_column": "Archive", "to_column": "Doing"}),
    );
    assert!(read(&fx, "Board.md").contains("## Doing\n\n- [ ] Review\n"));
}

#[test]
fn boards_are_listed_with_counts_and_hidden_ones_never_appear() {
    let fx = fixture(json!({"acl": {"readPaths": ["Public/**"], "writePaths": ["Public/**"]}}));
    fx.write("main", "Public/Board.md", &board());
    fx.write("main", "Public/Note.md", "# plain\n- [ ] task\n");
    fx.write("main", "Secret/Board.md", &board());
    fx.ok("index_vault", json!({}));
    let list = fx.ok("list_kanban_boards", json!({}));
    assert_eq!(list["total"], 1);
    let first = &list["boards"][0];
    assert_eq!(first["path"], "Public/Board.md");
    assert_eq!(first["cards"], 4);
    assert_eq!(
        first["columns"],
        json!([
            {"name": "Todo", "cards": 2},
            {"name": "Doing", "cards": 0},
            {"name": "Done", "cards": 1},
            {"name": "Archive", "cards": 1}
        ])
    );
    assert!(!list.to_string().contains("Secret"));
    fx.err(
        "add_kanban_card",
        json!({"path": "Secret/Board.md", "column": "Todo", "card": "x"}),
        ErrorCode::AclDenied,
    );
}

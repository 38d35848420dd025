//! Edits of JSON and JSONC files through the library: line endings, files with nothing but
//! comments, partial updates, and the shapes that are refused with their place.

use obsidian_tc::cli::setup::client::Client;
use obsidian_tc::cli::setup::edit;
use obsidian_tc::cli::setup::entry::{Change, ServerEntry};
use obsidian_tc::cli::setup::malformed::{Malformed, Problem};
use serde_json::json;

use super::{fixture, read_as, text};

fn entry(client: Client) -> ServerEntry {
    ServerEntry::new(
        client,
        "obsidian-tc".to_owned(),
        "/usr/local/bin/obsidian-tc".to_owned(),
        "C:\\Vaults\\Notes".to_owned(),
    )
}

#[test]
fn crlf_line_endings_stay_crlf() {
    let old = text(&fixture("vscode/mcp.json")).replace('\n', "\r\n");
    let edited = edit(Client::Vscode, &old, &entry(Client::Vscode)).expect("edits");
    assert_eq!(edited.change, Change::Added);
    assert_eq!(
        edited.text.matches('\n').count(),
        edited.text.matches("\r\n").count(),
        "{:?}",
        edited.text
    );
    assert_eq!(
        read_as("vscode", &edited.text)["servers"]["obsidian-tc"]["args"],
        json!(["C:\\Vaults\\Notes"])
    );
}

#[test]
fn a_file_of_only_comments_gets_an_object_and_keeps_them() {
    let old = "// my servers go here\n";
    let edited = edit(Client::Cursor, old, &entry(Client::Cursor)).expect("edits");
    assert!(edited.text.starts_with(old), "{}", edited.text);
    assert_eq!(
        read_as("cursor", &edited.text),
        json!({"mcpServers": {"obsidian-tc": {
            "command": "/usr/local/bin/obsidian-tc", "args": ["C:\\Vaults\\Notes"]
        }}})
    );
}

#[test]
fn only_the_keys_that_differ_are_rewritten() {
    let old = "{\"mcpServers\": {\"obsidian-tc\": {\"command\": \"/usr/local/bin/obsidian-tc\", \
               \"args\": [\"/old\"], \"disabled\": false}}}";
    let edited = edit(Client::ClaudeDesktop, old, &entry(Client::ClaudeDesktop)).expect("edits");
    assert_eq!(edited.change, Change::Updated(vec!["args"]));
    assert_eq!(
        edited.text,
        old.replace("[\"/old\"]", "[\"C:\\\\Vaults\\\\Notes\"]")
    );
    // A stdio entry of another type is not ours to update: it is replaced.
    let old = "{\"servers\": {\"obsidian-tc\": {\"type\": \"sse\", \"command\": \"x\"}}}";
    let edited = edit(Client::Vscode, old, &entry(Client::Vscode)).expect("edits");
    assert_eq!(edited.change, Change::Replaced);
    assert_eq!(
        read_as("vscode", &edited.text)["servers"]["obsidian-tc"],
        json!({"type": "stdio", "command": "/usr/local/bin/obsidian-tc",
               "args": ["C:\\Vaults\\Notes"]})
    );
}

fn refused(client: Client, text: &str) -> Malformed {
    edit(client, text, &entry(client)).expect_err("refused")
}

#[test]
fn names_given_twice_are_refused_with_both_lines() {
    let twice = "{\n  \"mcpServers\": {\n    \"obsidian-tc\": {},\n    \"obsidian-tc\": {}\n  }\n}";
    assert_eq!(
        refused(Client::ClaudeCode, twice),
        Malformed {
            line: 4,
            column: 5,
            problem: Problem::Duplicate {
                key: "obsidian-tc".to_owned(),
                first_line: 3
            }
        }
    );
    let tables = "{\"servers\": {},\n\"servers\": {}}";
    assert!(matches!(
        refused(Client::Vscode, tables),
        Malformed {
            line: 2,
            column: 1,
            problem: Problem::Duplicate { first_line: 1, .. }
        }
    ));
    // Another server given twice is the client's business, not this command's.
    let other = "{\"mcpServers\": {\"a\": {}, \"a\": {}}}";
    assert!(edit(Client::GeminiCli, other, &entry(Client::GeminiCli)).is_ok());
}

#[test]
fn a_top_level_that_is_not_an_object_is_refused() {
    assert_eq!(
        refused(Client::ClaudeDesktop, "\n  [1, 2]"),
        Malformed {
            line: 2,
            column: 3,
            problem: Problem::NotATable {
                what: "the top level".to_owned(),
                expected: "an object"
            }
        }
    );
    // Leniencies no client reads are refused too.
    for text in ["{mcpServers: {}}", "{\"a\": 0x10}", "{\"a\": 1,, }"] {
        assert!(
            matches!(refused(Client::Vscode, text).problem, Problem::Syntax(_)),
            "{text}"
        );
    }
}

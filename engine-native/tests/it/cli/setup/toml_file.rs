//! Edits of Codex's TOML through the library: the other ways TOML can hold the server table,
//! and what is refused.

use obsidian_tc::cli::setup::client::Client;
use obsidian_tc::cli::setup::edit;
use obsidian_tc::cli::setup::entry::{Change, ServerEntry};
use obsidian_tc::cli::setup::malformed::{Malformed, Problem};
use serde_json::json;

use super::{difference, read_as};

fn entry() -> ServerEntry {
    ServerEntry::new(
        Client::Codex,
        "obsidian-tc".to_owned(),
        "/usr/local/bin/obsidian-tc".to_owned(),
        "/vaults/it's \"mine\"".to_owned(),
    )
}

fn ours() -> serde_json::Value {
    json!({"command": "/usr/local/bin/obsidian-tc", "args": ["/vaults/it's \"mine\""]})
}

#[test]
fn inline_and_dotted_server_tables_get_the_entry_in_their_own_style() {
    for old in [
        "mcp_servers = { docs = { command = \"d\" } }\n",
        "mcp_servers.docs.command = \"d\"\n",
        "[mcp_servers]\ndocs = { command = \"d\" }\n",
    ] {
        let edited = edit(Client::Codex, old, &entry()).expect("edits");
        assert_eq!(edited.change, Change::Added);
        assert_eq!(
            read_as("codex", &edited.text),
            json!({"mcp_servers": {"docs": {"command": "d"}, "obsidian-tc": ours()}}),
            "{}",
            edited.text
        );
        let (old_middle, _) = difference(old, &edited.text);
        assert!(old_middle.trim().is_empty(), "{old:?} -> {:?}", edited.text);
    }
}

#[test]
fn a_value_that_is_no_server_is_replaced_in_place() {
    let old = "[mcp_servers]\nobsidian-tc = \"off\"\nzz = { command = \"z\" }\n";
    let edited = edit(Client::Codex, old, &entry()).expect("edits");
    assert_eq!(edited.change, Change::Replaced);
    assert_eq!(
        read_as("codex", &edited.text),
        json!({"mcp_servers": {"obsidian-tc": ours(), "zz": {"command": "z"}}})
    );
    assert!(
        edited.text.ends_with("zz = { command = \"z\" }\n"),
        "{}",
        edited.text
    );
}

#[test]
fn a_server_table_that_is_no_table_is_refused_with_its_line() {
    assert_eq!(
        edit(
            Client::Codex,
            "model = \"m\"\nmcp_servers = [1]\n",
            &entry()
        ),
        Err(Malformed {
            line: 2,
            column: 15,
            problem: Problem::NotATable {
                what: "\"mcp_servers\"".to_owned(),
                expected: "a table"
            }
        })
    );
    let duplicate = "[mcp_servers.a]\ncommand = \"x\"\n[mcp_servers.a]\n";
    assert!(matches!(
        edit(Client::Codex, duplicate, &entry()),
        Err(Malformed {
            line: 3,
            problem: Problem::Syntax(_),
            ..
        })
    ));
}

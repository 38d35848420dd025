//! Agent memory as notes through the dispatcher: entities created, read, observed, linked and
//! unlinked as notes of the memory folder (`Memory`, or the vault's `memoryFolder`), the exact
//! bytes written, a human's edit read back, natural keys (a retried call changes nothing),
//! relations resolving as Obsidian links, bad input refused with nothing written, the folder
//! ACL. Undo of each memory write is in `tools::snapshots`.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn fixture() -> Fixture {
    Fixture::new(json!({"throttle": {"enabled": false}}))
}

fn note(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("note")
}

fn create(fx: &Fixture, args: Value) -> Value {
    fx.ok("create_entity", args)
}

#[test]
fn an_entity_is_a_note_that_reads_back_with_its_relations_resolved() {
    let fx = fixture();
    create(&fx, json!({"name": "Acme", "type": "other"}));
    let made = create(
        &fx,
        json!({
            "name": "Jo Smith",
            "type": "person",
            "aliases": ["Jo"],
            "observations": ["Prefers tea\nto coffee"],
            "relations": [{"relation": "works_at", "target": "Acme"}, {"relation": "knows", "target": "Nobody Yet"}],
            "session": "s-1"
        }),
    );
    assert_eq!(made["path"], "Memory/Jo Smith.md");
    assert_eq!(made["changed"], true);
    assert_eq!(
        note(&fx, "Memory/Jo Smith.md"),
        "---\ntype: person\naliases:\n  - Jo\nworks_at: \"[[Acme]]\"\nknows: \"[[Nobody Yet]]\"\n---\n# Jo Smith\n\n## Observations\n\n- Prefers tea to coffee [date:: 2026-01-01] [session:: s-1]\n"
    );
    let got = fx.ok("get_entity", json!({"name": "Jo Smith"}));
    assert_eq!(got["type"], "person");
    assert_eq!(got["aliases"], json!(["Jo"]));
    assert_eq!(
        got["observations"],
        json!([{"text": "Prefers tea to coffee", "date": "2026-01-01", "session": "s-1"}])
    );
    assert_eq!(
        got["relations"],
        json!([
            {"relation": "works_at", "target": "Acme", "path": "Memory/Acme.md"},
            {"relation": "knows", "target": "Nobody Yet", "path": null}
        ])
    );
    // Obsidian's resolution sees the same link: Acme's backlinks name Jo Smith.
    let backlinks = fx.ok("get_backlinks", json!({"path": "Memory/Acme.md"}));
    assert!(
        backlinks.to_string().contains("Memory/Jo Smith.md"),
        "{backlinks}"
    );
}

#[test]
fn creating_again_changes_nothing_and_another_type_is_already_exists() {
    let fx = fixture();
    create(&fx, json!({"name": "Atlas", "type": "project"}));
    let before = note(&fx, "Memory/Atlas.md");
    let again = create(
        &fx,
        json!({"name": "Atlas", "type": "project", "observations": ["x"]}),
    );
    assert_eq!(again["changed"], false);
    assert_eq!(note(&fx, "Memory/Atlas.md"), before);
    let error = fx.err(
        "create_entity",
        json!({"name": "Atlas", "type": "person"}),
        ErrorCode::AlreadyExists,
    );
    assert!(
        error.message.contains("exists as project"),
        "{}",
        error.message
    );
    assert_eq!(note(&fx, "Memory/Atlas.md"), before);
}

#[test]
fn observations_are_added_once_and_a_human_edit_is_what_is_read_next() {
    let fx = fixture();
    create(
        &fx,
        json!({"name": "Jo", "type": "person", "observations": ["Likes tea"]}),
    );
    let added = fx.ok(
        "add_observation",
        json!({"name": "Jo", "text": "Plays chess", "session": "s-2"}),
    );
    assert_eq!(added["changed"], true);
    let again = fx.ok(
        "add_observation",
        json!({"name": "Jo", "text": " Plays  chess "}),
    );
    assert_eq!(again["changed"], false);
    assert_eq!(again["sha256"], added["sha256"]);
    // A person edits the note in Obsidian: a fact of their own and a relation.
    let edited = note(&fx, "Memory/Jo.md")
        .replace("type: person\n", "type: person\nlives_in: \"[[Lisbon]]\"\n")
        + "- Moved to Lisbon\n";
    fx.write("main", "Memory/Jo.md", &edited);
    let got = fx.ok("get_entity", json!({"name": "Jo"}));
    let texts: Vec<&str> = got["observations"]
        .as_array()
        .expect("observations")
        .iter()
        .map(|o| o["text"].as_str().expect("text"))
        .collect();
    assert_eq!(texts, ["Likes tea", "Plays chess", "Moved to Lisbon"]);
    assert_eq!(got["observations"][1]["session"], "s-2");
    assert_eq!(got["relations"][0]["relation"], "lives_in");
    // The agent's next fact goes after the person's.
    fx.ok(
        "add_observation",
        json!({"name": "Jo", "text": "Speaks Portuguese"}),
    );
    assert!(
        note(&fx, "Memory/Jo.md")
            .ends_with("- Moved to Lisbon\n- Speaks Portuguese [date:: 2026-01-01]\n")
    );
    let missing = fx.err(
        "add_observation",
        json!({"name": "Nobody", "text": "x"}),
        ErrorCode::NotFound,
    );
    assert!(
        missing.message.contains("create_entity"),
        "{}",
        missing.message
    );
}

#[test]
fn linking_and_unlinking_are_natural_keys_and_the_target_must_exist() {
    let fx = fixture();
    for name in ["Jo", "Ann", "Bob"] {
        create(&fx, json!({"name": name, "type": "person"}));
    }
    let link = |to: &str| {
        fx.ok(
            "link_entities",
            json!({"from": "Jo", "relation": "knows", "to": to}),
        )
    };
    assert_eq!(link("Ann")["changed"], true);
    assert_eq!(link("Bob")["changed"], true);
    assert_eq!(link("Ann")["changed"], false);
    assert!(note(&fx, "Memory/Jo.md").contains("knows:\n  - \"[[Ann]]\"\n  - \"[[Bob]]\"\n"));
    let got = fx.ok("get_entity", json!({"name": "Jo"}));
    assert_eq!(got["relations"][1]["path"], "Memory/Bob.md");
    let before = note(&fx, "Memory/Jo.md");
    fx.err(
        "link_entities",
        json!({"from": "Jo", "relation": "knows", "to": "Zed"}),
        ErrorCode::NotFound,
    );
    assert_eq!(note(&fx, "Memory/Jo.md"), before);
    let unlink = |to: &str| {
        fx.ok(
            "unlink_entities",
            json!({"from": "Jo", "relation": "knows", "to": to}),
        )
    };
    assert_eq!(unlink("Ann")["changed"], true);
    assert_eq!(unlink("Bob")["changed"], true);
    assert_eq!(unlink("Bob")["changed"], false);
    assert_eq!(
        note(&fx, "Memory/Jo.md"),
        "---\ntype: person\n---\n# Jo\n\n## Observations\n\n"
    );
}

#[test]
fn bad_names_and_reserved_relations_are_invalid_input_and_write_nothing() {
    let fx = fixture();
    for name in [" Jo", "a/b", "x#y", "[[Jo]]", ".hidden", "a|b", "tab\there"] {
        fx.err(
            "create_entity",
            json!({"name": name, "type": "person"}),
            ErrorCode::InvalidInput,
        );
    }
    let error = fx.err(
        "create_entity",
        json!({"name": "Jo", "type": "person", "relations": [{"relation": "type", "target": "X"}]}),
        ErrorCode::InvalidInput,
    );
    assert!(
        error.message.contains("not a relation"),
        "{}",
        error.message
    );
    for args in [
        json!({"name": "", "type": "person"}),
        json!({"name": "Jo", "type": "robot"}),
    ] {
        fx.err("create_entity", args, ErrorCode::ValidationError);
    }
    assert!(!fx.exists("main", "Memory"));
    create(&fx, json!({"name": "Jo", "type": "person"}));
    let before = note(&fx, "Memory/Jo.md");
    fx.err(
        "add_observation",
        json!({"name": "Jo", "text": "x", "session": "a]b"}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(note(&fx, "Memory/Jo.md"), before);
}

#[test]
fn the_graph_walks_relations_both_ways_to_the_depth_asked() {
    let fx = fixture();
    fx.write("main", "Notes/Readme.md", "# Readme\n");
    for (name, kind) in [
        ("Jo", "person"),
        ("Ann", "person"),
        ("Acme", "other"),
        ("Group", "other"),
        ("Bob", "person"),
    ] {
        create(&fx, json!({"name": name, "type": kind}));
    }
    for (from, relation, to) in [
        ("Jo", "works_at", "Acme"),
        ("Ann", "knows", "Jo"),
        ("Acme", "part_of", "Group"),
    ] {
        fx.ok(
            "link_entities",
            json!({"from": from, "relation": relation, "to": to}),
        );
    }
    let see =
        note(&fx, "Memory/Jo.md").replace("type: person\n", "type: person\nsee: \"[[Readme]]\"\n");
    fx.write("main", "Memory/Jo.md", &see);
    let walk = |args: Value| {
        let graph = fx.ok("query_entity_graph", args);
        let nodes: Vec<(String, u64)> = graph["nodes"]
            .as_array()
            .expect("nodes")
            .iter()
            .map(|n| {
                (
                    n["name"].as_str().expect("name").to_owned(),
                    n["depth"].as_u64().expect("depth"),
                )
            })
            .collect();
        (nodes, graph)
    };
    let (nodes, graph) = walk(json!({"name": "Jo", "depth": 1}));
    let named: Vec<(&str, u64)> = nodes.iter().map(|(n, d)| (n.as_str(), *d)).collect();
    assert_eq!(named, [("Jo", 0), ("Acme", 1), ("Ann", 1), ("Readme", 1)]);
    assert_eq!(
        graph["edges"],
        json!([
            {"from": "Memory/Ann.md", "relation": "knows", "to": "Memory/Jo.md"},
            {"from": "Memory/Jo.md", "relation": "see", "to": "Notes/Readme.md"},
            {"from": "Memory/Jo.md", "relation": "works_at", "to": "Memory/Acme.md"}
        ])
    );
    assert_eq!(
        graph["nodes"][3]["type"],
        Value::Null,
        "a note outside the memory has no type"
    );
    assert_eq!(graph["nodes"][1]["type"], "other");
    assert_eq!(graph["truncated"], false);
    let (deeper, _) = walk(json!({"name": "Jo"}));
    assert!(deeper.contains(&("Group".to_owned(), 2)), "{deeper:?}");
    assert!(!deeper.iter().any(|(n, _)| n == "Bob"));
    let (known, _) = walk(json!({"name": "Jo", "depth": 5, "relation": "knows"}));
    assert_eq!(known, [("Jo".to_owned(), 0), ("Ann".to_owned(), 1)]);
    fx.err(
        "query_entity_graph",
        json!({"name": "Nobody"}),
        ErrorCode::NotFound,
    );
}

#[test]
fn the_memory_folder_is_the_vaults_and_its_acl_applies() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "vaults": [{"id": "main", "path": "main", "memoryFolder": "90 Memory/"}]
    }));
    let made = create(&fx, json!({"name": "Jo", "type": "person"}));
    assert_eq!(made["path"], "90 Memory/Jo.md");
    assert_eq!(
        fx.ok("get_entity", json!({"name": "Jo"}))["path"],
        "90 Memory/Jo.md"
    );

    let fenced = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Notes/**"], "writePaths": ["Notes/**"]}
    }));
    fenced.write("main", "Memory/Jo.md", "---\ntype: person\n---\n# Jo\n");
    let agent = caller("agent", &["read:memory", "write:memory"], None);
    fenced.err_as(
        &agent,
        "get_entity",
        json!({"name": "Jo"}),
        ErrorCode::AclDenied,
    );
    fenced.err_as(
        &agent,
        "create_entity",
        json!({"name": "Ann", "type": "person"}),
        ErrorCode::AclDenied,
    );
    fenced.err_as(
        &agent,
        "add_observation",
        json!({"name": "Jo", "text": "x"}),
        ErrorCode::AclDenied,
    );
    assert!(!fenced.exists("main", "Memory/Ann.md"));
    assert_eq!(
        note(&fenced, "Memory/Jo.md"),
        "---\ntype: person\n---\n# Jo\n"
    );
}

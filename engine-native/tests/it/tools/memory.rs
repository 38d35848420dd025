//! Agent memory as notes through the dispatcher: entities created, read, observed, linked and
//! unlinked as notes of the memory folder (`Memory`, or the vault's `memoryFolder`), the exact
//! bytes written, a human's edit read back, natural keys (a retried call changes nothing),
//! relations resolving as Obsidian links, bad input refused with nothing written, the folder
//! ACL. Undo of each memory write is in `tools::snapshots`.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller, result_paths};

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

/// Notes of a person's own that link to the entity `Acme` every way Obsidian can: by name,
/// with a heading and display text, as an embed, by path, and as a relative markdown link.
fn human_links_to_acme(fx: &Fixture) {
    fx.write(
        "main",
        "Projects/plan.md",
        "See [[Acme]] and [[Acme#History|the firm]].\n\n![[Acme]]\n",
    );
    fx.write(
        "main",
        "Daily/2026-11-27.md",
        "Met [[Memory/Acme]] today; [their page](../Memory/Acme.md).\n",
    );
}

#[test]
fn renaming_an_entity_keeps_every_link_to_it_resolving() {
    use crate::support::links::{Oracle, unresolved_count};
    let fx = fixture();
    create(
        &fx,
        json!({"name": "Acme", "type": "other", "observations": ["A firm"]}),
    );
    create(
        &fx,
        json!({"name": "Jo", "type": "person", "relations": [{"relation": "works_at", "target": "Acme"}]}),
    );
    human_links_to_acme(&fx);
    fx.ok("index_vault", json!({}));
    let unresolved = unresolved_count(&fx);
    let sources_before = Oracle::scan(&fx.vault_dir("main")).backlinks("Memory/Acme.md");
    assert_eq!(sources_before.len(), 3, "{sources_before:?}");

    let renamed = fx.ok(
        "rename_entity",
        json!({"name": "Acme", "new_name": "Acme Corp"}),
    );
    assert_eq!(renamed["path"], "Memory/Acme Corp.md");
    assert_eq!(renamed["previous_path"], "Memory/Acme.md");
    assert_eq!(renamed["changed"], true);
    assert_eq!(renamed["links_rewritten"], 6, "{renamed}");
    assert!(!fx.exists("main", "Memory/Acme.md"));
    assert_eq!(
        note(&fx, "Memory/Acme Corp.md"),
        "---\ntype: other\naliases:\n  - Acme\n---\n# Acme Corp\n\n## Observations\n\n- A firm [date:: 2026-01-01]\n"
    );
    assert_eq!(
        note(&fx, "Projects/plan.md"),
        "See [[Acme Corp]] and [[Acme Corp#History|the firm]].\n\n![[Acme Corp]]\n"
    );
    assert_eq!(
        note(&fx, "Daily/2026-11-27.md"),
        "Met [[Memory/Acme Corp]] today; [their page](../Memory/Acme%20Corp.md).\n"
    );
    assert!(note(&fx, "Memory/Jo.md").contains("works_at: \"[[Acme Corp]]\"\n"));

    // Vault-wide: nothing became unresolved, and the test's own scan finds every former
    // backlink reaching the new note.
    assert_eq!(unresolved_count(&fx), unresolved);
    let sources_after = Oracle::scan(&fx.vault_dir("main")).backlinks("Memory/Acme Corp.md");
    assert_eq!(sources_after, sources_before);
    let jo = fx.ok("get_entity", json!({"name": "Jo"}));
    assert_eq!(jo["relations"][0]["path"], "Memory/Acme Corp.md", "{jo}");
    let acme = fx.ok("get_entity", json!({"name": "Acme Corp"}));
    assert_eq!(acme["aliases"], json!(["Acme"]));
    fx.err("get_entity", json!({"name": "Acme"}), ErrorCode::NotFound);
}

#[test]
fn retiring_an_entity_sets_its_status_once_and_keeps_its_note() {
    let fx = fixture();
    create(&fx, json!({"name": "Atlas", "type": "project"}));
    let retired = fx.ok(
        "rename_entity",
        json!({"name": "Atlas", "status": "retired"}),
    );
    assert_eq!(retired["changed"], true);
    assert_eq!(retired["status"], "retired");
    assert_eq!(
        note(&fx, "Memory/Atlas.md"),
        "---\ntype: project\nstatus: retired\n---\n# Atlas\n\n## Observations\n\n"
    );
    let again = fx.ok(
        "rename_entity",
        json!({"name": "Atlas", "status": "retired"}),
    );
    assert_eq!(again["changed"], false);
    assert_eq!(again["sha256"], retired["sha256"]);
    assert_eq!(
        fx.ok("get_entity", json!({"name": "Atlas"}))["status"],
        "retired"
    );
    // Renamed and made active again in one call, without keeping the old name.
    let both = fx.ok(
        "rename_entity",
        json!({"name": "Atlas", "new_name": "Atlas II", "status": "active", "keep_old_name_as_alias": false}),
    );
    assert_eq!(both["status"], "active");
    assert_eq!(
        note(&fx, "Memory/Atlas II.md"),
        "---\ntype: project\nstatus: active\n---\n# Atlas II\n\n## Observations\n\n"
    );
}

#[test]
fn renaming_onto_a_taken_name_or_with_nothing_to_do_is_refused_and_changes_nothing() {
    let fx = fixture();
    create(&fx, json!({"name": "Ann", "type": "person"}));
    create(&fx, json!({"name": "Bob", "type": "person"}));
    let before = crate::support::dispatch::snapshot(&fx.vault_dir("main"));
    for (args, code) in [
        (
            json!({"name": "Ann", "new_name": "Bob"}),
            ErrorCode::AlreadyExists,
        ),
        (json!({"name": "Ann"}), ErrorCode::InvalidInput),
        (
            json!({"name": "Ann", "new_name": "../Ann"}),
            ErrorCode::InvalidInput,
        ),
        (
            json!({"name": "Nobody", "new_name": "Somebody"}),
            ErrorCode::NotFound,
        ),
        (
            json!({"name": "Ann", "status": "gone"}),
            ErrorCode::ValidationError,
        ),
    ] {
        fx.err("rename_entity", args, code);
    }
    assert_eq!(
        crate::support::dispatch::snapshot(&fx.vault_dir("main")),
        before
    );
}

#[test]
fn deleting_an_entity_is_confirmed_first_and_names_the_links_left_behind() {
    let fx = fixture();
    create(&fx, json!({"name": "Acme", "type": "other"}));
    create(
        &fx,
        json!({"name": "Jo", "type": "person", "relations": [{"relation": "works_at", "target": "Acme"}]}),
    );
    human_links_to_acme(&fx);
    fx.ok("index_vault", json!({}));
    let before = crate::support::dispatch::snapshot(&fx.vault_dir("main"));
    let asked = fx.err(
        "delete_entity",
        json!({"name": "Acme"}),
        ErrorCode::ElicitRequired,
    );
    assert_eq!(
        crate::support::dispatch::snapshot(&fx.vault_dir("main")),
        before
    );
    fx.approve_error(&asked);
    let deleted = fx.ok("delete_entity", json!({"name": "Acme"}));
    assert_eq!(deleted["path"], "Memory/Acme.md");
    assert!(
        deleted["trashed_to"]
            .as_str()
            .expect("trashed_to")
            .starts_with(".trash/"),
        "{deleted}"
    );
    assert_eq!(
        deleted["linked_from"],
        json!(["Daily/2026-11-27.md", "Memory/Jo.md", "Projects/plan.md"])
    );
    assert!(!fx.exists("main", "Memory/Acme.md"));
    fx.err("get_entity", json!({"name": "Acme"}), ErrorCode::NotFound);
}

#[test]
fn entities_are_searched_as_search_vault_ranks_the_memory_folder() {
    let fx = fixture();
    create(
        &fx,
        json!({"name": "Jo", "type": "person", "observations": ["Plays chess on Sundays", "Likes tea"]}),
    );
    create(
        &fx,
        json!({"name": "Chess Club", "type": "other", "observations": ["Meets in the library"]}),
    );
    create(
        &fx,
        json!({"name": "Ann", "type": "person", "observations": ["Runs marathons"]}),
    );
    fx.write(
        "main",
        "Notes/chess.md",
        "# Chess\n\nchess chess chess openings\n",
    );
    fx.ok("index_vault", json!({}));
    let found = fx.ok(
        "search_entities",
        json!({"query": "chess", "mode": "lexical"}),
    );
    // The order and scores are search_vault's over the memory folder.
    let vault = fx.ok(
        "search_vault",
        json!({"query": "chess", "mode": "lexical", "folder": "Memory"}),
    );
    let as_results = json!({"results": found["entities"]});
    assert_eq!(
        result_paths(&as_results),
        ["Memory/Chess Club.md", "Memory/Jo.md"],
        "{found}"
    );
    assert_eq!(result_paths(&as_results), result_paths(&vault));
    assert_eq!(found["entities"][0]["score"], vault["results"][0]["score"]);
    let jo = found["entities"]
        .as_array()
        .expect("entities")
        .iter()
        .find(|hit| hit["name"] == "Jo")
        .expect("Jo");
    assert_eq!(jo["type"], "person");
    assert_eq!(
        jo["observations"],
        json!([{"text": "Plays chess on Sundays", "date": "2026-01-01"}])
    );
    // A caller who may not read the memory folder finds nothing in it.
    let fenced = Fixture::new(json!({
        "throttle": {"enabled": false},
        "acl": {"readPaths": ["Notes/**"]}
    }));
    fenced.write(
        "main",
        "Memory/Jo.md",
        "---\ntype: person\n---\n# Jo\n\n- chess\n",
    );
    fenced.write("main", "Notes/chess.md", "# Chess\n");
    fenced.ok("index_vault", json!({}));
    let agent = caller("agent", &["read:memory"], None);
    let hidden = fenced
        .call(&agent, "search_entities", json!({"query": "chess"}))
        .result
        .expect("search");
    assert_eq!(hidden["entities"], json!([]), "{hidden}");
}

#[test]
fn a_retry_with_an_idempotency_key_replays_the_first_answer() {
    let fx = fixture();
    let args = json!({"name": "Jo", "type": "person", "idempotency_key": "create-jo-1"});
    let first = create(&fx, args.clone());
    assert_eq!(create(&fx, args), first);
    let observe = json!({"name": "Jo", "text": "Plays chess", "idempotency_key": "obs-1"});
    let added = fx.ok("add_observation", observe.clone());
    assert_eq!(added["changed"], true);
    // The retry gets the first answer (changed: true), and the fact is in the note once.
    assert_eq!(fx.ok("add_observation", observe), added);
    assert_eq!(note(&fx, "Memory/Jo.md").matches("Plays chess").count(), 1);
    // Without the key, the natural key still keeps the fact once.
    let again = fx.ok(
        "add_observation",
        json!({"name": "Jo", "text": "Plays chess"}),
    );
    assert_eq!(again["changed"], false);
}

//! `add_vault`: a person approves, the vault is written to the config file (every other byte
//! kept), served from the next call, indexed, and still there after a restart; every refusal is
//! typed and leaves the config file's bytes as they were.

use std::path::Path;

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

/// The fixture's config file as a person formats it: three-space indents, keys in their
/// order, a trailing newline.
const CONFIG: &str = r#"{
   "vaults": [
      {"id": "main", "path": "main"},
      {"id": "other", "path": "other"}
   ],
   "throttle": {"enabled": false},
   "embeddings": {"provider": "none"}
}
"#;

/// The fixture with [`CONFIG`] in force (written, then reloaded).
fn fixture() -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    std::fs::write(config_file(&fx), CONFIG).expect("config file");
    fx.ok("reload_vault", json!({}));
    fx
}

fn config_file(fx: &Fixture) -> std::path::PathBuf {
    fx.dir.path().join("config.json")
}

fn config_bytes(fx: &Fixture) -> Vec<u8> {
    std::fs::read(config_file(fx)).expect("config file")
}

fn real(path: &Path) -> String {
    dunce::canonicalize(path)
        .expect("real path")
        .to_string_lossy()
        .into_owned()
}

/// Calls add_vault, approves it as a person would, calls again: the result.
fn add_approved(fx: &Fixture, args: Value) -> Value {
    let gated = fx.err("add_vault", args.clone(), ErrorCode::ElicitRequired);
    fx.approve_error(&gated);
    fx.ok("add_vault", args)
}

#[test]
fn an_added_vault_is_written_served_indexed_and_kept_after_a_restart() {
    let fx = fixture();
    fx.write("third", "Plans.md", "# Plans\n\nthe harbour walk\n");
    fx.write("third", "sub/Two.md", "two\n");
    let folder = real(&fx.vault_dir("third"));

    let added = add_approved(&fx, json!({"vault_id": "third", "path": folder}));
    println!("{added:#}");
    assert_eq!(added["vault"], json!("third"));
    assert_eq!(added["root"], json!(folder));
    assert_eq!(added["indexed"], json!(true));
    assert_eq!(added["note_count"], json!(2));
    assert_eq!(added["reload"]["added"], json!(["third"]));
    assert_eq!(added["reload"]["removed"], json!([]));

    // Persisted: the person's formatting kept, one entry appended in the file's style.
    let text = String::from_utf8(config_bytes(&fx)).expect("UTF-8");
    let expected = CONFIG.replace(
        "      {\"id\": \"other\", \"path\": \"other\"}\n",
        &format!(
            "      {{\"id\": \"other\", \"path\": \"other\"}},\n      {{\n         \"id\": \"third\",\n         \"path\": {}\n      }}\n",
            serde_json::to_string(&folder).expect("JSON string")
        ),
    );
    assert_eq!(text, expected);

    // Hot-reloaded: the next call reaches the vault, and its search finds the indexed note.
    let read = fx.ok("read_note", json!({"vault": "third", "path": "Plans.md"}));
    assert!(
        read["content"]
            .as_str()
            .expect("content")
            .contains("harbour")
    );
    let found = fx.ok(
        "search_vault",
        json!({"vault": "third", "query": "harbour", "mode": "lexical"}),
    );
    assert!(found.to_string().contains("Plans.md"), "{found}");
    let listed = fx.ok("list_vaults", json!({}));
    assert!(listed.to_string().contains("\"third\""));

    // A restart on the same config file serves it.
    let restarted = fx.reopen();
    let listed = restarted
        .call(&Caller::stdio(), "list_vaults", json!({}))
        .result
        .expect("list_vaults");
    assert!(listed.to_string().contains("\"third\""), "{listed}");
}

#[test]
fn every_refusal_is_typed_and_leaves_the_config_file_as_it_was() {
    let fx = fixture();
    let before = config_bytes(&fx);
    let dir = fx.dir.path();
    std::fs::create_dir_all(dir.join("main/sub")).expect("folder");
    std::fs::create_dir_all(dir.join(".secret")).expect("folder");
    std::fs::write(dir.join("file.md"), "x").expect("file");
    std::fs::create_dir_all(dir.join("links")).expect("folder");
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("main/sub"), dir.join("links/into-main")).expect("link");
    let path = |rel: &str| dir.join(rel).to_string_lossy().into_owned();
    let mut refusals = vec![
        // an id already served
        (
            json!({"vault_id": "other", "path": path("links")}),
            ErrorCode::AlreadyExists,
        ),
        // not absolute, missing, not a directory
        (
            json!({"vault_id": "x", "path": "relative/folder"}),
            ErrorCode::InvalidInput,
        ),
        (
            json!({"vault_id": "x", "path": path("missing")}),
            ErrorCode::InvalidInput,
        ),
        (
            json!({"vault_id": "x", "path": path("file.md")}),
            ErrorCode::InvalidInput,
        ),
        // inside a served vault, holding served vaults (and the config file and the cache)
        (
            json!({"vault_id": "x", "path": path("main/sub")}),
            ErrorCode::InvalidInput,
        ),
        (
            json!({"vault_id": "x", "path": path("")}),
            ErrorCode::InvalidInput,
        ),
        // the cache folder, a hidden folder, the file system root, a system folder
        (
            json!({"vault_id": "x", "path": path(".obsidian-tc")}),
            ErrorCode::InvalidInput,
        ),
        (
            json!({"vault_id": "x", "path": path(".secret")}),
            ErrorCode::InvalidInput,
        ),
        (
            json!({"vault_id": "x", "path": "/"}),
            ErrorCode::InvalidInput,
        ),
        // a bad id
        (
            json!({"vault_id": "a b", "path": path("links")}),
            ErrorCode::InvalidInput,
        ),
    ];
    if cfg!(unix) {
        refusals.push((
            json!({"vault_id": "x", "path": "/etc"}),
            ErrorCode::InvalidInput,
        ));
        // a link whose real folder is inside a served vault
        refusals.push((
            json!({"vault_id": "x", "path": path("links/into-main")}),
            ErrorCode::InvalidInput,
        ));
    }
    for (args, code) in refusals {
        // Refused before a person is asked: no approval needed, none left pending.
        let error = fx.err("add_vault", args.clone(), code);
        println!("{args}: {error}");
        assert_eq!(config_bytes(&fx), before, "{args}");
    }
    assert!(fx.pending_elicits(None).is_empty());
    // Only the two vaults are served.
    let listed = fx.ok("list_vaults", json!({}));
    assert_eq!(listed["total_count"], json!(2));

    // Callers: bound to a vault, or without admin:vault.
    let args = json!({"vault_id": "x", "path": path("links")});
    let bound = caller("alice", &["admin:vault"], Some("main"));
    fx.err_as(&bound, "add_vault", args.clone(), ErrorCode::Forbidden);
    let reader = caller("bob", &["read:vault"], None);
    fx.err_as(&reader, "add_vault", args.clone(), ErrorCode::Forbidden);
    // The file changed on disk since the server loaded it: nothing written over it.
    let edited = CONFIG.replace("\"none\"", "\"none\" ");
    std::fs::write(config_file(&fx), &edited).expect("config file");
    let gated = fx.err("add_vault", args.clone(), ErrorCode::ElicitRequired);
    fx.approve_error(&gated);
    fx.err("add_vault", args, ErrorCode::ConcurrentModification);
    assert_eq!(config_bytes(&fx), edited.as_bytes());
}

#[test]
fn the_read_only_switch_refuses_it() {
    for read_only in [
        json!({"acl": {"readOnly": true}}),
        json!({"toolVisibility": {"profile": "readOnly"}}),
    ] {
        let fx = Fixture::new(read_only);
        let before = config_bytes(&fx);
        std::fs::create_dir_all(fx.vault_dir("third")).expect("folder");
        let args = json!({"vault_id": "third", "path": real(&fx.vault_dir("third"))});
        fx.err("add_vault", args, ErrorCode::ReadOnlyMode);
        assert_eq!(config_bytes(&fx), before);
    }
}

#[test]
fn a_server_without_a_config_file_says_what_to_do() {
    let vault = tempfile::tempdir().expect("vault");
    let other = tempfile::tempdir().expect("other");
    let cache = tempfile::tempdir().expect("cache home");
    let server = super::zero_config_server(vault.path(), cache.path());
    let args = json!({"vault_id": "x", "path": real(other.path())});
    let error = server
        .call(&Caller::stdio(), "add_vault", args)
        .result
        .expect_err("no config file");
    assert_eq!(error.code, ErrorCode::InvalidInput);
    assert!(error.message.contains("without a config file"), "{error}");
    assert!(error.recovery.contains("--config"), "{error}");
}

#[test]
fn it_always_needs_a_person_and_declares_its_output() {
    let fx = Fixture::new(json!({}));
    let registry = fx.server.runtime().registry();
    let tool = registry.get("add_vault").expect("registered");
    assert!(tool.needs_confirmation());
    assert!(tool.def.output_schema.is_some());
    assert_eq!(tool.def.scopes, ["admin:vault"]);
}

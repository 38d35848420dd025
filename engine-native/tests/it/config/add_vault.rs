//! The folders `add_vault` refuses, decided on the configuration in force and the home folder:
//! the home folder and what holds it, hidden folders in it (`.ssh`, `.aws`), while an ordinary
//! folder in the home folder may be a vault; and the text edit keeps the file's bytes.

use std::path::Path;

use obsidian_tc::config::add_vault::{refused_vault_folder, with_added_vault};
use obsidian_tc::config::{ConfigOrigin, LoadInput, LoadedConfig, load};

fn loaded(dir: &Path) -> LoadedConfig {
    std::fs::create_dir_all(dir.join("served")).expect("vault");
    let path = dir.join("config.json");
    let text = r#"{"vaults": [{"id": "main", "path": "served"}]}"#.to_owned();
    std::fs::write(&path, &text).expect("config");
    load(&LoadInput {
        origin: ConfigOrigin::File { path, text },
        env: Default::default(),
        overrides: Vec::new(),
    })
    .expect("config loads")
}

#[test]
fn the_home_folder_and_its_hidden_folders_are_refused_its_other_folders_are_not() {
    let dir = tempfile::Builder::new()
        .prefix("server")
        .tempdir()
        .expect("dir");
    let config = loaded(dir.path());
    let home = tempfile::Builder::new()
        .prefix("home")
        .tempdir()
        .expect("home");
    let home = dunce::canonicalize(home.path()).expect("real home");
    for sub in [".ssh", ".config/app/notes", "Documents/Vault"] {
        std::fs::create_dir_all(home.join(sub)).expect("folder");
    }
    let refused = |folder: &Path| refused_vault_folder(folder, &config, Some(&home));
    let holds = refused(&home).expect("the home folder is refused");
    assert!(holds.contains("holds the home folder"), "{holds}");
    assert!(refused(home.parent().expect("parent")).is_some());
    for hidden in [".ssh", ".config/app/notes"] {
        let why = refused(&home.join(hidden)).expect("hidden");
        assert!(why.contains("hidden folder"), "{hidden}: {why}");
    }
    assert_eq!(refused(&home.join("Documents/Vault")), None);
}

#[test]
fn the_edit_appends_one_entry_and_keeps_every_other_byte() {
    let text =
        "{\n  // not JSON, yet kept\n  \"vaults\": [],\n  \"acl\": {\"readOnly\": false}\n}\n";
    let edited = with_added_vault(text, "notes", "/srv/notes").expect("edited");
    assert!(
        edited.starts_with("{\n  // not JSON, yet kept\n  \"vaults\": ["),
        "{edited}"
    );
    assert!(
        edited.ends_with("],\n  \"acl\": {\"readOnly\": false}\n}\n"),
        "{edited}"
    );
    assert!(edited.contains("\"id\": \"notes\"") && edited.contains("\"path\": \"/srv/notes\""));
    let without_vaults = with_added_vault("{\"a\": 1}", "x", "/x").expect("edited");
    let value: serde_json::Value = serde_json::from_str(&without_vaults).expect("JSON");
    assert_eq!(value["vaults"][0]["id"], "x");
    assert!(with_added_vault("[1]", "x", "/x").is_err());
    assert!(with_added_vault("{\"vaults\": 3}", "x", "/x").is_err());
}

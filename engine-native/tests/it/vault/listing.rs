//! Listing the vault and cleaning up stale temp files, on real files in temp dirs.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;
use std::time::{Duration, SystemTime};

use obsidian_tc::vault::{EntryKind, Vault, VaultOptions};

fn open(dir: &Path) -> Vault {
    Vault::open(dir, VaultOptions::default()).expect("vault opens")
}

fn paths(vault: &Vault, folder: Option<&str>) -> Vec<String> {
    vault
        .list(folder)
        .unwrap()
        .into_iter()
        .map(|entry| entry.path)
        .collect()
}

#[test]
fn listing_skips_dot_folders_temp_files_and_escaping_symlinks() {
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("secret.md"), "secret").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for folder in [".obsidian", ".trash", ".git", ".obsidian-tc", "Notes/Sub"] {
        fs::create_dir_all(root.join(folder)).unwrap();
    }
    for file in [
        ".obsidian/app.json",
        ".trash/old.md",
        ".git/HEAD",
        ".obsidian-tc/cache.db",
    ] {
        fs::write(root.join(file), "hidden").unwrap();
    }
    fs::write(root.join("Notes/a.md"), "12345").unwrap();
    fs::write(root.join("Notes/Sub/Cafe\u{301}.md"), "x").unwrap();
    fs::write(root.join("Notes/.otc-tmp-0123456789abcdef"), "torn").unwrap();
    symlink(
        outside.path().join("secret.md"),
        root.join("Notes/escape.md"),
    )
    .unwrap();
    symlink(outside.path(), root.join("escape-dir")).unwrap();
    symlink(root.join(".obsidian/app.json"), root.join("config.md")).unwrap();
    symlink(root.join("Notes/a.md"), root.join("alias.md")).unwrap();
    let vault = open(root);

    assert_eq!(
        paths(&vault, None),
        vec![
            "Notes",
            "Notes/Sub",
            "Notes/Sub/Caf\u{e9}.md",
            "Notes/a.md",
            "alias.md"
        ]
    );
    let entries = vault.list(None).unwrap();
    let a = entries
        .iter()
        .find(|entry| entry.path == "Notes/a.md")
        .unwrap();
    assert_eq!((a.kind, a.size), (EntryKind::File, 5));
    assert!(a.modified_ms > 0);
    assert_eq!(entries[0].kind, EntryKind::Directory);
    assert_eq!(
        paths(&vault, Some("Notes/Sub")),
        vec!["Notes/Sub/Caf\u{e9}.md"]
    );
    assert_eq!(
        vault.list(Some(".obsidian")).unwrap_err().code(),
        "hard_deny"
    );
    assert_eq!(
        vault.list(Some("escape-dir")).unwrap_err().code(),
        "escapes_vault"
    );
}

#[test]
fn stale_temp_files_are_removed_and_fresh_ones_and_notes_kept() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    fs::create_dir_all(root.join("Notes")).unwrap();
    fs::create_dir_all(root.join(".obsidian")).unwrap();
    fs::write(root.join("Notes/a.md"), "note").unwrap();
    fs::write(root.join("Notes/.otc-tmp-00000000000000aa"), "torn").unwrap();
    fs::write(root.join(".otc-tmp-00000000000000bb"), "torn").unwrap();
    fs::write(root.join(".obsidian/.otc-tmp-00000000000000cc"), "torn").unwrap();
    fs::write(root.join("Notes/.otc-tmp-not-ours"), "kept").unwrap();
    let vault = open(root);
    let written_at = SystemTime::now();

    let too_soon = vault
        .remove_stale_temp_files(written_at, Duration::from_secs(3600))
        .unwrap();
    assert!(
        too_soon.is_empty(),
        "a temp file younger than min_age may be a write in progress"
    );

    let later = written_at + Duration::from_secs(7200);
    let removed = vault
        .remove_stale_temp_files(later, Duration::from_secs(3600))
        .unwrap();
    assert_eq!(
        removed,
        vec![
            ".obsidian/.otc-tmp-00000000000000cc",
            ".otc-tmp-00000000000000bb",
            "Notes/.otc-tmp-00000000000000aa"
        ]
    );
    assert!(root.join("Notes/a.md").exists());
    assert!(root.join("Notes/.otc-tmp-not-ours").exists());
    assert!(!root.join("Notes/.otc-tmp-00000000000000aa").exists());
}

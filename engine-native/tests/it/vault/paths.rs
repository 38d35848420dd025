//! Safe resolution: lexical refusals, symlink escapes, control folders, NFD names and the
//! hard-link guard, on real files in temp dirs.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use engine_core::acl::PathError;
use obsidian_tc::vault::{Vault, VaultError, VaultOptions, WriteOptions};

fn open(dir: &Path) -> Vault {
    Vault::open(dir, VaultOptions::default()).expect("vault opens")
}

fn overwrite() -> WriteOptions {
    WriteOptions {
        overwrite: true,
        expected_sha256: None,
    }
}

#[test]
fn lexically_invalid_paths_are_refused_with_engine_core_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let vault = open(dir.path());
    for (path, reason) in [
        ("../outside.md", PathError::DotDotSegment),
        ("a/../../outside.md", PathError::DotDotSegment),
        ("/etc/passwd", PathError::Absolute),
        ("a\0b.md", PathError::Nul),
        ("a\\b.md", PathError::Backslash),
    ] {
        match vault.read(path) {
            Err(VaultError::PathInvalid { reason: got, .. }) => assert_eq!(got, reason, "{path:?}"),
            other => panic!("{path:?}: {other:?}"),
        }
        let error = vault.write(path, b"x", &overwrite()).unwrap_err();
        assert_eq!(error.code(), "path_invalid", "{path:?}");
    }
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        0,
        "nothing written, not even a lock file"
    );
}

#[test]
fn a_symlinked_file_leading_outside_is_refused_for_read_and_write() {
    let outside = tempfile::tempdir().unwrap();
    let secret = outside.path().join("secret.md");
    fs::write(&secret, "secret").unwrap();
    let dir = tempfile::tempdir().unwrap();
    symlink(&secret, dir.path().join("link.md")).unwrap();
    let vault = open(dir.path());

    assert!(matches!(
        vault.read("link.md"),
        Err(VaultError::EscapesVault { .. })
    ));
    let error = vault
        .write("link.md", b"overwritten", &overwrite())
        .unwrap_err();
    assert_eq!(error.code(), "escapes_vault");
    assert_eq!(fs::read_to_string(&secret).unwrap(), "secret");
    assert!(matches!(
        vault.trash("link.md", None),
        Err(VaultError::EscapesVault { .. })
    ));
    assert!(secret.exists());
}

#[test]
fn a_symlinked_folder_leading_outside_is_refused() {
    let outside = tempfile::tempdir().unwrap();
    fs::write(outside.path().join("secret.md"), "secret").unwrap();
    let dir = tempfile::tempdir().unwrap();
    symlink(outside.path(), dir.path().join("escape")).unwrap();
    let vault = open(dir.path());

    assert!(matches!(
        vault.read("escape/secret.md"),
        Err(VaultError::EscapesVault { .. })
    ));
    let error = vault
        .write("escape/new.md", b"x", &overwrite())
        .unwrap_err();
    assert_eq!(error.code(), "escapes_vault");
    let error = vault
        .write("escape/deeper/new.md", b"x", &overwrite())
        .unwrap_err();
    assert_eq!(error.code(), "escapes_vault");
    assert_eq!(
        fs::read_dir(outside.path()).unwrap().count(),
        1,
        "nothing created outside"
    );
}

#[test]
fn a_dangling_symlink_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    symlink(
        "/nonexistent/obsidian-tc/target.md",
        dir.path().join("dangling.md"),
    )
    .unwrap();
    let vault = open(dir.path());
    assert_eq!(
        vault.read("dangling.md").unwrap_err().code(),
        "escapes_vault"
    );
    assert_eq!(
        vault
            .write("dangling.md", b"x", &overwrite())
            .unwrap_err()
            .code(),
        "escapes_vault"
    );
}

#[test]
fn symlinks_inside_the_vault_are_followed() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("real")).unwrap();
    fs::write(dir.path().join("real/note.md"), "hello").unwrap();
    symlink(dir.path().join("real"), dir.path().join("alias")).unwrap();
    let vault = open(dir.path());
    let note = vault.read("alias/note.md").unwrap();
    assert_eq!(note.bytes, b"hello");
    assert_eq!(note.path, "real/note.md", "reported by its canonical path");
}

#[test]
fn control_folders_are_refused_case_folded_and_through_symlinks() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join(".obsidian")).unwrap();
    fs::write(dir.path().join(".obsidian/app.json"), "{\"key\":1}").unwrap();
    fs::write(
        dir.path().join(".obsidian/bookmarks.json"),
        "{\"items\":[]}",
    )
    .unwrap();
    symlink(dir.path().join(".obsidian"), dir.path().join("config")).unwrap();
    symlink(
        dir.path().join(".obsidian/app.json"),
        dir.path().join("app.md"),
    )
    .unwrap();
    let vault = open(dir.path());

    for path in [
        ".OBSIDIAN/app.json",
        ".Obsidian/x",
        ".obsidian/app.json",
        ".git/config",
        ".trash/x.md",
    ] {
        assert_eq!(vault.read(path).unwrap_err().code(), "hard_deny", "{path}");
        assert_eq!(
            vault.write(path, b"x", &overwrite()).unwrap_err().code(),
            "hard_deny",
            "{path}"
        );
    }
    assert_eq!(
        vault.read("config/app.json").unwrap_err().code(),
        "hard_deny"
    );
    assert_eq!(vault.read("app.md").unwrap_err().code(), "hard_deny");
    assert_eq!(
        vault
            .write("config/new.json", b"x", &overwrite())
            .unwrap_err()
            .code(),
        "hard_deny"
    );
    assert!(!dir.path().join(".obsidian/new.json").exists());
    assert_eq!(
        fs::read_to_string(dir.path().join(".obsidian/app.json")).unwrap(),
        "{\"key\":1}"
    );

    let bookmarks = vault.read(".obsidian/bookmarks.json").unwrap();
    assert_eq!(bookmarks.bytes, b"{\"items\":[]}");
    vault
        .write(".obsidian/bookmarks.json", b"{\"items\":[1]}", &overwrite())
        .unwrap();
    assert_eq!(
        fs::read(dir.path().join(".obsidian/bookmarks.json")).unwrap(),
        b"{\"items\":[1]}"
    );
}

#[test]
fn an_nfd_named_file_is_found_by_its_nfc_path_and_the_reverse() {
    let dir = tempfile::tempdir().unwrap();
    let nfd_folder = "Cafe\u{301}";
    fs::create_dir(dir.path().join(nfd_folder)).unwrap();
    fs::write(
        dir.path().join(nfd_folder).join("Re\u{301}sume\u{301}.md"),
        "nfd",
    )
    .unwrap();
    fs::write(dir.path().join("Gr\u{fc}\u{df}e.md"), "nfc").unwrap();
    let vault = open(dir.path());

    let note = vault.read("Caf\u{e9}/R\u{e9}sum\u{e9}.md").unwrap();
    assert_eq!(note.bytes, b"nfd");
    assert_eq!(
        note.path, "Caf\u{e9}/R\u{e9}sum\u{e9}.md",
        "reported in NFC"
    );
    let note = vault.read("Gru\u{308}\u{df}e.md").unwrap();
    assert_eq!(note.bytes, b"nfc");

    // Writing through the NFC spelling replaces the NFD-named file; no twin appears.
    vault
        .write("Caf\u{e9}/R\u{e9}sum\u{e9}.md", b"edited", &overwrite())
        .unwrap();
    let names: Vec<_> = fs::read_dir(dir.path().join(nfd_folder))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(
        names,
        vec![std::ffi::OsString::from("Re\u{301}sume\u{301}.md")]
    );
    assert_eq!(
        fs::read(dir.path().join(nfd_folder).join("Re\u{301}sume\u{301}.md")).unwrap(),
        b"edited"
    );
    assert_eq!(
        fs::read_dir(dir.path())
            .unwrap()
            .filter(|e| e.as_ref().unwrap().file_name() != ".obsidian-tc")
            .count(),
        2,
        "no NFC twin folder"
    );
}

#[test]
fn a_hard_linked_file_is_refused_only_with_the_guard_on() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("note.md"), "shared").unwrap();
    fs::hard_link(dir.path().join("note.md"), dir.path().join("alias.md")).unwrap();

    let guarded = Vault::open(
        dir.path(),
        VaultOptions {
            hard_link_guard: true,
            calls_only: false,
        },
    )
    .unwrap();
    match guarded.read("alias.md") {
        Err(VaultError::HardLink { links, .. }) => assert_eq!(links, 2),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        guarded
            .write("note.md", b"x", &overwrite())
            .unwrap_err()
            .code(),
        "hard_link"
    );
    assert_eq!(
        guarded.trash("note.md", None).unwrap_err().code(),
        "hard_link"
    );
    assert_eq!(fs::read(dir.path().join("note.md")).unwrap(), b"shared");

    let unguarded = open(dir.path());
    assert_eq!(unguarded.read("alias.md").unwrap().bytes, b"shared");
}

#[test]
fn folders_and_missing_files_get_typed_errors() {
    let dir = tempfile::tempdir().unwrap();
    fs::create_dir(dir.path().join("folder")).unwrap();
    fs::write(dir.path().join("file.md"), "x").unwrap();
    let vault = open(dir.path());
    assert_eq!(vault.read("folder").unwrap_err().code(), "is_directory");
    assert_eq!(vault.read("missing.md").unwrap_err().code(), "not_found");
    assert_eq!(
        vault.read("file.md/child.md").unwrap_err().code(),
        "not_a_directory"
    );
    assert_eq!(
        vault
            .write("file.md/child.md", b"x", &overwrite())
            .unwrap_err()
            .code(),
        "not_a_directory"
    );
}

//! Atomic writes, preconditions, soft delete, move/copy and line-ending/BOM preservation,
//! on real files in temp dirs.

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use engine_core::hash::sha256_hex;
use obsidian_tc::vault::{
    LineEnding, TextFile, Vault, VaultError, VaultOptions, WriteOptions, is_temp_name,
};

fn open(dir: &Path) -> Vault {
    Vault::open(dir, VaultOptions::default()).expect("vault opens")
}

fn overwrite() -> WriteOptions {
    WriteOptions {
        overwrite: true,
        expected_sha256: None,
    }
}

fn expecting(sha: &str) -> WriteOptions {
    WriteOptions {
        overwrite: true,
        expected_sha256: Some(sha.to_owned()),
    }
}

/// Every name in `dir` and its subfolders, dot folders included, but not the lock files of
/// `.obsidian-tc/locks` (see `support::gates::is_lock_folder`).
fn all_names(dir: &Path) -> Vec<String> {
    let mut names = Vec::new();
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        if entry.file_name() == ".obsidian-tc" {
            continue;
        }
        names.push(entry.file_name().to_string_lossy().into_owned());
        if entry.file_type().unwrap().is_dir() {
            names.extend(all_names(&entry.path()));
        }
    }
    names
}

#[test]
fn atomic_write_overwrites_keeps_the_mode_and_leaves_no_temp_file() {
    let dir = tempfile::tempdir().unwrap();
    let note = dir.path().join("note.md");
    fs::write(&note, "old").unwrap();
    fs::set_permissions(&note, fs::Permissions::from_mode(0o640)).unwrap();
    let vault = open(dir.path());

    let outcome = vault
        .write("note.md", b"new content", &overwrite())
        .unwrap();
    assert_eq!(fs::read(&note).unwrap(), b"new content");
    assert_eq!(
        fs::metadata(&note).unwrap().permissions().mode() & 0o7777,
        0o640
    );
    assert_eq!(outcome.sha256, sha256_hex(b"new content"));
    assert!(!outcome.created);
    assert_eq!(all_names(dir.path()), vec!["note.md"]);
}

#[test]
fn a_write_without_overwrite_creates_parents_but_never_replaces() {
    let dir = tempfile::tempdir().unwrap();
    let vault = open(dir.path());
    let created = vault
        .write("a/b/c.md", b"first", &WriteOptions::default())
        .unwrap();
    assert!(created.created);
    assert_eq!(created.path, "a/b/c.md");
    assert_eq!(fs::read(dir.path().join("a/b/c.md")).unwrap(), b"first");

    let error = vault
        .write("a/b/c.md", b"second", &WriteOptions::default())
        .unwrap_err();
    assert!(matches!(error, VaultError::AlreadyExists { ref path } if path == "a/b/c.md"));
    assert_eq!(fs::read(dir.path().join("a/b/c.md")).unwrap(), b"first");
    assert_eq!(all_names(dir.path()), vec!["a", "b", "c.md"]);
}

#[test]
fn a_stale_expected_sha256_is_a_concurrent_modification_and_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let vault = open(dir.path());
    vault.write("note.md", b"version 1", &overwrite()).unwrap();
    let read = vault.read("note.md").unwrap();
    fs::write(dir.path().join("note.md"), "edited by someone else").unwrap();

    match vault.write("note.md", b"mine", &expecting(&read.sha256)) {
        Err(VaultError::ConcurrentModification {
            expected, actual, ..
        }) => {
            assert_eq!(expected, read.sha256);
            assert_eq!(actual, Some(sha256_hex(b"edited by someone else")));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        fs::read(dir.path().join("note.md")).unwrap(),
        b"edited by someone else"
    );
    assert_eq!(
        vault
            .trash("note.md", Some(&read.sha256))
            .unwrap_err()
            .code(),
        "concurrent_modification"
    );
    let error = vault
        .move_file("note.md", "moved.md", &expecting(&read.sha256))
        .unwrap_err();
    assert_eq!(error.code(), "concurrent_modification");
    let error = vault
        .copy_file("note.md", "copy.md", &expecting(&read.sha256))
        .unwrap_err();
    assert_eq!(error.code(), "concurrent_modification");
    assert_eq!(all_names(dir.path()), vec!["note.md"]);

    let current = sha256_hex(b"edited by someone else");
    vault
        .write("note.md", b"mine", &expecting(&current.to_uppercase()))
        .unwrap();
    assert_eq!(fs::read(dir.path().join("note.md")).unwrap(), b"mine");
    match vault.write("gone.md", b"x", &expecting(&current)) {
        Err(VaultError::ConcurrentModification { actual: None, .. }) => {}
        other => panic!("{other:?}"),
    }
    assert!(!dir.path().join("gone.md").exists());
}

#[test]
fn soft_delete_moves_into_trash_and_never_overwrites_an_earlier_entry() {
    let dir = tempfile::tempdir().unwrap();
    let vault = open(dir.path());
    let mut trashed = Vec::new();
    for version in ["one", "two", "three"] {
        vault
            .write("Projects/plan.md", version.as_bytes(), &overwrite())
            .unwrap();
        trashed.push(vault.trash("Projects/plan.md", None).unwrap());
        assert!(!dir.path().join("Projects/plan.md").exists());
    }
    assert_eq!(
        trashed,
        vec![
            ".trash/Projects/plan.md",
            ".trash/Projects/plan 1.md",
            ".trash/Projects/plan 2.md"
        ]
    );
    for (path, version) in trashed.iter().zip(["one", "two", "three"]) {
        assert_eq!(fs::read_to_string(dir.path().join(path)).unwrap(), version);
    }
    assert_eq!(
        vault.trash("Projects/plan.md", None).unwrap_err().code(),
        "not_found"
    );
}

#[test]
fn permanent_remove_deletes_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let vault = open(dir.path());
    let written = vault.write("note.md", b"bye", &overwrite()).unwrap();
    vault.remove("note.md", Some(&written.sha256)).unwrap();
    assert!(!dir.path().join("note.md").exists());
    assert!(!dir.path().join(".trash").exists());
}

#[test]
fn move_and_copy_refuse_to_overwrite_unless_asked() {
    let dir = tempfile::tempdir().unwrap();
    let vault = open(dir.path());
    vault.write("a.md", b"A", &overwrite()).unwrap();
    vault.write("b.md", b"B", &overwrite()).unwrap();
    fs::set_permissions(dir.path().join("a.md"), fs::Permissions::from_mode(0o600)).unwrap();

    assert_eq!(
        vault
            .move_file("a.md", "b.md", &WriteOptions::default())
            .unwrap_err()
            .code(),
        "already_exists"
    );
    assert_eq!(
        vault
            .copy_file("a.md", "b.md", &WriteOptions::default())
            .unwrap_err()
            .code(),
        "already_exists"
    );
    assert_eq!(fs::read(dir.path().join("b.md")).unwrap(), b"B");

    let copy = vault
        .copy_file("a.md", "sub/copy.md", &WriteOptions::default())
        .unwrap();
    assert!(copy.created);
    assert_eq!(fs::read(dir.path().join("sub/copy.md")).unwrap(), b"A");
    let mode = fs::metadata(dir.path().join("sub/copy.md"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o7777, 0o600, "a copy gets the source's mode");

    assert_eq!(
        vault
            .move_file("a.md", "deep/er/a.md", &WriteOptions::default())
            .unwrap(),
        "deep/er/a.md"
    );
    assert!(!dir.path().join("a.md").exists());
    assert_eq!(
        vault
            .move_file("deep/er/a.md", "b.md", &overwrite())
            .unwrap(),
        "b.md"
    );
    assert_eq!(fs::read(dir.path().join("b.md")).unwrap(), b"A");
    assert!(all_names(dir.path()).iter().all(|name| !is_temp_name(name)));
}

#[test]
fn crlf_and_bom_survive_read_edit_write() {
    let dir = tempfile::tempdir().unwrap();
    let vault = open(dir.path());
    let original = "\u{feff}---\r\ntitle: Plan\r\n---\r\n# Plan\r\n\r\n- one\r\n";
    fs::write(dir.path().join("plan.md"), original).unwrap();

    let read = vault.read("plan.md").unwrap();
    let mut text = TextFile::decode(&read.bytes, &read.path).unwrap();
    assert!(text.bom);
    assert_eq!(text.line_ending, LineEnding::Crlf);
    assert_eq!(text.text, "---\ntitle: Plan\n---\n# Plan\n\n- one\n");
    assert_eq!(
        text.encode(),
        original.as_bytes(),
        "unchanged text gives back the same bytes"
    );

    text.text.push_str("- two\n");
    vault
        .write("plan.md", &text.encode(), &expecting(&read.sha256))
        .unwrap();
    assert_eq!(
        fs::read_to_string(dir.path().join("plan.md")).unwrap(),
        "\u{feff}---\r\ntitle: Plan\r\n---\r\n# Plan\r\n\r\n- one\r\n- two\r\n"
    );
}

#[test]
fn text_decoding_keeps_mixed_and_plain_files_byte_identical() {
    for original in [
        "a\nb\r\nc",
        "plain\n",
        "no break",
        "",
        "a\r\r\nb\r\n",
        "\u{feff}x\n",
    ] {
        let text = TextFile::decode(original.as_bytes(), "x.md").unwrap();
        assert_eq!(text.encode(), original.as_bytes(), "{original:?}");
    }
    assert_eq!(
        TextFile::decode(b"a\nb\r\nc", "x.md").unwrap().line_ending,
        LineEnding::Mixed
    );
    assert_eq!(
        TextFile::decode(b"plain\n", "x.md").unwrap().line_ending,
        LineEnding::Lf
    );
    assert_eq!(
        TextFile::decode(&[0xff, 0xfe], "x.md").unwrap_err().code(),
        "not_text"
    );
}

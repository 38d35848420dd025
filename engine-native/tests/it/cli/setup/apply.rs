//! Writing an edited file: links are followed and kept, a file changed meanwhile is left
//! alone, text that is not UTF-8 is refused, every change gets its own backup.

use std::fs;
use std::os::unix::fs::symlink;
use std::path::Path;

use obsidian_tc::cli::setup::apply::apply;
use obsidian_tc::cli::setup::client::Client;
use obsidian_tc::cli::setup::edit;
use obsidian_tc::cli::setup::entry::{Change, ServerEntry};
use obsidian_tc::cli::setup::error::SetupError;
use obsidian_tc::cli::setup::malformed::{Malformed, Problem};

use crate::support::file_names;

fn entry(vault: &str) -> ServerEntry {
    ServerEntry::new(
        Client::Cursor,
        "obsidian-tc".to_owned(),
        "/bin/obsidian-tc".to_owned(),
        vault.to_owned(),
    )
}

fn cursor(file: &Path, vault: &str) -> Result<obsidian_tc::cli::setup::apply::Applied, SetupError> {
    apply(file, |text| edit(Client::Cursor, text, &entry(vault)))
}

#[test]
fn a_linked_file_is_edited_where_it_lives_and_the_link_stays() {
    let dir = tempfile::tempdir().expect("temp");
    let dotfiles = dir.path().join("dotfiles");
    fs::create_dir(&dotfiles).expect("dotfiles");
    let real = dotfiles.join("mcp.json");
    fs::write(&real, "{}\n").expect("real file");
    let link = dir.path().join("mcp.json");
    symlink("dotfiles/mcp.json", &link).expect("link");

    let applied = cursor(&link, "/v").expect("applied");
    assert_eq!(applied.file, fs::canonicalize(&real).expect("real path"));
    assert_eq!(applied.link.as_deref(), Some(link.as_path()));
    assert!(
        fs::symlink_metadata(&link)
            .expect("link")
            .file_type()
            .is_symlink()
    );
    assert!(
        fs::read_to_string(&real)
            .expect("real")
            .contains("obsidian-tc")
    );
    let backup = applied.backup.expect("a backup");
    assert_eq!(
        backup.parent(),
        Some(applied.file.parent().expect("folder"))
    );
    assert_eq!(fs::read(&backup).expect("backup"), b"{}\n");

    // A link to a file that does not exist yet: the file is created where the link points.
    let dangling = dir.path().join("new.json");
    symlink("dotfiles/new.json", &dangling).expect("link");
    let applied = cursor(&dangling, "/v").expect("applied");
    assert!(applied.created);
    assert!(
        fs::read_to_string(dotfiles.join("new.json"))
            .expect("created")
            .contains("/v")
    );
}

#[test]
fn a_file_changed_while_editing_is_left_as_the_client_wrote_it() {
    let dir = tempfile::tempdir().expect("temp");
    let file = dir.path().join("mcp.json");
    fs::write(&file, "{}").expect("file");
    let result = apply(&file, |text| {
        fs::write(&file, "{\"mcpServers\": {\"saved\": {}}}").expect("the client saves");
        edit(Client::Cursor, text, &entry("/v"))
    });
    assert!(
        matches!(result, Err(SetupError::ChangedMeanwhile(_))),
        "{result:?}"
    );
    assert_eq!(
        fs::read_to_string(&file).expect("file"),
        "{\"mcpServers\": {\"saved\": {}}}"
    );
    assert_eq!(file_names(dir.path()), ["mcp.json"]);
}

#[test]
fn bytes_that_are_not_utf8_are_refused_with_their_place() {
    let dir = tempfile::tempdir().expect("temp");
    let file = dir.path().join("mcp.json");
    let bytes = b"{\n  \"a\": \"\xff\"\n}";
    fs::write(&file, bytes).expect("file");
    let result = cursor(&file, "/v");
    assert!(
        matches!(
            result,
            Err(SetupError::Malformed {
                malformed: Malformed {
                    line: 2,
                    column: 9,
                    problem: Problem::NotUtf8
                },
                ..
            })
        ),
        "{result:?}"
    );
    assert_eq!(fs::read(&file).expect("file"), bytes);
    assert_eq!(file_names(dir.path()), ["mcp.json"]);
}

#[test]
fn every_change_keeps_its_own_backup() {
    let dir = tempfile::tempdir().expect("temp");
    let file = dir.path().join("mcp.json");
    fs::write(&file, "{}").expect("file");
    let first = cursor(&file, "/one").expect("first");
    let between = fs::read(&file).expect("file");
    let second = cursor(&file, "/two").expect("second");
    assert_eq!(second.change, Change::Updated(vec!["args"]));
    let (first, second) = (first.backup.expect("one"), second.backup.expect("two"));
    assert_ne!(first, second);
    assert_eq!(fs::read(first).expect("first backup"), b"{}");
    assert_eq!(fs::read(second).expect("second backup"), between);
    assert_eq!(file_names(dir.path()).len(), 3);
}

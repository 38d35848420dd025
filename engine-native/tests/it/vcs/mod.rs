//! `obsidian_tc::vcs` directly, without the tools: discovery from a folder of a larger
//! repository, the vault's own history, commit names, and the refusals.

use obsidian_tc::vcs::{
    At, VaultRepo, VcsError, commit_ready, diff_file, log, show, stage, status,
};

use crate::support::git::{commit_all, init, write};

/// A repository at the temp folder with the vault in `vault/`: the import, a commit outside
/// the vault only, and a commit of the vault.
fn larger_repository() -> (tempfile::TempDir, git2::Repository) {
    let top = tempfile::TempDir::new().expect("temp");
    let repo = init(top.path());
    write(top.path(), "vault/a.md", "alpha\n");
    write(top.path(), "other/x.md", "outside\n");
    commit_all(&repo, "import", 0);
    write(top.path(), "other/x.md", "outside, changed\n");
    commit_all(&repo, "outside only", 60);
    write(top.path(), "vault/a.md", "alpha\nbeta\n");
    commit_all(&repo, "vault change", 120);
    (top, repo)
}

#[test]
fn a_vault_folder_is_found_from_below_and_sees_only_itself() {
    let (top, _repo) = larger_repository();
    let vault = VaultRepo::open(&top.path().join("vault")).expect("open");
    assert_eq!(vault.branch().as_deref(), Some("main"));
    let history = log(&vault, None, 10).expect("log");
    let messages: Vec<&str> = history.entries.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages, ["vault change", "import"]);
    write(top.path(), "other/x.md", "outside again\n");
    write(top.path(), "vault/new.md", "new\n");
    let report = status(&vault, 100, &|_| true).expect("status");
    let paths: Vec<&str> = report.changed.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(paths, ["new.md"]);
    let shown = show(&vault, "a.md", At::Commit("HEAD~1")).expect("show");
    assert_eq!(shown.bytes, b"alpha\n");
    let diff = diff_file(&vault, "new.md", false).expect("diff");
    assert!(
        diff.text.starts_with("--- /dev/null\n+++ b/new.md\n"),
        "{}",
        diff.text
    );
}

#[test]
fn a_commit_is_refused_while_outside_files_are_staged() {
    let (top, repo) = larger_repository();
    let vault = VaultRepo::open(&top.path().join("vault")).expect("open");
    assert_eq!(commit_ready(&vault), Err(VcsError::NothingToCommit));
    write(top.path(), "vault/a.md", "gamma\n");
    assert_eq!(stage(&vault, &["a.md".to_owned()]), Ok(1));
    assert_eq!(commit_ready(&vault), Ok(1));
    write(top.path(), "other/x.md", "staged by someone else\n");
    crate::support::git::stage(&repo, "other/x.md");
    let refused = commit_ready(&vault).expect_err("refused");
    assert_eq!(refused, VcsError::StagedOutsideVault { count: 1 });
    assert!(!refused.to_string().contains("other/"), "{refused}");
}

#[test]
fn only_plain_commit_names_are_accepted() {
    let (top, _repo) = larger_repository();
    let vault = VaultRepo::open(&top.path().join("vault")).expect("open");
    for good in ["HEAD", "HEAD~1", "HEAD~2"] {
        assert!(show(&vault, "a.md", At::Commit(good)).is_ok(), "{good}");
    }
    for bad in [
        "HEAD~3",
        "HEAD^",
        "HEAD@{0}",
        ":/vault",
        "main",
        "abc",
        "HEAD~",
        "HEAD~99999999",
    ] {
        let error = show(&vault, "a.md", At::Commit(bad)).expect_err(bad);
        assert!(
            matches!(error, VcsError::UnknownCommit { .. }),
            "{bad}: {error}"
        );
    }
}

#[test]
fn no_repository_is_a_typed_error() {
    let top = tempfile::TempDir::new().expect("temp");
    if git2::Repository::discover(top.path()).is_ok() {
        return;
    }
    assert!(matches!(
        VaultRepo::open(top.path()),
        Err(VcsError::NotARepository)
    ));
}

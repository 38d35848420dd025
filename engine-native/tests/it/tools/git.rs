//! The git tools through the dispatcher: a vault that is a repository with history, a vault
//! that is a folder of a larger repository, approval of commits, the read-only switch, the
//! read whitelist, and hostile arguments.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};
use crate::support::git::{commit_all, init, stage, write};

/// A fixture whose vault `main` is a repository: two commits of `Notes/a.md` (one of them
/// also adding `Notes/b.md`), then `Notes/a.md` changed again and `Notes/new.md` untracked.
fn vault_repo(acl: Value) -> (Fixture, git2::Repository) {
    let fx = Fixture::new(json!({ "acl": acl, "throttle": {"enabled": false} }));
    let dir = fx.vault_dir("main");
    let repo = init(&dir);
    write(&dir, ".gitignore", ".obsidian-tc/\n");
    write(&dir, "Notes/a.md", "one\ntwo\n");
    write(&dir, "Secret/s.md", "hidden\n");
    commit_all(&repo, "first: add a", 0);
    write(&dir, "Notes/a.md", "one\ntwo\nthree\n");
    write(&dir, "Notes/b.md", "bee\n");
    commit_all(&repo, "second: grow a, add b", 60);
    write(&dir, "Notes/a.md", "one\nTWO\nthree\n");
    write(&dir, "Notes/new.md", "fresh\n");
    (fx, repo)
}

fn paths(list: &Value) -> Vec<(String, String)> {
    list.as_array()
        .expect("list")
        .iter()
        .map(|e| {
            (
                e["path"].as_str().expect("path").to_owned(),
                e["change"].as_str().expect("change").to_owned(),
            )
        })
        .collect()
}

fn pair(path: &str, change: &str) -> (String, String) {
    (path.to_owned(), change.to_owned())
}

#[test]
fn status_diff_log_and_show_in_a_vault_that_is_the_repository() {
    let (fx, _repo) = vault_repo(json!({}));
    let status = fx.ok("git_status", json!({}));
    assert_eq!(status["branch"], "main");
    assert_eq!(
        paths(&status["changed"]),
        [
            pair("Notes/a.md", "modified"),
            pair("Notes/new.md", "untracked")
        ]
    );
    assert_eq!(status["staged"], json!([]));
    assert_eq!(status["truncated"], false);

    let diff = fx.ok("git_diff", json!({"path": "Notes/a.md"}));
    let text = diff["diff"].as_str().expect("diff");
    assert!(
        text.starts_with("--- a/Notes/a.md\n+++ b/Notes/a.md\n@@"),
        "{text}"
    );
    assert!(text.contains("-two\n+TWO\n"), "{text}");
    assert_eq!(
        fx.ok("git_diff", json!({"path": "Notes/a.md", "staged": true}))["diff"],
        ""
    );
    let untracked = fx.ok("git_diff", json!({"path": "Notes/new.md"}));
    assert!(
        untracked["diff"]
            .as_str()
            .expect("diff")
            .contains("+fresh\n")
    );

    let log = fx.ok("git_log", json!({}));
    let entries = log["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 2);
    assert_eq!(entries[0]["message"], "second: grow a, add b");
    assert_eq!(entries[0]["author"], "Tester");
    assert_eq!(entries[0]["date"], "2026-01-01T00:01:00+00:00");
    assert_eq!(entries[0]["hash"].as_str().expect("hash").len(), 40);
    assert!(entries[0].get("version").is_none());
    let one = fx.ok("git_log", json!({"limit": 1}));
    assert_eq!(one["entries"].as_array().expect("entries").len(), 1);
    assert_eq!(one["truncated"], true);

    let b = fx.ok("git_log", json!({"path": "Notes/b.md"}));
    assert_eq!(b["entries"].as_array().expect("entries").len(), 1);
    let a = fx.ok("git_log", json!({"path": "Notes/a.md"}));
    let first_a = a["entries"][1]["version"]
        .as_str()
        .expect("version")
        .to_owned();

    let head = fx.ok("git_show", json!({"path": "Notes/a.md"}));
    assert_eq!(head["text"], "one\ntwo\nthree\n");
    assert_eq!(head["commit"], entries[0]["hash"]);
    let back = fx.ok(
        "git_show",
        json!({"path": "Notes/a.md", "commit": "HEAD~1"}),
    );
    assert_eq!(back["text"], "one\ntwo\n");
    let short = &entries[1]["hash"].as_str().expect("hash")[..7];
    let by_hash = fx.ok("git_show", json!({"path": "Notes/a.md", "commit": short}));
    assert_eq!(by_hash["text"], "one\ntwo\n");
    let by_version = fx.ok(
        "git_show",
        json!({"path": "Notes/a.md", "version": first_a}),
    );
    assert_eq!(by_version["text"], "one\ntwo\n");
    // A version of one file does not open another.
    fx.err(
        "git_show",
        json!({"path": "Notes/b.md", "version": first_a}),
        ErrorCode::NotFound,
    );
    fx.err(
        "git_show",
        json!({"path": "Notes/new.md"}),
        ErrorCode::NotFound,
    );
}

#[test]
fn stage_then_commit_after_a_persons_approval() {
    let (fx, repo) = vault_repo(json!({}));
    let nothing = fx.err(
        "git_commit",
        json!({"message": "empty"}),
        ErrorCode::GitError,
    );
    assert_eq!(nothing.details["reason"], "nothing_to_commit");
    assert!(fx.pending_elicits(None).is_empty(), "refused before asking");

    let staged = fx.ok(
        "git_stage",
        json!({"paths": ["Notes/a.md", "Notes/new.md", "Notes/a.md"]}),
    );
    assert_eq!(staged["staged"], 2);
    let status = fx.ok("git_status", json!({}));
    assert_eq!(
        paths(&status["staged"]),
        [
            pair("Notes/a.md", "modified"),
            pair("Notes/new.md", "added")
        ]
    );
    assert_eq!(status["changed"], json!([]));
    let diff = fx.ok("git_diff", json!({"path": "Notes/a.md", "staged": true}));
    assert!(diff["diff"].as_str().expect("diff").contains("+TWO\n"));

    let args = json!({"message": "third: from the agent"});
    let asked = fx.err("git_commit", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(
        repo.head()
            .expect("head")
            .peel_to_commit()
            .expect("c")
            .message()
            .ok(),
        Some("second: grow a, add b")
    );
    fx.approve_error(&asked);
    let made = fx.ok("git_commit", args.clone());
    assert_eq!(made["files"], 2);
    let head = repo.head().expect("head").peel_to_commit().expect("commit");
    assert_eq!(made["committed"], head.id().to_string());
    assert_eq!(head.message().ok(), Some("third: from the agent\n"));
    assert_eq!(
        fx.ok("git_log", json!({"limit": 1}))["entries"][0]["message"],
        "third: from the agent"
    );
    // The approval served once: the same call asks again (and has nothing to commit).
    let again = fx.err("git_commit", args, ErrorCode::GitError);
    assert_eq!(again.details["reason"], "nothing_to_commit");

    // A deleted file stages its removal.
    std::fs::remove_file(fx.vault_dir("main").join("Notes/b.md")).expect("remove");
    fx.ok("git_stage", json!({"paths": ["Notes/b.md"]}));
    let status = fx.ok("git_status", json!({}));
    assert_eq!(paths(&status["staged"]), [pair("Notes/b.md", "deleted")]);
}

#[test]
fn a_declined_or_missing_approval_commits_nothing() {
    let (fx, repo) = vault_repo(json!({}));
    fx.ok("git_stage", json!({"paths": ["Notes/a.md"]}));
    let before = repo.head().expect("head").target();
    fx.err(
        "git_commit",
        json!({"message": "unapproved"}),
        ErrorCode::ElicitRequired,
    );
    fx.err(
        "git_commit",
        json!({"message": "unapproved", "elicit_token": "forged"}),
        ErrorCode::ElicitInvalid,
    );
    assert_eq!(repo.head().expect("head").target(), before);
}

#[test]
fn stage_refuses_folders_unknown_and_ignored_paths_and_stages_nothing() {
    let (fx, repo) = vault_repo(json!({}));
    write(
        &fx.vault_dir("main"),
        ".gitignore",
        ".obsidian-tc/\n*.tmp\n",
    );
    write(&fx.vault_dir("main"), "Notes/x.tmp", "scratch\n");
    let cases = [
        (
            json!(["Notes/a.md", "Notes"]),
            ErrorCode::InvalidInput,
            "not_a_file",
        ),
        (
            json!(["Notes/a.md", "Notes/none.md"]),
            ErrorCode::NotFound,
            "path_not_found",
        ),
        (
            json!(["Notes/a.md", "Notes/x.tmp"]),
            ErrorCode::InvalidInput,
            "ignored",
        ),
    ];
    for (list, code, reason) in cases {
        let error = fx.err("git_stage", json!({"paths": list}), code);
        assert_eq!(error.details["reason"], reason);
        assert!(
            repo.index()
                .expect("index")
                .get_path(std::path::Path::new("Notes/new.md"), 0)
                .is_none()
        );
        assert_eq!(
            fx.ok("git_status", json!({}))["staged"],
            json!([]),
            "{reason}"
        );
    }
}

#[test]
fn a_vault_folder_of_a_larger_repository_sees_only_itself() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    let top = fx.dir.path();
    let repo = init(top);
    write(top, ".gitignore", "*.db*\n.obsidian-tc/\nconfig.json\n");
    write(top, "outside/plan.txt", "outside secret\n");
    write(top, "main/Notes/a.md", "alpha\n");
    commit_all(&repo, "import", 0);
    write(top, "outside/plan.txt", "outside secret, changed\n");
    commit_all(&repo, "outside only: plan.txt", 60);
    write(top, "main/Notes/a.md", "alpha\nbeta\n");
    commit_all(&repo, "vault: beta", 120);
    write(top, "outside/plan.txt", "changed again\n");
    write(top, "outside/new.txt", "new outside\n");
    write(top, "main/Notes/a.md", "alpha\nbeta\ngamma\n");

    let status = fx.ok("git_status", json!({}));
    assert_eq!(paths(&status["changed"]), [pair("Notes/a.md", "modified")]);
    let log = fx.ok("git_log", json!({}));
    let messages: Vec<&str> = log["entries"]
        .as_array()
        .expect("entries")
        .iter()
        .map(|e| e["message"].as_str().expect("message"))
        .collect();
    assert_eq!(messages, ["vault: beta", "import"]);
    let diff = fx.ok("git_diff", json!({"path": "Notes/a.md"}));
    assert!(
        diff["diff"]
            .as_str()
            .expect("diff")
            .starts_with("--- a/Notes/a.md\n+++ b/Notes/a.md\n")
    );
    assert_eq!(
        fx.ok(
            "git_show",
            json!({"path": "Notes/a.md", "commit": "HEAD~1"})
        )["text"],
        "alpha\n"
    );

    // Someone else staged a file outside the vault: the commit is refused, naming no path.
    stage(&repo, "outside/new.txt");
    fx.ok("git_stage", json!({"paths": ["Notes/a.md"]}));
    let refused = fx.err(
        "git_commit",
        json!({"message": "vault: gamma"}),
        ErrorCode::GitError,
    );
    assert_eq!(refused.details["reason"], "staged_outside_vault");
    assert_eq!(refused.details["staged_outside"], 1);
    assert!(!refused.message.contains("outside/"), "{}", refused.message);
    assert!(fx.pending_elicits(None).is_empty(), "refused before asking");
    // Once they unstage it, the vault's commit goes through.
    let mut index = repo.index().expect("index");
    index.read(true).expect("the index as the tool left it");
    index
        .remove_path(std::path::Path::new("outside/new.txt"))
        .expect("unstage");
    index.write().expect("write");
    let args = json!({"message": "vault: gamma"});
    let asked = fx.err("git_commit", args.clone(), ErrorCode::ElicitRequired);
    fx.approve_error(&asked);
    assert_eq!(fx.ok("git_commit", args)["files"], 1);
    let head = repo.head().expect("head").peel_to_commit().expect("commit");
    let tree = head.tree().expect("tree");
    assert!(
        tree.get_path(std::path::Path::new("outside/new.txt"))
            .is_err()
    );
    assert_eq!(
        repo.status_file(std::path::Path::new("outside/plan.txt"))
            .expect("status"),
        git2::Status::WT_MODIFIED,
        "the outside change is left as it was"
    );
}

#[test]
fn the_read_only_switch_refuses_stage_and_commit_but_not_reading() {
    let (fx, _repo) = vault_repo(json!({"readOnly": true}));
    fx.ok("git_status", json!({}));
    fx.ok("git_log", json!({}));
    fx.err(
        "git_stage",
        json!({"paths": ["Notes/a.md"]}),
        ErrorCode::ReadOnlyMode,
    );
    fx.err(
        "git_commit",
        json!({"message": "nope"}),
        ErrorCode::ReadOnlyMode,
    );
}

#[test]
fn the_git_scopes_gate_each_tool() {
    let (fx, _repo) = vault_repo(json!({}));
    let reader = caller("reader", &["read:git"], None);
    fx.err_as(
        &reader,
        "git_stage",
        json!({"paths": ["Notes/a.md"]}),
        ErrorCode::Forbidden,
    );
    fx.err_as(
        &reader,
        "git_commit",
        json!({"message": "x y z"}),
        ErrorCode::Forbidden,
    );
    let notes_only = caller("notes", &["read:notes", "write:notes"], None);
    fx.err_as(&notes_only, "git_status", json!({}), ErrorCode::Forbidden);
    assert!(fx.call(&reader, "git_status", json!({})).result.is_ok());
}

#[test]
fn under_a_read_whitelist_nothing_hidden_is_shown() {
    let acl = json!({"readPaths": ["Notes/**"], "writePaths": ["Notes/**"]});
    let (fx, _repo) = vault_repo(acl);
    write(&fx.vault_dir("main"), "Secret/s.md", "hidden, changed\n");
    write(&fx.vault_dir("main"), "Secret/untracked.md", "hidden too\n");
    let status = fx.ok("git_status", json!({}));
    let shown = serde_json::to_string(&status).expect("json");
    assert!(!shown.contains("Secret"), "{shown}");
    assert_eq!(
        paths(&status["changed"]),
        [
            pair("Notes/a.md", "modified"),
            pair("Notes/new.md", "untracked")
        ]
    );
    let whole = fx.err("git_log", json!({}), ErrorCode::AclDenied);
    assert!(whole.message.contains("give path"), "{}", whole.message);
    let history = fx.ok("git_log", json!({"path": "Notes/a.md"}));
    let entries = history["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 2);
    assert!(
        entries
            .iter()
            .all(|e| e.get("hash").is_none() && e["version"].is_string())
    );
    fx.err(
        "git_log",
        json!({"path": "Secret/s.md"}),
        ErrorCode::AclDenied,
    );
    fx.err(
        "git_diff",
        json!({"path": "Secret/s.md"}),
        ErrorCode::AclDenied,
    );
    fx.err(
        "git_show",
        json!({"path": "Secret/s.md"}),
        ErrorCode::AclDenied,
    );
    fx.err(
        "git_show",
        json!({"path": "Notes/a.md", "commit": "HEAD~1"}),
        ErrorCode::AclDenied,
    );
    let head = fx.ok("git_show", json!({"path": "Notes/a.md", "commit": "HEAD"}));
    assert!(head.get("commit").is_none());
    let version = entries[1]["version"].clone();
    assert_eq!(
        fx.ok(
            "git_show",
            json!({"path": "Notes/a.md", "version": version})
        )["text"],
        "one\ntwo\n"
    );
    fx.err(
        "git_stage",
        json!({"paths": ["Notes/a.md", "Secret/s.md"]}),
        ErrorCode::AclDenied,
    );
    assert_eq!(fx.ok("git_status", json!({}))["staged"], json!([]));
}

#[test]
fn a_rule_scope_the_caller_lacks_restricts_the_log_too() {
    let acl = json!({"rules": [{"glob": "Secret/**", "scopes": ["read:secret"]}]});
    let (fx, _repo) = vault_repo(acl);
    let agent = caller("agent", &["read:git"], None);
    fx.err_as(&agent, "git_log", json!({}), ErrorCode::AclDenied);
    let trusted = caller("trusted", &["read:git", "read:secret"], None);
    assert!(fx.call(&trusted, "git_log", json!({})).result.is_ok());
}

#[test]
fn hostile_arguments_are_refused_and_change_nothing() {
    let (fx, repo) = vault_repo(json!({}));
    for path in ["../outside.md", "/etc/passwd", "Notes/../../x.md"] {
        fx.err("git_diff", json!({"path": path}), ErrorCode::PathInvalid);
        fx.err(
            "git_stage",
            json!({"paths": [path]}),
            ErrorCode::PathInvalid,
        );
    }
    for path in [
        ".git/config",
        ".GIT/HEAD",
        "Notes/.git/config",
        ".obsidian/app.json",
    ] {
        fx.err("git_diff", json!({"path": path}), ErrorCode::AclDenied);
        fx.err("git_show", json!({"path": path}), ErrorCode::AclDenied);
        fx.err("git_log", json!({"path": path}), ErrorCode::AclDenied);
        fx.err("git_stage", json!({"paths": [path]}), ErrorCode::AclDenied);
    }
    for commit in [
        ":/second",
        "HEAD@{1}",
        "main",
        "HEAD~99999",
        "HEAD~-1",
        "--all",
        "zzzz",
    ] {
        let error = fx.err(
            "git_show",
            json!({"path": "Notes/a.md", "commit": commit}),
            ErrorCode::NotFound,
        );
        assert_eq!(error.details["reason"], "unknown_commit", "{commit}");
    }
    fx.err(
        "git_show",
        json!({"path": "Notes/a.md", "version": "x"}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "git_show",
        json!({"path": "Notes/a.md", "commit": "HEAD", "version": "0".repeat(40)}),
        ErrorCode::InvalidInput,
    );
    fx.err(
        "git_log",
        json!({"limit": 1_000_000}),
        ErrorCode::ValidationError,
    );
    fx.err("git_log", json!({"limit": 0}), ErrorCode::ValidationError);
    fx.err(
        "git_status",
        json!({"limit": 5000}),
        ErrorCode::ValidationError,
    );
    let too_many: Vec<String> = (0..201).map(|i| format!("n{i}.md")).collect();
    fx.err(
        "git_stage",
        json!({"paths": too_many}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "git_commit",
        json!({"message": "x"}),
        ErrorCode::ValidationError,
    );
    fx.err(
        "git_commit",
        json!({"message": "   \n  "}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(repo.index().expect("index").len(), 4);
}

#[test]
fn a_symlinked_folder_is_not_followed() {
    let (fx, _repo) = vault_repo(json!({}));
    let outside = tempfile::TempDir::new().expect("temp");
    write(outside.path(), "x.md", "outside the vault\n");
    #[cfg(unix)]
    {
        std::os::unix::fs::symlink(outside.path(), fx.vault_dir("main").join("Link"))
            .expect("symlink");
        let error = fx.err(
            "git_diff",
            json!({"path": "Link/x.md"}),
            ErrorCode::AclDenied,
        );
        assert!(
            !serde_json::to_string(&error)
                .expect("json")
                .contains("outside the vault")
        );
        fx.err(
            "git_stage",
            json!({"paths": ["Link/x.md"]}),
            ErrorCode::AclDenied,
        );
    }
}

#[test]
fn limits_bound_status_and_diff() {
    let (fx, _repo) = vault_repo(json!({}));
    for i in 0..5 {
        write(&fx.vault_dir("main"), &format!("Many/{i}.md"), "x\n");
    }
    let status = fx.ok("git_status", json!({"limit": 3}));
    assert_eq!(status["changed"].as_array().expect("changed").len(), 3);
    assert_eq!(status["truncated"], true);
    let big: String = (0..40_000).map(|i| format!("line {i}\n")).collect();
    write(&fx.vault_dir("main"), "Notes/big.md", &big);
    let diff = fx.ok("git_diff", json!({"path": "Notes/big.md"}));
    assert_eq!(diff["truncated"], true);
    let text = diff["diff"].as_str().expect("diff");
    assert!(text.len() <= obsidian_tc::vcs::MAX_DIFF_BYTES && text.ends_with('\n'));
}

#[test]
fn a_vault_outside_any_repository_is_a_typed_error() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    // The temp folder may itself sit in a repository on a developer's machine; the fixture's
    // own `other` vault is checked only when none holds it.
    if git2::Repository::discover(fx.vault_dir("other")).is_ok() {
        return;
    }
    let error = fx.err("git_status", json!({"vault": "other"}), ErrorCode::GitError);
    assert_eq!(error.details["reason"], "not_a_repository");
    fx.err(
        "git_commit",
        json!({"vault": "other", "message": "abc"}),
        ErrorCode::GitError,
    );
}

#[test]
fn an_empty_repository_has_an_empty_log_and_a_first_commit() {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    let dir = fx.vault_dir("main");
    let repo = init(&dir);
    write(&dir, "first.md", "hello\n");
    assert_eq!(fx.ok("git_log", json!({}))["entries"], json!([]));
    assert_eq!(
        paths(&fx.ok("git_status", json!({}))["changed"]).first(),
        Some(&pair("first.md", "untracked"))
    );
    fx.ok("git_stage", json!({"paths": ["first.md"]}));
    let args = json!({"message": "the first"});
    let asked = fx.err("git_commit", args.clone(), ErrorCode::ElicitRequired);
    fx.approve_error(&asked);
    fx.ok("git_commit", args);
    assert_eq!(
        repo.head()
            .expect("head")
            .peel_to_commit()
            .expect("c")
            .parent_count(),
        0
    );
}

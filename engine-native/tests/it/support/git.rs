//! Git repositories for tests, made with the git library (the `git` CLI is not needed):
//! init with branch `main`, stage everything, commit at a fixed time.
#![allow(dead_code)]

use std::path::Path;

use git2::{IndexAddOption, Oid, Repository, RepositoryInitOptions, Signature, Time};

/// 2026-01-01T00:00:00Z in seconds: the first test commit's time.
const START_S: i64 = 1_767_225_600;

/// A new repository at `dir` on branch `main`.
pub fn init(dir: &Path) -> Repository {
    let mut options = RepositoryInitOptions::new();
    options.initial_head("main");
    Repository::init_opts(dir, &options).expect("git init")
}

/// Stages every change of the working tree (new, changed and deleted files).
pub fn stage_all(repo: &Repository) {
    let mut index = repo.index().expect("index");
    index
        .add_all(["*"], IndexAddOption::DEFAULT, None)
        .expect("add all");
    index.update_all(["*"], None).expect("update all");
    index.write().expect("write index");
}

/// Stages `rel` (a repository path of an existing file).
pub fn stage(repo: &Repository, rel: &str) {
    let mut index = repo.index().expect("index");
    index.read(true).expect("read the index");
    index.add_path(Path::new(rel)).expect("add path");
    index.write().expect("write index");
}

/// Commits the index on HEAD as "Tester", `seconds` after the first test commit.
pub fn commit_index(repo: &Repository, message: &str, seconds: i64) -> Oid {
    let signature = Signature::new(
        "Tester",
        "tester@example.org",
        &Time::new(START_S + seconds, 0),
    )
    .expect("signature");
    let tree = repo
        .find_tree(repo.index().expect("index").write_tree().expect("tree"))
        .expect("find tree");
    let parent = repo.head().ok().and_then(|head| head.peel_to_commit().ok());
    let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
    repo.commit(
        Some("HEAD"),
        &signature,
        &signature,
        message,
        &tree,
        &parents,
    )
    .expect("commit")
}

/// Stages everything and commits it (see [`commit_index`]).
pub fn commit_all(repo: &Repository, message: &str, seconds: i64) -> Oid {
    stage_all(repo);
    commit_index(repo, message, seconds)
}

/// Writes `text` at `rel` under `dir`, making its folders.
pub fn write(dir: &Path, rel: &str, text: &str) {
    let path = dir.join(rel);
    std::fs::create_dir_all(path.parent().expect("parent")).expect("folders");
    std::fs::write(path, text).expect("write");
}

//! The Hugging Face hub cache, laid out as `huggingface_hub` lays it out so that a model
//! fetched by one tool is found by the others: under the cache root,
//! `models--ORG--NAME/blobs/<etag>` holds each file's content once,
//! `snapshots/<commit>/<path>` links to the blob (a relative symlink), and
//! `refs/<branch>` names the commit a branch was at. The root is `$HF_HUB_CACHE`, else
//! `$HF_HOME/hub`, else `$XDG_CACHE_HOME/huggingface/hub`, else `~/.cache/huggingface/hub`.

use std::fs::File;
use std::io::{self, Read};
use std::path::{Component, MAIN_SEPARATOR, Path, PathBuf};

use engine_core::hash::to_hex;
use sha2::{Digest, Sha256};

use crate::embed::hub::spec::{HubFile, ModelSpec, is_commit, is_weights};

/// Reads environment variables (a closure over the process environment, or a test's map).
pub type Env<'a> = &'a dyn Fn(&str) -> Option<String>;

/// The variable that names the user's home folder, `~` (`%USERPROFILE%` on Windows, as
/// Python's `expanduser` reads it for `huggingface_hub`).
pub const HOME_VAR: &str = if cfg!(windows) { "USERPROFILE" } else { "HOME" };

/// The cache roots to look in, most specific first: `$HF_HUB_CACHE`, `$HF_HOME/hub`,
/// `$XDG_CACHE_HOME/huggingface/hub`, `~/.cache/huggingface/hub` (each one that is set; `~`
/// is [`HOME_VAR`], also at the start of a variable's value). Downloads go to the first.
pub fn hub_roots(env: Env<'_>) -> Vec<PathBuf> {
    let set = |name: &str| path_var(name, env);
    let mut out = Vec::new();
    out.extend(set("HF_HUB_CACHE"));
    out.extend(set("HF_HOME").map(|home| home.join("hub")));
    out.extend(set("XDG_CACHE_HOME").map(|cache| cache.join("huggingface").join("hub")));
    out.extend(set(HOME_VAR).map(|home| home.join(".cache").join("huggingface").join("hub")));
    out.dedup();
    out
}

/// The folder `huggingface_hub` keeps its state in (the token, the default cache):
/// `$HF_HOME`, else `$XDG_CACHE_HOME/huggingface`, else `~/.cache/huggingface`.
pub fn hf_home(env: Env<'_>) -> Option<PathBuf> {
    let set = |name: &str| path_var(name, env);
    set("HF_HOME")
        .or_else(|| set("XDG_CACHE_HOME").map(|cache| cache.join("huggingface")))
        .or_else(|| set(HOME_VAR).map(|home| home.join(".cache").join("huggingface")))
}

/// The path variable `name`, when set and not empty, a leading `~` expanded.
pub fn path_var(name: &str, env: Env<'_>) -> Option<PathBuf> {
    env(name)
        .filter(|v| !v.is_empty())
        .map(|value| expand_home(&value, env))
}

/// `value` with a leading `~` (alone, or before a separator) read as the home folder, as
/// `huggingface_hub` expands its variables; unchanged when the home folder is not set.
fn expand_home(value: &str, env: Env<'_>) -> PathBuf {
    let rest = value.strip_prefix('~').filter(|rest| {
        rest.is_empty() || rest.starts_with('/') || rest.starts_with(MAIN_SEPARATOR)
    });
    match (rest, env(HOME_VAR).filter(|home| !home.is_empty())) {
        (Some(""), Some(home)) => PathBuf::from(home),
        (Some(rest), Some(home)) => PathBuf::from(home).join(&rest[1..]),
        _ => PathBuf::from(value),
    }
}

/// Why [`hub_roots`] found no root, for a message.
pub fn no_root_reason() -> String {
    format!("neither HF_HUB_CACHE, HF_HOME, XDG_CACHE_HOME nor {HOME_VAR} is set")
}

/// One repository's folder in a cache root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RepoCache {
    /// `<root>/models--ORG--NAME`.
    pub dir: PathBuf,
}

impl RepoCache {
    /// The folder of model repository `repo` (`ORG/NAME`) under `root`.
    pub fn new(root: &Path, repo: &str) -> RepoCache {
        RepoCache {
            dir: root.join(format!("models--{}", repo.replace('/', "--"))),
        }
    }

    /// The content file named `name` (an etag).
    pub fn blob(&self, name: &str) -> PathBuf {
        self.dir.join("blobs").join(name)
    }

    /// The snapshot folder of `commit`.
    pub fn snapshot(&self, commit: &str) -> PathBuf {
        self.dir.join("snapshots").join(commit)
    }

    /// The commit `revision` stands for here: itself when it is a commit hash, else what
    /// `refs/<revision>` says.
    pub fn commit_of(&self, revision: &str) -> Option<String> {
        if is_commit(revision) {
            return Some(revision.to_owned());
        }
        let text = std::fs::read_to_string(self.dir.join("refs").join(revision)).ok()?;
        Some(text.trim().to_owned()).filter(|commit| is_commit(commit))
    }

    /// Records that branch or tag `revision` is at `commit` (`refs/<revision>`), atomically.
    pub fn write_ref(&self, revision: &str, commit: &str) -> io::Result<()> {
        let refs = self.dir.join("refs");
        std::fs::create_dir_all(&refs)?;
        let temp = refs.join(format!(".{revision}.tmp"));
        std::fs::write(&temp, commit)?;
        std::fs::rename(&temp, refs.join(revision))
    }

    /// Makes `snapshots/<commit>/<path>` point at blob `name`, replacing what was there: a
    /// relative symlink, as `huggingface_hub` makes (a copy on Windows without the right to
    /// make one), created beside and renamed into place.
    pub fn link(&self, commit: &str, path: &str, name: &str) -> io::Result<PathBuf> {
        let target = self.snapshot(commit).join(path);
        let parent = target
            .parent()
            .ok_or_else(|| io::Error::other(format!("{path} has no folder")))?;
        std::fs::create_dir_all(parent)?;
        // From snapshots/<commit>/<path's folders> back up to the repository folder.
        let depth = 2 + path.matches('/').count();
        let mut relative = PathBuf::new();
        for _ in 0..depth {
            relative.push("..");
        }
        relative.push("blobs");
        relative.push(name);
        let temp = parent.join(format!(
            ".{}.link",
            target.file_name().unwrap_or_default().to_string_lossy()
        ));
        let _ = std::fs::remove_file(&temp);
        link_or_copy(&relative, &parent.join(&relative), &temp)?;
        std::fs::rename(&temp, &target)?;
        Ok(target)
    }
}

/// A symlink at `at` to `relative` (the blob, found at `blob` from here).
#[cfg(unix)]
fn link_or_copy(relative: &Path, _blob: &Path, at: &Path) -> io::Result<()> {
    std::os::unix::fs::symlink(relative, at)
}

/// A symlink at `at` to `relative`, or, without the right to make one (Windows gives it to
/// administrators and to Developer Mode only), a copy of the blob at `blob`, as
/// `huggingface_hub` does there.
#[cfg(windows)]
fn link_or_copy(relative: &Path, blob: &Path, at: &Path) -> io::Result<()> {
    match std::os::windows::fs::symlink_file(relative, at) {
        Ok(()) => Ok(()),
        Err(_) => std::fs::copy(blob, at).map(drop),
    }
}

/// Whether `path` is a safe relative file path inside a repository (no `..`, not absolute,
/// only plain names).
pub fn is_repo_path(path: &str) -> bool {
    !path.is_empty()
        && !path.contains('\\')
        && Path::new(path)
            .components()
            .all(|part| matches!(part, Component::Normal(_)))
}

/// The SHA-256 of the file at `path`, as lowercase hex (read in 1 MiB blocks).
pub fn sha256_of_file(path: &Path) -> io::Result<String> {
    let mut file = File::open(path)?;
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 1 << 20];
    loop {
        let read = file.read(&mut buffer)?;
        if read == 0 {
            break;
        }
        hasher.update(&buffer[..read]);
    }
    Ok(to_hex(&hasher.finalize()))
}

/// How thoroughly a snapshot's files are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// Every file hashed.
    Full,
    /// Every file present with its pinned size, and hashed unless it is weights
    /// (safetensors or ONNX), whose digest the loader computes anyway and compares.
    AllButWeights,
}

/// The weights file of the candle engine.
pub const WEIGHTS_FILE: &str = "model.safetensors";

/// Whether `file` in `folder` has its pinned content (to the depth `check` asks).
pub fn file_matches(folder: &Path, file: &HubFile, check: Check) -> bool {
    content_matches(&folder.join(&file.path), file, check)
}

/// Whether the file at `path` has `file`'s pinned content (to the depth `check` asks).
pub fn content_matches(path: &Path, file: &HubFile, check: Check) -> bool {
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() || file.size.is_some_and(|size| size != meta.len()) {
        return false;
    }
    if check == Check::AllButWeights && is_weights(&file.path) {
        return true;
    }
    sha256_of_file(path).is_ok_and(|digest| digest.eq_ignore_ascii_case(&file.sha256))
}

/// The first snapshot of `spec`'s repository under `roots` whose files all match `spec`:
/// the snapshot of its revision first, then any other (a model fetched by another tool at
/// another commit with the same files is just as good).
pub fn verified_snapshot(spec: &ModelSpec, roots: &[PathBuf], check: Check) -> Option<PathBuf> {
    for root in roots {
        let repo = RepoCache::new(root, &spec.repo);
        let pinned = repo.commit_of(&spec.revision).map(|c| repo.snapshot(&c));
        let others = std::fs::read_dir(repo.dir.join("snapshots"))
            .into_iter()
            .flatten()
            .filter_map(Result::ok)
            .map(|entry| entry.path())
            .filter(|path| Some(path) != pinned.as_ref() && path.is_dir());
        for folder in pinned.clone().into_iter().chain(others) {
            if spec
                .files
                .iter()
                .all(|file| file_matches(&folder, file, check))
            {
                return Some(folder);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_follow_the_hub_variables_most_specific_first() {
        let env = |name: &str| match name {
            "HF_HOME" => Some("/hf".to_owned()),
            "HOME" => Some("/home/u".to_owned()),
            "XDG_CACHE_HOME" => Some(String::new()),
            _ => None,
        };
        assert_eq!(
            hub_roots(&env),
            [
                PathBuf::from("/hf/hub"),
                PathBuf::from("/home/u/.cache/huggingface/hub")
            ]
        );
    }

    #[test]
    fn a_leading_tilde_is_the_home_folder() {
        let env = |name: &str| match name {
            "HF_HUB_CACHE" => Some("~".to_owned()),
            "HF_HOME" => Some("~/hf".to_owned()),
            "XDG_CACHE_HOME" => Some("~other/cache".to_owned()),
            "HOME" | "USERPROFILE" => Some("/home/u".to_owned()),
            _ => None,
        };
        assert_eq!(
            hub_roots(&env),
            [
                PathBuf::from("/home/u"),
                PathBuf::from("/home/u/hf/hub"),
                PathBuf::from("~other/cache/huggingface/hub"),
                PathBuf::from("/home/u/.cache/huggingface/hub")
            ]
        );
    }

    #[test]
    fn repository_paths_must_stay_inside_the_repository() {
        assert!(is_repo_path("1_Pooling/config.json"));
        for bad in ["", "../x", "/etc/passwd", "a/../../b", "a\\b", "./a"] {
            assert!(!is_repo_path(bad), "{bad}");
        }
    }

    #[test]
    fn a_link_points_back_up_to_the_blob_relative_to_its_own_folder() {
        let root = tempfile::tempdir().expect("tempdir");
        let repo = RepoCache::new(root.path(), "org/m");
        std::fs::create_dir_all(repo.dir.join("blobs")).expect("blobs");
        std::fs::write(repo.blob("abc"), "x").expect("blob");
        let link = repo
            .link("c0", "1_Pooling/config.json", "abc")
            .expect("link");
        assert_eq!(
            std::fs::read_link(&link).expect("a symlink"),
            PathBuf::from("../../../blobs/abc")
        );
        assert_eq!(std::fs::read_to_string(link).expect("read"), "x");
    }
}

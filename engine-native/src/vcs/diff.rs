//! The unified diff of one vault file: the working tree against the index, or the index
//! against HEAD (what is staged). Headers name the vault-relative path, never the
//! repository's.

use git2::{Diff, DiffFormat, DiffLineType, DiffOptions};

use crate::vcs::error::VcsError;
use crate::vcs::repo::VaultRepo;

/// The diff text kept at most (bytes); a longer diff is cut at a line end.
pub const MAX_DIFF_BYTES: usize = 256 * 1024;

/// A file's diff.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileDiff {
    /// The unified diff (`--- a/path`, `+++ b/path`, hunks); empty when nothing differs.
    pub text: String,
    /// Whether the diff was cut at [`MAX_DIFF_BYTES`].
    pub truncated: bool,
}

/// The diff of the file at `vault_path`: staged (`staged`: index against HEAD) or not
/// (working tree against the index, an untracked file shown whole as added).
pub fn diff_file(repo: &VaultRepo, vault_path: &str, staged: bool) -> Result<FileDiff, VcsError> {
    let entry = repo.workdir_entry(vault_path)?;
    if entry.as_ref().is_some_and(std::fs::Metadata::is_dir) {
        return Err(VcsError::NotAFile {
            path: vault_path.to_owned(),
        });
    }
    let mut options = DiffOptions::new();
    options
        .pathspec(repo.repo_path(vault_path))
        .disable_pathspec_match(true)
        .context_lines(3);
    let git = repo.git();
    let index = repo.index()?;
    let diff = if staged {
        let head = repo.head_tree()?;
        git.diff_tree_to_index(head.as_ref(), Some(&index), Some(&mut options))?
    } else {
        options
            .include_untracked(true)
            .recurse_untracked_dirs(true)
            .show_untracked_content(true);
        git.diff_index_to_workdir(Some(&index), Some(&mut options))?
    };
    render(&diff, vault_path)
}

/// The patch text of `diff` (one file) under headers naming `vault_path`.
fn render(diff: &Diff<'_>, vault_path: &str) -> Result<FileDiff, VcsError> {
    let mut text = String::new();
    let mut truncated = false;
    let printed = diff.print(DiffFormat::Patch, |delta, _hunk, line| {
        let piece = match line.origin_value() {
            DiffLineType::FileHeader => {
                let old = if delta.old_file().exists() {
                    format!("a/{vault_path}")
                } else {
                    "/dev/null".to_owned()
                };
                let new = if delta.new_file().exists() {
                    format!("b/{vault_path}")
                } else {
                    "/dev/null".to_owned()
                };
                format!("--- {old}\n+++ {new}\n")
            }
            DiffLineType::Binary => "Binary files differ\n".to_owned(),
            DiffLineType::Context | DiffLineType::Addition | DiffLineType::Deletion => {
                format!(
                    "{}{}",
                    line.origin(),
                    String::from_utf8_lossy(line.content())
                )
            }
            _ => String::from_utf8_lossy(line.content()).into_owned(),
        };
        if text.len() + piece.len() > MAX_DIFF_BYTES {
            truncated = true;
            return false;
        }
        text.push_str(&piece);
        true
    });
    match printed {
        Ok(()) => {}
        Err(_) if truncated => {}
        Err(error) => return Err(error.into()),
    }
    Ok(FileDiff { text, truncated })
}

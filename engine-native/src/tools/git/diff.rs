//! `git_diff`: the unified diff of one vault file, unstaged (working tree against the
//! index) or staged (index against HEAD). The read ACL applies to the path.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::content::injection::ContentFlags;
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{PATH_READ, input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::vcs::diff_file;

/// The arguments of `git_diff`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GitDiff {
    /// The vault-relative path of the file.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// The staged changes (index against HEAD) instead of the unstaged ones (working tree
    /// against the index, an untracked file shown whole).
    #[serde(default)]
    staged: bool,
}

/// What `git_diff` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct DiffResult {
    /// The file.
    path: String,
    /// Whether this is the staged diff.
    staged: bool,
    /// The unified diff (headers name the vault path); empty when nothing differs.
    diff: String,
    /// Whether the diff was cut at 256 KiB (at a line end).
    truncated: bool,
    /// Shapes of prompt injection in `diff` (absent when none; the text is never altered).
    #[serde(flatten)]
    flags: ContentFlags,
}

/// The `git_diff` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "git_diff",
            "Git diff of a file",
            "The unified git diff of one vault file: its unstaged changes (working tree against the index; an untracked file shows whole) or, with staged, what the next commit would record for it.",
        ),
        super::DOMAIN,
        (input_schema::<GitDiff>(), output_schema::<DiffResult>()),
        git_diff,
    )
    .keywords(&[
        "version control",
        "changes",
        "patch",
        "compare with last commit",
        "uncommitted edits",
        "obsidian git",
    ])
    .scopes(&["read:git"])
    .paths(PATH_READ)
}

fn git_diff(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GitDiff = parse(args)?;
    let repo = super::open(ctx)?;
    let diff =
        diff_file(&repo, &args.path, args.staged).map_err(|error| super::tool_error(&error))?;
    structured(&DiffResult {
        flags: ContentFlags::of(&diff.text),
        path: args.path,
        staged: args.staged,
        diff: diff.text,
        truncated: diff.truncated,
    })
}

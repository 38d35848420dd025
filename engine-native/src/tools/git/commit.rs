//! `git_commit`: commit what is staged in the vault. Its scope `execute:git` is on the HITL
//! floor: every call is confirmed by a person. The precheck refuses, before a person is
//! asked, a commit that cannot be made (nothing staged in the vault, files staged outside
//! the vault, conflicts, no repository); the read-only switch refuses the tool.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::vcs::{commit, commit_ready};

/// The arguments of `git_commit`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GitCommit {
    /// The commit message.
    #[schemars(length(min = 3, max = 2000))]
    message: String,
}

/// What `git_commit` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct CommitResult {
    /// The new commit's hash.
    committed: String,
    /// How many vault files it records changes of.
    files: usize,
}

/// The `git_commit` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "git_commit",
            "Commit staged files",
            "Commit what is staged in the vault (git_stage) with a message, on the current branch. Always confirmed by a person first. Refused while files outside the vault are staged in the same repository, or when nothing is staged.",
        ),
        super::DOMAIN,
        (input_schema::<GitCommit>(), output_schema::<CommitResult>()),
        git_commit,
    )
    .keywords(&[
        "version control",
        "save a version",
        "record changes",
        "checkpoint",
        "obsidian git",
    ])
    .scopes(&["execute:git"])
    .precheck(ready)
}

/// The commit could be made now (checked again by the handler, after the person's answer).
fn ready(ctx: &ToolContext<'_>, args: &Value) -> Result<(), ToolError> {
    let args: GitCommit = parse(args.clone())?;
    if args.message.trim().is_empty() || args.message.contains('\0') {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "the commit message is blank or holds a NUL character",
        ));
    }
    let repo = super::open(ctx)?;
    commit_ready(&repo)
        .map(drop)
        .map_err(|error| super::tool_error(&error))
}

fn git_commit(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GitCommit = parse(args)?;
    let repo = super::open(ctx)?;
    let made = commit(&repo, &args.message).map_err(|error| super::tool_error(&error))?;
    ctx.mark_effect_started();
    structured(&CommitResult {
        committed: made.hash,
        files: made.files,
    })
}

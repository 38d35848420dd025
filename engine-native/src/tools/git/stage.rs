//! `git_stage`: stage vault files for the next commit (`git add`, or the removal of a file
//! deleted from the working tree). The write ACL applies to each path, all are checked
//! before the index changes; the read-only switch refuses the tool.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::vcs::stage;

/// The arguments of `git_stage`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GitStage {
    /// The vault-relative paths of the files to stage (a deleted file stages its removal).
    #[schemars(length(min = 1, max = 200), inner(length(min = 1, max = 1024)))]
    paths: Vec<String>,
}

/// What `git_stage` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Staged {
    /// How many files were staged (each path once).
    staged: usize,
}

/// The `git_stage` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "git_stage",
            "Stage files in git",
            "Stage vault files for the next git commit (git add; a file deleted from the vault stages its removal). All or nothing: a folder, an unknown path or an ignored file stages nothing. Commit with git_commit.",
        ),
        super::DOMAIN,
        (input_schema::<GitStage>(), output_schema::<Staged>()),
        git_stage,
    )
    .keywords(&[
        "version control",
        "git add",
        "add to index",
        "prepare commit",
        "obsidian git",
    ])
    .scopes(&["write:git"])
    .precheck(writable)
}

/// The write ACL on every path, before anything is staged (dispatch runs it before every
/// call of the handler).
fn writable(ctx: &ToolContext<'_>, args: &Value) -> Result<(), ToolError> {
    let args: GitStage = parse(args.clone())?;
    args.paths
        .iter()
        .try_for_each(|path| ctx.check_path(path, AclOp::Write))
}

fn git_stage(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GitStage = parse(args)?;
    let repo = super::open(ctx)?;
    let staged = stage(&repo, &args.paths).map_err(|error| super::tool_error(&error))?;
    structured(&Staged { staged })
}

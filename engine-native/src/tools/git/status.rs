//! `git_status`: what is staged, changed, untracked or conflicted in the vault folder,
//! each path shown only when the caller may read it (exact filtering: every entry is a path).

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::vcs::{StatusReport, status};

/// The entries shown when `limit` is not given.
const DEFAULT_LIMIT: usize = 200;

/// The arguments of `git_status`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GitStatus {
    /// The most entries to show, over the three lists (default 200); `truncated` says when
    /// more exist.
    #[serde(default)]
    #[schemars(range(min = 1, max = 1000))]
    limit: Option<usize>,
}

/// The `git_status` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "git_status",
            "Git status",
            "The vault's git status: files staged for the next commit, changed in the working tree (untracked too) and conflicted, as vault paths, with the branch. The vault may be a folder of a larger repository; only its own files are shown.",
        ),
        super::DOMAIN,
        (input_schema::<GitStatus>(), output_schema::<StatusReport>()),
        git_status,
    )
    .keywords(&[
        "version control",
        "uncommitted changes",
        "modified files",
        "what changed",
        "working tree",
        "obsidian git",
    ])
    .scopes(&["read:git"])
}

fn git_status(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GitStatus = parse(args)?;
    let repo = super::open(ctx)?;
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
    let report = status(&repo, limit, &|path| ctx.may(path, AclOp::Read))
        .map_err(|error| super::tool_error(&error))?;
    structured(&report)
}

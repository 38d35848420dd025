//! `git_log` (the vault's commits, or one file's) and `git_show` (a file's text as a commit
//! or a version recorded it).
//!
//! Under a read restriction (a read whitelist, or an ACL rule whose scope the caller lacks)
//! the whole vault's log is refused: commit messages may name hidden notes. One file's
//! history is shown after the read ACL on its path, but without commit hashes: a hash is
//! a digest of the whole tree, hidden notes included, so it would tell two states of the
//! hidden notes apart. Its entries carry `version` (the file's content id) instead, which
//! `git_show` takes; `git_show` by commit is then limited to HEAD.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::content::injection::ContentFlags;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{PATH_READ, input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::vcs::{At, LogEntry, log, show};

/// The entries `git_log` shows when `limit` is not given.
const DEFAULT_LIMIT: usize = 20;

/// The arguments of `git_log`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GitLog {
    /// One file's history (vault-relative path) instead of the whole vault's.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    path: Option<String>,
    /// The most commits to show, newest first (default 20).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    limit: Option<usize>,
}

/// What `git_log` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct LogResult {
    /// The commits that changed the vault (or the file), newest first.
    entries: Vec<LogEntry>,
    /// Whether older commits exist beyond `limit`.
    truncated: bool,
}

/// The arguments of `git_show`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GitShow {
    /// The vault-relative path of the file.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// The commit: `HEAD` (the default), `HEAD~n`, or a hash from git_log (4 to 40 hex
    /// digits). Not with `version`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 64))]
    commit: Option<String>,
    /// A `version` from git_log's history of this file (40 hex digits). Not with `commit`.
    #[serde(default)]
    #[schemars(length(min = 40, max = 40))]
    version: Option<String>,
}

/// What `git_show` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct ShowResult {
    /// The file.
    path: String,
    /// Its content id at that point (the `version`).
    version: String,
    /// The commit's hash, when read by commit and the caller may see commit hashes.
    #[serde(skip_serializing_if = "Option::is_none")]
    commit: Option<String>,
    /// The text, when the content is UTF-8.
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    /// Whether the content is not UTF-8 text (it is not shown).
    binary: bool,
    /// Shapes of prompt injection in `text` (absent when none; the text is never altered).
    #[serde(flatten)]
    flags: ContentFlags,
}

/// The `git_log` tool.
pub(super) fn log_tool() -> ToolDef {
    ToolDef::new(
        (
            "git_log",
            "Git log",
            "The git commits that changed the vault, newest first (hash, date, author, message), or with path one note's history, each entry with the note's version for git_show. Commits that changed only files outside the vault are left out.",
        ),
        super::DOMAIN,
        (input_schema::<GitLog>(), output_schema::<LogResult>()),
        git_log,
    )
    .keywords(&[
        "version control",
        "commit history",
        "revisions",
        "who changed",
        "when changed",
        "previous versions",
        "obsidian git",
    ])
    .scopes(&["read:git"])
    .paths(PATH_READ)
}

/// The `git_show` tool.
pub(super) fn show_tool() -> ToolDef {
    ToolDef::new(
        (
            "git_show",
            "Show a note at a commit",
            "A vault note's text as git recorded it: at HEAD (default), HEAD~n or a commit hash, or at a version from git_log's history of the note.",
        ),
        super::DOMAIN,
        (input_schema::<GitShow>(), output_schema::<ShowResult>()),
        git_show,
    )
    .keywords(&[
        "version control",
        "old version",
        "earlier text",
        "committed content",
        "restore from git",
        "obsidian git",
    ])
    .scopes(&["read:git"])
    .paths(PATH_READ)
}

fn git_log(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GitLog = parse(args)?;
    let open = ctx.reads_everything();
    if args.path.is_none() && !open {
        return Err(ToolError::new(
            ErrorCode::AclDenied,
            "the whole vault's git log is refused under a read restriction: commit messages may name notes this caller may not read; give path for one note's history",
        )
        .with_details(serde_json::json!({ "op": AclOp::Read })));
    }
    let repo = super::open(ctx)?;
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
    let history =
        log(&repo, args.path.as_deref(), limit).map_err(|error| super::tool_error(&error))?;
    let mut entries = history.entries;
    if !open {
        entries.iter_mut().for_each(|entry| entry.hash = None);
    }
    structured(&LogResult {
        entries,
        truncated: history.more,
    })
}

fn git_show(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GitShow = parse(args)?;
    let open = ctx.reads_everything();
    let at = match (&args.commit, &args.version) {
        (Some(_), Some(_)) => {
            return Err(ToolError::new(
                ErrorCode::InvalidInput,
                "give commit or version, not both",
            ));
        }
        (None, Some(version)) => At::Version(version),
        (Some(commit), None) if !open && commit != "HEAD" => {
            return Err(ToolError::new(
                ErrorCode::AclDenied,
                "under a read restriction git_show takes HEAD or a version from git_log's history of this note, not another commit",
            )
            .with_details(serde_json::json!({ "op": AclOp::Read, "path": args.path })));
        }
        (Some(commit), None) => At::Commit(commit),
        (None, None) => At::Commit("HEAD"),
    };
    let repo = super::open(ctx)?;
    let recorded = show(&repo, &args.path, at).map_err(|error| super::tool_error(&error))?;
    let text = String::from_utf8(recorded.bytes).ok();
    let flags = text.as_deref().map(ContentFlags::of).unwrap_or_default();
    structured(&ShowResult {
        path: args.path,
        version: recorded.version,
        commit: recorded.commit.filter(|_| open),
        binary: text.is_none(),
        text,
        flags,
    })
}

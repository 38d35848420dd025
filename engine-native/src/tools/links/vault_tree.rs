//! `get_vault_tree`: the vault's folders with how many notes and attachments each holds,
//! in tree order (each folder right before its subfolders), optionally under one folder and
//! down to a depth, at most `limit` folders. Only files the caller may read are counted
//! and a folder appears only when it holds (at any depth) a file the caller may read, so
//! the tree never reveals what the ACL hides. Dot files and folders are never counted
//! (the vault never lists them).

use std::collections::BTreeMap;

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::vault::{EntryKind, VaultError};

/// The arguments of `get_vault_tree`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TreeArgs {
    /// The folder to start at (vault-relative); the vault root when left out.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    folder: Option<String>,
    /// How many folder levels below the start to list (counts still include everything
    /// deeper); no limit when left out.
    #[serde(default)]
    #[schemars(range(min = 0, max = 64))]
    max_depth: Option<usize>,
    /// The most folders listed (default 500); the rest are cut and `truncated` is true.
    #[serde(default = "default_limit")]
    #[schemars(range(min = 1, max = 5000))]
    limit: usize,
}

fn default_limit() -> usize {
    500
}

/// One folder.
#[derive(Debug, Serialize, JsonSchema)]
struct Folder {
    /// The folder's vault path (empty for the vault root).
    path: String,
    /// Its depth below the start folder (0 for the start folder).
    depth: usize,
    /// Notes (`.md`) directly in it.
    notes: usize,
    /// Other files directly in it.
    attachments: usize,
    /// Notes in it and all its subfolders.
    notes_total: usize,
    /// Other files in it and all its subfolders.
    attachments_total: usize,
}

/// What `get_vault_tree` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct TreeResult {
    /// The folders in tree order, the start folder first.
    folders: Vec<Folder>,
    /// How many folders there are within `max_depth` (before `limit`).
    folder_count: usize,
    /// Whether folders were left out because of `limit`.
    truncated: bool,
}

/// The `get_vault_tree` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("get_vault_tree", "Directory tree", "Show the directory hierarchy as a tree: every subdirectory with its file counts (Markdown and attachments, direct and in total), optionally below a starting point and down to a depth. Size-bounded."),
"notes",
(input_schema::<TreeArgs>(), output_schema::<TreeResult>()),
get_vault_tree,
)
.keywords(&["laid out", "layout", "directory tree", "folder hierarchy", "subfolders", "structure overview", "folder structure", "folders", "tree"])
.scopes(&["read:notes"])
}

/// The folder of `path` (empty at the root).
fn parent(path: &str) -> &str {
    path.rsplit_once('/').map_or("", |(folder, _)| folder)
}

fn get_vault_tree(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: TreeArgs = parse(args)?;
    let start = args
        .folder
        .as_deref()
        .map(|f| f.trim_matches('/'))
        .unwrap_or("");
    let missing = || {
        ToolError::new(
            ErrorCode::NotFound,
            format!(
                "no readable folder {start}; call get_vault_tree without `folder` to see the folders"
            ),
        )
    };
    let entries = match ctx.vault().list((!start.is_empty()).then_some(start)) {
        Ok(entries) => entries,
        Err(VaultError::NotFound { .. } | VaultError::NotADirectory { .. }) => {
            return Err(missing());
        }
        Err(error) => {
            return Err(crate::tools::common::vault_error::tool_error_from_vault(
                &error,
                AclOp::Read,
            ));
        }
    };
    // Folder path -> (direct notes, direct attachments, total notes, total attachments).
    let mut folders: BTreeMap<String, [usize; 4]> = BTreeMap::new();
    for entry in entries
        .iter()
        .filter(|entry| entry.kind == EntryKind::File && ctx.may_list(&entry.path))
    {
        let is_note = entry
            .path
            .rsplit_once('.')
            .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"));
        let slot = usize::from(!is_note);
        let mut folder = parent(&entry.path);
        folders.entry(folder.to_owned()).or_default()[slot] += 1;
        loop {
            folders.entry(folder.to_owned()).or_default()[slot + 2] += 1;
            if folder == start || folder.is_empty() {
                break;
            }
            folder = parent(folder);
        }
    }
    if folders.is_empty() && !start.is_empty() {
        return Err(missing());
    }
    let depth_of = |path: &str| {
        let rest = path.strip_prefix(start).unwrap_or(path);
        rest.split('/').filter(|s| !s.is_empty()).count()
    };
    let mut listed: Vec<(String, [usize; 4])> = folders
        .into_iter()
        .filter(|(path, _)| args.max_depth.is_none_or(|max| depth_of(path) <= max))
        .collect();
    // Tree order: a folder right before its subfolders ("a", "a/b", "a b" sorts wrongly).
    listed.sort_by(|a, b| a.0.split('/').cmp(b.0.split('/')));
    let folder_count = listed.len();
    let truncated = folder_count > args.limit;
    let folders = listed
        .into_iter()
        .take(args.limit)
        .map(
            |(path, [notes, attachments, notes_total, attachments_total])| Folder {
                depth: depth_of(&path),
                path,
                notes,
                attachments,
                notes_total,
                attachments_total,
            },
        )
        .collect();
    structured(&TreeResult {
        folders,
        folder_count,
        truncated,
    })
}

//! `list_notes`: the notes under a folder, a page at a time, by path. Only paths the caller
//! may read are listed or counted, so a listing never reveals what the ACL hides.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::paging::{Page, PageArgs, Paging};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{Entry, EntryKind};

/// The arguments of `list_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListNotes {
    /// The folder to list (vault-relative); the whole vault when left out.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    folder: Option<String>,
    /// Include notes in subfolders (default true).
    #[serde(default = "yes")]
    recursive: bool,
    /// List every file, not only Markdown notes (`.md`).
    #[serde(default)]
    include_attachments: bool,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<NotesPaging>,
}

/// `list_notes` pages by 100 notes (at most 1000).
struct NotesPaging;

impl Paging for NotesPaging {
    const ITEMS: &'static str = "notes";
}

fn yes() -> bool {
    true
}

/// One listed note.
#[derive(Debug, Serialize, JsonSchema)]
struct ListedNote {
    /// The vault-relative path (NFC).
    path: String,
    /// Size in bytes.
    size: u64,
    /// Last modification, milliseconds since the Unix epoch.
    modified_ms: i64,
}

/// The `list_notes` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("list_notes", "List notes", "List (browse) the Markdown notes in a folder (or the whole vault), sorted by path, with size and modification time; include_attachments lists every file. Paged: pass the returned cursor to get the next page."),
"notes",
(input_schema::<ListNotes>(), output_schema::<Page<ListedNote>>()),
list_notes,
)
.keywords(&["what's in a folder", "in my folder", "list", "browse", "folder contents", "notes in a folder", "inside", "ls", "enumerate", "all notes", "every note", "directory"])
.scopes(&["read:notes"])
}

fn list_notes(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListNotes = parse(args)?;
    let folder = args
        .folder
        .as_deref()
        .map(|f| f.trim_end_matches('/'))
        .filter(|f| !f.is_empty());
    let entries = ctx
        .vault()
        .list(folder)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let listed: Vec<Entry> = entries
        .into_iter()
        .filter(|entry| entry.kind == EntryKind::File)
        .filter(|entry| args.include_attachments || is_note(&entry.path))
        .filter(|entry| args.recursive || in_folder(&entry.path, folder))
        .filter(|entry| ctx.may_list(&entry.path))
        .collect();
    let total_count = listed.len();
    let after = args.page.cursor();
    let limit = args.page.limit();
    let mut page: Vec<ListedNote> = listed
        .into_iter()
        .filter(|entry| after.is_none_or(|after| entry.path.as_str() > after))
        .take(limit.saturating_add(1))
        .map(|entry| ListedNote {
            path: entry.path,
            size: entry.size,
            modified_ms: entry.modified_ms,
        })
        .collect();
    let cursor = if page.len() > limit {
        page.truncate(limit);
        page.last().map(|last| last.path.clone())
    } else {
        None
    };
    structured(&Page {
        items: page,
        cursor,
        total_count,
    })
}

/// Whether `path` is a Markdown note.
fn is_note(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"))
}

/// Whether `path` lies directly in `folder` (the vault root for `None`), not deeper: it has
/// one more segment than the folder (counted, so the folder's spelling does not matter).
fn in_folder(path: &str, folder: Option<&str>) -> bool {
    let folder_depth = folder.map_or(0, |folder| folder.split('/').count());
    path.split('/').count() == folder_depth + 1
}

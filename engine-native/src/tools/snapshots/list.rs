//! `list_snapshots` and `read_snapshot`: what tool calls changed, and a file's content
//! before a change. Only snapshots of paths the caller may read are shown.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::content::injection::ContentFlags;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::store::SnapshotInfo;
use crate::store::store_fault;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::paging::{CursorLength, PageArgs, Paging};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `list_snapshots`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListSnapshots {
    /// Only the snapshots of this note (vault-relative path); all notes when omitted.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    path: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<SnapshotPaging>,
}

/// `list_snapshots` pages by 50 snapshots (at most 200), newest first.
struct SnapshotPaging;

impl Paging for SnapshotPaging {
    const ITEMS: &'static str = "snapshots";
    const DEFAULT: usize = 50;
    const MAX: usize = 200;
    const CURSOR: CursorLength = CursorLength::ANY;
}

/// What `list_snapshots` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct SnapshotPage {
    /// Snapshots, newest first.
    items: Vec<SnapshotInfo>,
    /// Pass this as `cursor` to get older snapshots; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor: Option<String>,
}

/// The arguments of `read_snapshot`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReadSnapshot {
    /// The snapshot's id (from `list_snapshots`).
    #[schemars(range(min = 1))]
    id: i64,
}

/// What `read_snapshot` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct SnapshotContent {
    /// The snapshot.
    snapshot: SnapshotInfo,
    /// The file's text before the change, when it existed, was kept and is UTF-8.
    #[serde(skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    /// Whether the kept content is not UTF-8 text (an attachment): it is not shown, but
    /// `restore_note` puts it back all the same.
    binary: bool,
    /// Shapes of prompt injection in `text` (absent when none; the text is never altered).
    #[serde(flatten)]
    flags: ContentFlags,
}

const READ_PATH: &[PathArg] = &[PathArg {
    name: "path",
    op: AclOp::Read,
}];

/// The `list_snapshots` tool.
pub(super) fn list_tool() -> ToolDef {
    ToolDef::new(
("list_snapshots", "List snapshots", "History of edits: the earlier contents of notes kept each time a tool wrote them, newest first, with the tool, caller and time. Give path for one note. Paged with cursor. Read one with read_snapshot; put one back with restore_note."),
"notes",
(input_schema::<ListSnapshots>(), output_schema::<SnapshotPage>()),
list_snapshots,
)
.keywords(&["edits", "audit", "earlier contents", "history", "versions", "version history", "changes over time", "who changed", "when changed"])
.scopes(&["read:notes"])
.paths(READ_PATH)
}

/// The `read_snapshot` tool.
pub(super) fn read_tool() -> ToolDef {
    ToolDef::new(
        (
            "read_snapshot",
            "Read snapshot",
            "Read what a note said before an edit, by a snapshot id from list_snapshots.",
        ),
        "notes",
        (
            input_schema::<ReadSnapshot>(),
            output_schema::<SnapshotContent>(),
        ),
        read_snapshot,
    )
    .keywords(&[
        "previous content",
        "before the edit",
        "earlier text",
        "what it said",
        "snapshot contained",
        "snapshot id",
    ])
    .scopes(&["read:notes"])
}

fn list_snapshots(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListSnapshots = parse(args)?;
    let mut before = match args.page.cursor() {
        None => None,
        Some(cursor) => Some(cursor.parse::<i64>().map_err(|_| {
            ToolError::new(
                ErrorCode::InvalidInput,
                format!("cursor '{cursor}' is not one list_snapshots returned; start without it"),
            )
        })?),
    };
    let want = args.page.limit();
    let mut items = Vec::with_capacity(want);
    // Hidden paths are dropped before the page is cut, so a page is full whenever more
    // readable snapshots exist.
    loop {
        let rows = ctx
            .store()
            .snapshots()
            .list(
                ctx.vault_id(),
                args.path.as_deref(),
                crate::store::MAX_PAGE,
                before,
            )
            .map_err(store_fault)?;
        let exhausted = rows.len() < crate::store::MAX_PAGE as usize;
        before = rows.last().map(|row| row.id);
        items.extend(
            rows.into_iter()
                .filter(|row| ctx.may(&row.path, AclOp::Read)),
        );
        if items.len() > want || exhausted {
            break;
        }
    }
    let cursor = (items.len() > want).then(|| items[want - 1].id.to_string());
    items.truncate(want);
    structured(&SnapshotPage { items, cursor })
}

fn read_snapshot(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ReadSnapshot = parse(args)?;
    let snapshot = super::restore::find(ctx, args.id, AclOp::Read)?;
    let text = snapshot
        .content
        .as_ref()
        .and_then(|bytes| String::from_utf8(bytes.clone()).ok());
    let binary = snapshot.content.is_some() && text.is_none();
    let flags = text.as_deref().map(ContentFlags::of).unwrap_or_default();
    structured(&SnapshotContent {
        snapshot: snapshot.info,
        text,
        binary,
        flags,
    })
}

/// `not_found` for a snapshot id that does not exist in the vault (or is hidden).
pub(super) fn snapshot_not_found(id: i64) -> ToolError {
    ToolError::new(
        ErrorCode::NotFound,
        format!("no snapshot {id} in this vault; list_snapshots shows the ids"),
    )
    .with_details(json!({ "snapshot_id": id }))
}

//! `list_capture_queue`: the captures waiting in the vault's queue, newest first, paged with
//! a cursor; committed ones too when asked. Every caller with `read:capture` on the vault
//! sees its queue; paths the caller may not read are left out ([`super::queue_view`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::queue_view::CaptureView;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{CaptureQueue, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::paging::{CursorLength, PageArgs, Paging};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `list_capture_queue`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ListCaptureQueue {
    /// Also list the captures already filed (with where and when).
    #[serde(default)]
    include_committed: bool,
    /// Show each capture's whole content (otherwise its first 200 characters).
    #[serde(default)]
    include_content: bool,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<CapturePaging>,
}

/// `list_capture_queue` pages by 50 captures (at most 1000), newest first.
struct CapturePaging;

impl Paging for CapturePaging {
    const ITEMS: &'static str = "captures";
    const DEFAULT: usize = 50;
    const CURSOR: CursorLength = CursorLength::ANY;
}

/// What `list_capture_queue` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct CaptureQueuePage {
    /// Captures, newest first.
    items: Vec<CaptureView>,
    /// Pass this as `cursor` to get older captures; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor: Option<String>,
}

/// The `list_capture_queue` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("list_capture_queue", "List capture queue", "List the captures waiting in the vault's capture queue (saved with enqueue_capture), newest first, each with a preview (include_content for the whole text; include_committed for those already filed). Paged with cursor. File one with commit_capture."),
"notes",
(input_schema::<ListCaptureQueue>(), output_schema::<CaptureQueuePage>()),
list_capture_queue,
)
.keywords(&["saved for later", "queue", "queued", "to file", "unfiled"])
.scopes(&["read:capture"])
}

fn list_capture_queue(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListCaptureQueue = parse(args)?;
    if let Some(cursor) = args.page.cursor()
        && !CaptureQueue::is_cursor(cursor)
    {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("cursor '{cursor}' is not one list_capture_queue returned; start without it"),
        ));
    }
    let page = ctx
        .store()
        .capture_queue()
        .list(
            ctx.vault_id(),
            args.include_committed,
            args.page.cursor(),
            u32::try_from(args.page.limit()).unwrap_or(u32::MAX),
        )
        .map_err(store_fault)?;
    let items = page
        .items
        .into_iter()
        .map(|capture| CaptureView::of(ctx, capture, args.include_content))
        .collect();
    structured(&CaptureQueuePage {
        items,
        cursor: page.cursor,
    })
}

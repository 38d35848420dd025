//! `enqueue_capture`: stage text in the vault's capture queue (in `cache.db`, not in the
//! vault) to be filed later with `commit_capture`. Queuing text that is already pending in
//! the vault's queue returns that capture (`created: false`) and queues nothing.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::queue_note::{MAX_TAGS, clean_tags, with_tags};
use super::queue_view::CaptureView;
use crate::content::findings::ContentFindings;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::store::{NewCapture, StoreError, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `enqueue_capture`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct EnqueueCapture {
    /// The text to keep for later (at most 1 MiB); it becomes the note as written.
    #[schemars(length(min = 1))]
    content: String,
    /// A short title, to recognise it in the queue.
    #[serde(default)]
    #[schemars(length(min = 1, max = 200))]
    title: Option<String>,
    /// Where it should be filed (a vault-relative note path you may write); commit_capture
    /// uses it when given no path.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    suggested_path: Option<String>,
    /// Tags the note gets when filed (merged into its `tags` property).
    #[serde(default)]
    #[schemars(length(max = 50))]
    tags: Vec<String>,
}

/// What `enqueue_capture` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct EnqueueResult {
    /// The queued capture (the one already pending when the same text was queued before).
    capture: CaptureView,
    /// Whether a new capture was queued (false: the same text was already pending).
    created: bool,
    /// What the queued text and title hold that is shaped like a credential or a prompt
    /// injection (queued as given).
    #[serde(flatten)]
    findings: ContentFindings,
}

const SUGGESTED_PATH: &[PathArg] = &[PathArg {
    name: "suggested_path",
    op: AclOp::Write,
}];

/// The `enqueue_capture` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("enqueue_capture", "Queue a capture", "Keep text for later without writing to the vault: it waits in the vault's capture queue (kept across restarts) until commit_capture files it. Optional title, suggested path and tags. Queuing text that is already waiting returns the waiting capture (created: false)."),
"notes",
(input_schema::<EnqueueCapture>(), output_schema::<EnqueueResult>()),
enqueue_capture,
)
.keywords(&["save for later", "file later", "queue", "stage", "stash"])
.scopes(&["write:capture"])
.paths(SUGGESTED_PATH)
.idempotent(true)
}

fn enqueue_capture(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: EnqueueCapture = parse(args)?;
    if args.tags.len() > MAX_TAGS {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("{} tags given; give at most {MAX_TAGS}", args.tags.len()),
        ));
    }
    let tags = clean_tags(&args.tags)?;
    // Content whose frontmatter cannot take the tags is refused now, not at commit.
    let target = args.suggested_path.as_deref().unwrap_or("the capture");
    with_tags(&args.content, &tags, target)?;
    let enqueued = ctx
        .store()
        .capture_queue()
        .enqueue(&NewCapture {
            vault_id: ctx.vault_id(),
            caller: &ctx.caller().id,
            content: &args.content,
            title: args.title.as_deref(),
            suggested_path: args.suggested_path.as_deref(),
            tags: &tags,
            now: ctx.clock().now_seconds(),
        })
        .map_err(|error| match error {
            StoreError::CaptureTooLarge { .. } => {
                ToolError::new(ErrorCode::InvalidInput, error.to_string())
            }
            other => store_fault(other),
        })?;
    let findings =
        ContentFindings::of(std::iter::once(args.content.as_str()).chain(args.title.as_deref()));
    structured(&EnqueueResult {
        capture: CaptureView::of(ctx, enqueued.capture, false),
        created: enqueued.created,
        findings,
    })
}

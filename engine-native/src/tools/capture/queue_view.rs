//! How a queued capture is shown to a caller (`enqueue_capture`, `list_capture_queue`).
//!
//! The queue is not in the vault, so the folder ACL does not hide a capture: every caller
//! with `read:capture` on the vault sees the vault's captures. But a capture names vault
//! paths (where it was suggested to go, where it was filed), and a path the caller may not
//! read is not shown: it is left out of the view as if none had been given. Whether a note
//! exists there is never said.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Serialize;

use crate::runtime::ToolContext;
use crate::store::Capture;

/// How many characters of the content a view shows when it does not show all of it.
const PREVIEW_CHARS: usize = 200;

/// A queued capture as a caller sees it.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct CaptureView {
    /// The capture's id: pass it to `commit_capture`.
    id: String,
    /// Who queued it.
    caller: String,
    /// Its title, if one was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    /// Where it was suggested to be filed (absent when none was given, or when the caller may
    /// not read that path).
    #[serde(skip_serializing_if = "Option::is_none")]
    suggested_path: Option<String>,
    /// The tags the note gets.
    tags: Vec<String>,
    /// The content's size, bytes.
    size: usize,
    /// The content's SHA-256.
    sha256: String,
    /// The first 200 characters of the content.
    preview: String,
    /// The whole content (only when asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    content: Option<String>,
    /// When it was queued, Unix seconds.
    created_at: i64,
    /// When it was filed, if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    committed_at: Option<i64>,
    /// Where it was filed (absent when pending, or when the caller may not read that path).
    #[serde(skip_serializing_if = "Option::is_none")]
    committed_path: Option<String>,
}

impl CaptureView {
    /// `capture` as `ctx`'s caller sees it, with its whole content when `with_content`.
    pub(super) fn of(ctx: &ToolContext<'_>, capture: Capture, with_content: bool) -> CaptureView {
        let preview = capture.content.chars().take(PREVIEW_CHARS).collect();
        CaptureView {
            size: capture.content.len(),
            preview,
            content: with_content.then_some(capture.content),
            suggested_path: readable(ctx, capture.suggested_path),
            committed_at: capture.committed.as_ref().map(|commit| commit.at),
            committed_path: readable(ctx, capture.committed.map(|commit| commit.path)),
            id: capture.id,
            caller: capture.caller,
            title: capture.title,
            tags: capture.tags,
            sha256: capture.content_sha256,
            created_at: capture.created_at,
        }
    }
}

/// `path` when the caller may read it.
pub(super) fn readable(ctx: &ToolContext<'_>, path: Option<String>) -> Option<String> {
    path.filter(|path| ctx.may(path, AclOp::Read))
}

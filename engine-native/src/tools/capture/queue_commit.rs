//! `commit_capture`: file a queued capture as a note, then mark it committed.
//!
//! The note is written first (through the vault, so snapshots and undo record it), then the
//! capture is marked committed in `cache.db`. The capture id is the natural key: committing a
//! committed capture again returns its first commit and changes nothing. If the mark fails
//! after the write, a retry finds the note already holding what it would write (the same
//! bytes for a new note; for `append`, a note that already ends with the capture) and only
//! marks the capture.
//!
//! The target is checked against the caller's write ACL. A target outside the capture
//! folders (the vault's inbox folder and memory folder) needs a human's confirmation.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::capture_note::inbox_folder;
use super::queue_note::with_tags;
use super::queue_view::readable;
use crate::content::findings::ContentFindings;
use crate::edits::{AppendAt, Edit, append};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::store::{Capture, Commit, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::edit_flow::{EditRequest, apply_note_edit};
use crate::tools::common::memory_folder::memory_folder;
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{VaultError, WriteOptions};

/// The arguments of `commit_capture`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CommitCapture {
    /// The capture's id (from enqueue_capture or list_capture_queue).
    #[schemars(length(min = 32, max = 32))]
    capture_id: String,
    /// The vault-relative note path to file it at; the capture's suggested path when omitted.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    path: Option<String>,
    /// Add it to the end of the note at `path` when that note exists (a new note otherwise);
    /// without it an existing note is `already_exists`.
    #[serde(default)]
    append: bool,
}

/// What `commit_capture` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct CommitResult {
    /// The capture's id.
    capture_id: String,
    /// The note it was filed at (absent when the caller may not read it).
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    /// The SHA-256 of the note right after the capture was filed.
    sha256: String,
    /// When it was filed, Unix seconds.
    committed_at: i64,
    /// Whether it had been filed before (this call changed nothing).
    already_committed: bool,
    /// What the filed text holds that is shaped like a credential or a prompt injection
    /// (filed as given).
    #[serde(flatten)]
    findings: ContentFindings,
}

const TARGET_PATH: &[PathArg] = &[PathArg {
    name: "path",
    op: AclOp::Write,
}];

/// The `commit_capture` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("commit_capture", "File a capture", "File a queued capture (from enqueue_capture) into the vault at path, or at its suggested path (append: true when that file exists), then mark it committed. Filing outside the inbox and memory folders needs the user's confirmation. Filing it again returns the first result and changes nothing."),
"notes",
(input_schema::<CommitCapture>(), output_schema::<CommitResult>()),
commit_capture,
)
.keywords(&["file it", "file the capture", "queue", "saved for later", "commit"])
.scopes(&["write:capture"])
.paths(TARGET_PATH)
}

fn commit_capture(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: CommitCapture = parse(args)?;
    let capture = ctx
        .store()
        .capture_queue()
        .get(ctx.vault_id(), &args.capture_id)
        .map_err(store_fault)?
        .ok_or_else(|| not_found(&args.capture_id))?;
    if let Some(commit) = capture.committed.clone() {
        return result(ctx, &capture, commit, true);
    }
    let target = args
        .path
        .clone()
        .or_else(|| capture.suggested_path.clone())
        .ok_or_else(|| {
            ToolError::new(
                ErrorCode::InvalidInput,
                format!(
                    "capture {} has no suggested path; give the path to file it at",
                    capture.id
                ),
            )
        })?;
    ctx.check_path(&target, AclOp::Write)?;
    let note = with_tags(&capture.content, &capture.tags, &target)?;
    let existing = match ctx.vault().read(&target) {
        Ok(file) => Some(file),
        Err(VaultError::NotFound { .. }) => None,
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Write)),
    };
    let written = match existing {
        // A retry after the note was written but the capture not marked.
        Some(file) if !args.append && file.sha256 == sha256_hex(note.as_bytes()) => {
            (file.path, file.sha256)
        }
        Some(file) if !args.append => {
            return Err(tool_error_from_vault(
                &VaultError::AlreadyExists { path: file.path },
                AclOp::Write,
            )
            .with_recovery("give another path, or append: true to add the capture to that note"));
        }
        Some(_) => {
            confirm_outside_capture_folders(ctx, &capture, &target, true)?;
            append_to(ctx, &target, &capture)?
        }
        None => {
            confirm_outside_capture_folders(ctx, &capture, &target, false)?;
            ctx.mark_effect_started();
            let outcome = ctx
                .vault()
                .write(&target, note.as_bytes(), &WriteOptions::default())
                .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
            (outcome.path, outcome.sha256)
        }
    };
    let commit = Commit {
        at: ctx.clock().now_seconds(),
        path: written.0,
        sha256: written.1,
    };
    let marked = ctx
        .store()
        .capture_queue()
        .mark_committed(ctx.vault_id(), &capture.id, &commit)
        .map_err(store_fault)?
        .and_then(|capture| capture.committed)
        .ok_or_else(|| not_found(&capture.id))?;
    // Another call may have filed it in the meantime: its commit is the one kept.
    let already = marked != commit;
    result(ctx, &capture, marked, already)
}

/// Appends the capture to the note at `path` (its tags merged into the note's), unless the
/// note already ends with it (a retry): returns the note's canonical path and SHA-256.
fn append_to(
    ctx: &ToolContext<'_>,
    path: &str,
    capture: &Capture,
) -> Result<(String, String), ToolError> {
    let request = EditRequest {
        path,
        expected_sha256: None,
        dry_run: false,
    };
    ctx.mark_effect_started();
    let edited = apply_note_edit(ctx, &request, |path, text| {
        let added = if text.trim_end().ends_with(capture.content.trim_end()) {
            text.to_owned()
        } else {
            append(text, &capture.content, &AppendAt::End)
                .map_err(|error| ToolError::new(ErrorCode::InvalidInput, error.to_string()))?
                .text
        };
        Ok(Edit::new(text, with_tags(&added, &capture.tags, path)?))
    })?;
    Ok((edited.path, edited.sha256))
}

/// Asks a human to confirm filing at `target` when it is outside the capture folders.
fn confirm_outside_capture_folders(
    ctx: &ToolContext<'_>,
    capture: &Capture,
    target: &str,
    append: bool,
) -> Result<(), ToolError> {
    let folders = [inbox_folder(ctx), memory_folder(ctx)];
    if folders
        .iter()
        .any(|folder| target.starts_with(&format!("{folder}/")))
    {
        return Ok(());
    }
    ctx.confirm(json!({
        "tool": ctx.tool().name(),
        "vault": ctx.vault_id(),
        "capture_id": capture.id,
        "path": target,
        "append": append,
        "size": capture.content.len(),
        "capture_folders": folders,
        "reason": "the capture is filed outside the capture folders (the inbox and memory folders)",
    }))
}

/// The result for `capture` filed as `commit`.
fn result(
    ctx: &ToolContext<'_>,
    capture: &Capture,
    commit: Commit,
    already_committed: bool,
) -> Result<Value, ToolError> {
    structured(&CommitResult {
        capture_id: capture.id.clone(),
        path: readable(ctx, Some(commit.path)),
        sha256: commit.sha256,
        committed_at: commit.at,
        already_committed,
        findings: ContentFindings::of([capture.content.as_str()]),
    })
}

/// `not_found` for a capture id the vault's queue does not have.
fn not_found(id: &str) -> ToolError {
    ToolError::new(
        ErrorCode::NotFound,
        format!("no capture {id} in this vault's queue; list_capture_queue shows the ids"),
    )
    .with_details(json!({ "capture_id": id }))
}

//! `write_note`: a note's whole content, in mode `create` (refuses an existing note),
//! `overwrite` (refuses a missing one) or `upsert`. Overwriting an existing non-empty note
//! with different content needs the user's confirmation, shown the diff (v1 §2.4). An
//! overwritten note keeps its BOM and line endings: `content` is taken with LF breaks and
//! written back in the note's style.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::edits::preview;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{PathArg, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::note_text::{in_style, mutation_failed, read_if_exists};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::check_expected;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{TextFile, VaultError, WriteOptions};

/// The arguments of `write_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct WriteNote {
    /// The vault-relative path of the note; missing folders are created.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// The note's whole new content (LF line breaks).
    content: String,
    /// `create` (default): only a new note; `overwrite`: only an existing one; `upsert`: either.
    #[serde(default)]
    mode: Mode,
    /// Refuse (`concurrent_modification`) unless the note still has this SHA-256.
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
    /// Return the diff preview and change nothing.
    #[serde(default)]
    dry_run: bool,
}

/// How `write_note` treats an existing note.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Mode {
    /// Only create; an existing note is `already_exists`.
    #[default]
    Create,
    /// Only replace; a missing note is `not_found`.
    Overwrite,
    /// Create or replace.
    Upsert,
}

/// What `write_note` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct WriteResult {
    /// The canonical vault-relative path (NFC).
    path: String,
    /// What was done: `create` or `overwrite`.
    mode_used: Mode,
    /// Whether the note's content changed (or, for a dry run, would change).
    changed: bool,
    /// Whether this was a preview that changed nothing.
    dry_run: bool,
    /// The SHA-256 of the note after the write (for a dry run: what it would be).
    sha256: String,
    /// The note's size in bytes after the write.
    size: usize,
    /// The change as a unified diff (dry runs only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    preview: Option<String>,
}

const WRITE_PATH: &[PathArg] = &[PathArg {
    name: "path",
    op: AclOp::Write,
}];

/// The `write_note` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("write_note", "Write note", "Create a new note, or save or overwrite a note's whole text. mode: create (default; refuses an existing note), overwrite (refuses a missing one) or upsert. Replacing a non-empty note needs the user's confirmation, shown the diff. Content is LF text; an overwritten note keeps its BOM and line endings. dry_run previews; expected_sha256 guards against lost updates."),
"notes",
(input_schema::<WriteNote>(), output_schema::<WriteResult>()),
write_note,
)
.keywords(&["replace everything", "everything in", "jot", "fresh note", "titled", "create", "new", "new note", "make", "save", "overwrite", "replace entire", "draft", "brand new", "blank", "empty note", "write", "compose"])
.scopes(&["write:notes"])
.paths(WRITE_PATH)
.idempotent(true)
}

fn write_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: WriteNote = parse(args)?;
    let existing = read_if_exists(ctx, &args.path, AclOp::Write)?;
    let mode_used = match (args.mode, &existing) {
        (Mode::Create, Some(file)) => {
            let exists = VaultError::AlreadyExists {
                path: file.path.clone(),
            };
            return Err(tool_error_from_vault(&exists, AclOp::Write));
        }
        (Mode::Overwrite, None) => {
            return Err(ToolError::new(
                ErrorCode::NotFound,
                format!(
                    "there is no note at '{}' to overwrite; use mode create or upsert",
                    args.path
                ),
            )
            .with_details(json!({ "path": args.path })));
        }
        (_, Some(_)) => Mode::Overwrite,
        (_, None) => Mode::Create,
    };
    let actual = existing.as_ref().map(|file| file.sha256.as_str());
    check_expected(&args.path, actual, args.expected_sha256.as_deref())?;
    let Some(file) = existing else {
        return create(ctx, &args);
    };
    // The preview and the confirmation show the old content: reading it must be allowed.
    ctx.check_path(&file.path, AclOp::Read)?;
    let old = TextFile::decode(&file.bytes, &file.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
    let bytes = in_style(&old, &args.content);
    let new_text = TextFile::decode(&bytes, &file.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?
        .text;
    let diff = preview(&old.text, &new_text);
    let changed = bytes != file.bytes;
    let mut result = WriteResult {
        path: file.path.clone(),
        mode_used,
        changed,
        dry_run: args.dry_run,
        sha256: sha256_hex(&bytes),
        size: bytes.len(),
        preview: None,
    };
    if args.dry_run {
        result.preview = Some(diff);
        return structured(&result);
    }
    if !changed {
        return structured(&result);
    }
    if !old.text.is_empty() {
        ctx.confirm(json!({
            "tool": "write_note",
            "vault": ctx.vault_id(),
            "path": file.path,
            "reason": "overwrites an existing non-empty note",
            "sha256_before": file.sha256,
            "preview": diff,
        }))?;
    }
    let options = WriteOptions {
        overwrite: true,
        expected_sha256: Some(file.sha256),
    };
    ctx.vault()
        .write(&file.path, &bytes, &options)
        .map_err(|error| mutation_failed(ctx, &error, AclOp::Write))?;
    structured(&result)
}

/// Creates the note (or previews its creation); a note appearing meanwhile is
/// `already_exists`.
fn create(ctx: &ToolContext<'_>, args: &WriteNote) -> Result<Value, ToolError> {
    let bytes = args.content.as_bytes();
    let mut result = WriteResult {
        path: args.path.clone(),
        mode_used: Mode::Create,
        changed: true,
        dry_run: args.dry_run,
        sha256: sha256_hex(bytes),
        size: bytes.len(),
        preview: None,
    };
    if args.dry_run {
        result.preview = Some(preview("", &args.content));
        return structured(&result);
    }
    let outcome = ctx
        .vault()
        .write(&args.path, bytes, &WriteOptions::default())
        .map_err(|error| mutation_failed(ctx, &error, AclOp::Write))?;
    result.path = outcome.path;
    structured(&result)
}

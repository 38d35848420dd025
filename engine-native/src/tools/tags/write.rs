//! `add_tag` and `remove_tag`: one note's tags edited, previewed or written atomically.
//!
//! The note is read once, the edit computed on that text, and the write carries the read's
//! SHA-256, so a note changed in between is `concurrent_modification`, never overwritten.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::args::{AddLocation, AddTag, RemoveLocation, RemoveTag};
use super::edit::{Edited, add_frontmatter, add_inline, remove};
use super::parse::valid_tag;
use crate::edits::preview;
use crate::errors::ToolError;
use crate::frontmatter::FrontmatterError;
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::frontmatter::tool_error_from_frontmatter;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::{check_expected, tool_error_from_vault};
use crate::tools::common::write_back::write_back;

/// The result of `add_tag` and `remove_tag`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct TagEdit {
    /// The note's path.
    pub path: String,
    /// The tag, without `#`.
    pub tag: String,
    /// Whether the note changed (or would, in a dry run).
    pub changed: bool,
    /// Whether this was a dry run (nothing written).
    pub dry_run: bool,
    /// Frontmatter tags added or removed.
    pub frontmatter: usize,
    /// Inline tags added or removed.
    pub inline: usize,
    /// The change as a unified diff (dry runs).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub diff: Option<String>,
    /// The note's SHA-256 now.
    pub sha256: String,
    /// Its SHA-256 before the write (when it was written).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_sha256: Option<String>,
}

/// What one tag edit needs.
struct Request<'a> {
    path: &'a str,
    tag: String,
    dry_run: bool,
    expected_sha256: Option<&'a str>,
}

/// Reads the note, applies `edit`, then previews or writes it.
fn edit_note(
    ctx: &ToolContext<'_>,
    request: Request<'_>,
    edit: impl FnOnce(&str, &str) -> Result<Edited, FrontmatterError>,
) -> Result<Value, ToolError> {
    let note = read_text(ctx.vault(), request.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    check_expected(&note.path, Some(&note.sha256), request.expected_sha256)?;
    let edited = edit(&note.text, &request.tag)
        .map_err(|error| tool_error_from_frontmatter(&error, &note.path))?;
    let changed = edited.text != note.text;
    let result = TagEdit {
        path: note.path.clone(),
        tag: request.tag,
        changed,
        dry_run: request.dry_run,
        frontmatter: edited.frontmatter,
        inline: edited.inline,
        diff: None,
        sha256: note.sha256.clone(),
        previous_sha256: None,
    };
    if request.dry_run {
        return structured(&TagEdit {
            diff: Some(preview(&note.text, &edited.text)),
            ..result
        });
    }
    if !changed {
        return structured(&result);
    }
    let written = write_back(
        ctx,
        &note.path,
        edited.text.as_bytes(),
        Some(note.sha256.clone()),
    )?;
    structured(&TagEdit {
        sha256: written.sha256,
        previous_sha256: Some(note.sha256),
        ..result
    })
}

/// Adds a tag to a note's frontmatter (default) or body.
pub(super) fn add_tag(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: AddTag = parse(args)?;
    let request = Request {
        path: &args.path,
        tag: valid_tag(&args.tag)?,
        dry_run: args.dry_run,
        expected_sha256: args.expected_sha256.as_deref(),
    };
    match args.location {
        AddLocation::Frontmatter => edit_note(ctx, request, add_frontmatter),
        AddLocation::Inline => edit_note(ctx, request, add_inline),
    }
}

/// Removes a tag from a note's frontmatter and/or body.
pub(super) fn remove_tag(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: RemoveTag = parse(args)?;
    let (frontmatter, inline) = match args.location {
        RemoveLocation::Frontmatter => (true, false),
        RemoveLocation::Inline => (false, true),
        RemoveLocation::All => (true, true),
    };
    let request = Request {
        path: &args.path,
        tag: valid_tag(&args.tag)?,
        dry_run: args.dry_run,
        expected_sha256: args.expected_sha256.as_deref(),
    };
    edit_note(ctx, request, |text, tag| {
        remove(text, tag, frontmatter, inline)
    })
}

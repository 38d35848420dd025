//! `append_note`: add text at the end, at the top of the body, at the end of a heading's
//! section or after a block. Not naturally idempotent: pass an `idempotency_key`.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::edits::{AppendAt, append};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::edit_flow::{EditRequest, apply_edit, edit_tool};
use crate::tools::common::structured::structured;

/// The arguments of `append_note`. At most one of `position`, `heading` and `after_block`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AppendNote {
    /// The vault-relative path of an existing note.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// The text to add (LF line breaks); it becomes whole lines.
    #[schemars(length(min = 1))]
    content: String,
    /// `end` (the default) or `prepend` (the top of the body, under the frontmatter).
    #[serde(default)]
    position: Option<Position>,
    /// Add at the end of this heading's section (text or a path such as `Guide#Install`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    heading: Option<String>,
    /// Add after the block with this id (`^intro` or `intro`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 128))]
    after_block: Option<String>,
    /// Refuse (`concurrent_modification`) unless the note still has this SHA-256.
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
    /// Return the diff preview and change nothing.
    #[serde(default)]
    dry_run: bool,
}

/// Where in the note, without naming a heading or block.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Position {
    /// After the last line.
    End,
    /// Before the first line of the body.
    Prepend,
}

/// The `append_note` tool.
pub(super) fn tool() -> ToolDef {
    edit_tool(
        ("append_note", "Append to note"),
        "Add text to an existing note: at the end (default), at the top of the body (position: prepend), at the end of a heading's section (heading), or after a block (after_block). Keeps the note's BOM and line endings. dry_run previews; pass idempotency_key so a retry does not add the text twice.",
        input_schema::<AppendNote>(),
        append_note,
    )
    .keywords(&["append", "prepend", "add", "insert", "attach", "tack on", "end", "bottom", "top", "add a line", "bullet", "item", "log", "entry", "todo", "add text"])
}

fn append_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: AppendNote = parse(args)?;
    let at = append_at(&args)?;
    let request = EditRequest {
        path: &args.path,
        expected_sha256: args.expected_sha256.as_deref(),
        dry_run: args.dry_run,
    };
    structured(&apply_edit(ctx, &request, |text| {
        append(text, &args.content, &at)
    })?)
}

/// Where `args` asks to add the text; more than one place is `invalid_input`.
fn append_at(args: &AppendNote) -> Result<AppendAt, ToolError> {
    let mut places = Vec::new();
    if let Some(position) = args.position {
        places.push(match position {
            Position::End => AppendAt::End,
            Position::Prepend => AppendAt::Prepend,
        });
    }
    if let Some(heading) = &args.heading {
        places.push(AppendAt::Section(heading.clone()));
    }
    if let Some(id) = &args.after_block {
        places.push(AppendAt::AfterBlock(id.clone()));
    }
    match places.len() {
        0 => Ok(AppendAt::End),
        1 => Ok(places.remove(0)),
        _ => Err(ToolError::new(
            ErrorCode::InvalidInput,
            "give at most one of position, heading and after_block",
        )),
    }
}

//! `append_to_periodic_note`: add text at the end of the note of a period and date, creating
//! the note from its template first when it does not exist. Not naturally idempotent: pass
//! an `idempotency_key`.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::locate::locate;
use super::note_io::{create_note, initial_text, read_note};
use crate::edits::{AppendAt, append};
use crate::errors::{ErrorCode, ToolError};
use crate::periodic::{Period, SettingsSource};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::check_expected;
use crate::tools::common::write_back::write_back;
use crate::vault::TextFile;

/// The arguments of `append_to_periodic_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AppendToPeriodicNote {
    /// `daily`, `weekly`, `monthly`, `quarterly` or `yearly`.
    period: Period,
    /// Any day of the period, `YYYY-MM-DD` (default: today, UTC).
    #[serde(default)]
    #[schemars(length(min = 10, max = 10))]
    date: Option<String>,
    /// The text to add at the end (LF line breaks); it becomes whole lines.
    #[schemars(length(min = 1))]
    content: String,
    /// Refuse (`concurrent_modification`) unless the note exists with this SHA-256.
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
}

/// What `append_to_periodic_note` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct AppendResult {
    /// The period.
    period: Period,
    /// The first day of the note's period (`YYYY-MM-DD`).
    date: String,
    /// The note's vault-relative path.
    path: String,
    /// Whether the note was created (from its template) by this call.
    created: bool,
    /// Which Obsidian settings give the folder, format and template.
    settings_source: SettingsSource,
    /// The SHA-256 of the note after the append.
    sha256: String,
    /// The note's size in bytes after the append.
    size: usize,
}

/// The `append_to_periodic_note` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("append_to_periodic_note", "Append to periodic note", "Add text at the end of the daily, weekly, monthly, quarterly or yearly note for a day (default today), creating it from the configured template first when missing. Keeps the note's BOM and line endings; pass idempotency_key so a retry does not add the text twice."),
"periodic",
(input_schema::<AppendToPeriodicNote>(), output_schema::<AppendResult>()),
append_to_periodic_note,
)
.keywords(&["daily log", "add to today's note", "log to daily", "log to journal", "append to daily note"])
.scopes(&["write:periodic"])
.idempotent(true)
}

fn append_to_periodic_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: AppendToPeriodicNote = parse(args)?;
    let (layout, note) = locate(ctx, args.period, args.date.as_deref())?;
    ctx.check_path(&note.path, AclOp::Read)?;
    ctx.check_path(&note.path, AclOp::Write)?;
    let content = args.content.replace("\r\n", "\n");
    let add = |text: &str| {
        append(text, &content, &AppendAt::End)
            .map(|edit| edit.text)
            .map_err(|error| ToolError::new(ErrorCode::InvalidInput, error.to_string()))
    };
    let existing = read_note(ctx, &note.path, AclOp::Write)?;
    let current = existing.as_ref().map(|(file, _)| file.sha256.as_str());
    check_expected(&note.path, current, args.expected_sha256.as_deref())?;
    let (path, sha256, size, created) = match existing {
        Some((file, text)) => {
            let bytes = TextFile {
                text: add(&text.text)?,
                ..text
            }
            .encode();
            let outcome = write_back(ctx, &file.path, &bytes, Some(file.sha256))?;
            (outcome.path, sha256_hex(&bytes), bytes.len(), false)
        }
        None => {
            let text = add(&initial_text(ctx, &layout, &note)?)?;
            let state = create_note(ctx, &note, text)?;
            (state.path, state.sha256, state.size, true)
        }
    };
    structured(&AppendResult {
        period: layout.period,
        date: note.date.to_string(),
        path,
        created,
        settings_source: layout.settings.source,
        sha256,
        size,
    })
}

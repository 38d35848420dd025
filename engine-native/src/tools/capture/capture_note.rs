//! `capture_note`: a quick capture written as a new note in the inbox folder, named
//! `YYYY-MM-DD HHmmss[ title].md` by the dispatch clock (UTC). When that name is taken the
//! next free one (`… 2.md`, `… 3.md`) is used: a capture never overwrites anything.

use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::stamp::file_stamp;
use crate::content::findings::ContentFindings;
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::file_name::{clean_title, write_new_note};
use crate::tools::common::structured::{output_schema, structured};

/// The inbox folder when the vault configures none.
const DEFAULT_INBOX: &str = "Inbox";

/// The arguments of `capture_note`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CaptureNote {
    /// The captured text (the whole new note).
    #[schemars(length(min = 1))]
    content: String,
    /// A short title appended to the timestamped name (characters not allowed in file
    /// names are replaced by `-`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 120))]
    title: Option<String>,
}

/// What `capture_note` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct CaptureResult {
    /// The new note's vault-relative path.
    path: String,
    /// The SHA-256 of the new note.
    sha256: String,
    /// The note's size in bytes.
    size: usize,
    /// What the captured text and title hold that is shaped like a credential or a prompt
    /// injection (the note is written as given).
    #[serde(flatten)]
    findings: ContentFindings,
}

/// The `capture_note` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("capture_note", "Capture note", "Save a quick capture (an idea, a snippet, a todo) as a new note in the vault's inbox folder (configured per vault, default Inbox), named by the current time (YYYY-MM-DD HHmmss, UTC) plus an optional title. Never overwrites: a taken name gets a number. Returns the new path."),
"notes",
(input_schema::<CaptureNote>(), output_schema::<CaptureResult>()),
capture_note,
)
.keywords(&["inbox", "quick note", "jot", "jot down", "capture", "fleeting", "idea", "remember", "note to self", "quickly"])
.scopes(&["write:notes"])
.idempotent(true)
}

fn capture_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: CaptureNote = parse(args)?;
    let inbox = inbox_folder(ctx);
    let mut stem = file_stamp(ctx.clock().now_ms());
    if let Some(title) = args.title.as_deref().map(clean_title)
        && !title.is_empty()
    {
        stem.push(' ');
        stem.push_str(&title);
    }
    let bytes = args.content.as_bytes();
    let outcome = write_new_note(ctx, &inbox, &stem, bytes)?;
    structured(&CaptureResult {
        path: outcome.path,
        sha256: sha256_hex(bytes),
        size: bytes.len(),
        findings: ContentFindings::of(
            std::iter::once(args.content.as_str()).chain(args.title.as_deref()),
        ),
    })
}

/// The vault's configured inbox folder (without surrounding slashes), else `Inbox`.
pub(super) fn inbox_folder(ctx: &ToolContext<'_>) -> String {
    ctx.vault_config()
        .and_then(|vault| vault.inbox_folder.as_deref())
        .map(|folder| folder.trim_matches('/'))
        .filter(|folder| !folder.is_empty())
        .unwrap_or(DEFAULT_INBOX)
        .to_owned()
}

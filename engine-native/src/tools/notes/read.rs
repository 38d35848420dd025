//! `read_note`: a whole note, or the lines, heading section or block asked for, with the
//! SHA-256 and size of the whole note (what `expected_sha256` of a later write compares).

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::content::injection::ContentFlags;
use crate::edits::{ReadTarget, read_range};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::PATH_READ;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::edit_error::tool_error_from_edit;
use crate::tools::common::note_text::{NoteText, line_ending_name, read_text};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `read_note`. At most one of `lines`, `heading` and `block`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReadNote {
    /// The vault-relative path of the note, e.g. `Inbox/idea.md`.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// Read only these lines (1-based, inclusive; `end` past the last line reads to the end).
    #[serde(default)]
    lines: Option<LineSpan>,
    /// Read only this heading's section, by its text or a path such as `Guide#Install`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    heading: Option<String>,
    /// Read only the block with this id (`^intro` or `intro`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 128))]
    block: Option<String>,
}

/// An inclusive, 1-based span of lines.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct LineSpan {
    /// First line, 1-based.
    #[schemars(range(min = 1))]
    start: usize,
    /// Last line, 1-based, inclusive.
    #[schemars(range(min = 1))]
    end: usize,
}

/// A half-open byte range `start..end`.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
pub(super) struct ByteSpan {
    /// First byte.
    start: usize,
    /// Just past the last byte.
    end: usize,
}

/// What `read_note` returns (and `read_notes` for each note it could read).
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct NoteRead {
    /// The canonical vault-relative path (NFC).
    path: String,
    /// The note's text, or the selected part: UTF-8 with LF line breaks and without a BOM
    /// (`bom` and `line_ending` tell how the file stores it; writes restore that style).
    content: String,
    /// The SHA-256 of the whole file's bytes, for `expected_sha256`.
    sha256: String,
    /// The whole file's size in bytes.
    size: usize,
    /// Last modification, milliseconds since the Unix epoch.
    modified_ms: i64,
    /// Whether the file starts with a UTF-8 byte order mark.
    bom: bool,
    /// The file's line endings: `lf`, `crlf` or `mixed` (mixed files are handed out as stored).
    line_ending: String,
    /// The selected lines (only for a range read).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    lines: Option<LineSpan>,
    /// Where the selection lies in the whole note (only for a range read): byte offsets
    /// into the note's decoded text (LF, no BOM).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    bytes: Option<ByteSpan>,
    /// Shapes of prompt injection in `content` (absent when none; the text is never
    /// altered).
    #[serde(flatten)]
    flags: ContentFlags,
}

/// The `read_note` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("read_note", "Read note", "Read (show) a note's text, or only some lines, a heading's section (heading path 'A#B') or a block (^id). Returns the text (LF, no BOM) and the whole note's sha256 (pass it as expected_sha256 to a later write) and size."),
"notes",
(input_schema::<ReadNote>(), output_schema::<NoteRead>()),
read_note,
)
.keywords(&["pull up", "what does it say", "say", "open", "view", "display", "show", "print", "contents", "content of", "body", "look at", "what it says", "tell me", "text of", "get note text", "read a page"])
.scopes(&["read:notes"])
.paths(PATH_READ)
}

fn read_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ReadNote = parse(args)?;
    let target = read_target(&args)?;
    let note = read_text(ctx, &args.path, AclOp::Read)?;
    structured(&select(note, target.as_ref())?)
}

/// The range `args` asks for, if any; more than one is `invalid_input`.
fn read_target(args: &ReadNote) -> Result<Option<ReadTarget>, ToolError> {
    let mut targets = Vec::new();
    if let Some(span) = args.lines {
        targets.push(ReadTarget::Lines {
            start: span.start,
            end: span.end,
        });
    }
    if let Some(heading) = &args.heading {
        targets.push(ReadTarget::Heading(heading.clone()));
    }
    if let Some(block) = &args.block {
        targets.push(ReadTarget::Block(block.clone()));
    }
    if targets.len() > 1 {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "give at most one of lines, heading and block",
        ));
    }
    Ok(targets.pop())
}

/// The whole note, or the part `target` selects.
pub(super) fn select(note: NoteText, target: Option<&ReadTarget>) -> Result<NoteRead, ToolError> {
    let NoteText { file, text } = note;
    let (content, lines, bytes) = match target {
        None => (text.text, None, None),
        Some(target) => {
            let selection = read_range(&text.text, target)
                .map_err(|error| tool_error_from_edit(&file.path, &error))?;
            let lines = LineSpan {
                start: selection.lines.start,
                end: selection.lines.end,
            };
            let bytes = ByteSpan {
                start: selection.bytes.start,
                end: selection.bytes.end,
            };
            (selection.text, Some(lines), Some(bytes))
        }
    };
    Ok(NoteRead {
        flags: ContentFlags::of(&content),
        size: file.bytes.len(),
        path: file.path,
        content,
        sha256: file.sha256,
        modified_ms: file.modified_ms,
        bom: text.bom,
        line_ending: line_ending_name(text.line_ending).to_owned(),
        lines,
        bytes,
    })
}

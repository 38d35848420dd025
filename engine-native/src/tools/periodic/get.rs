//! `get_periodic_note`, `create_periodic_note` and `find_or_create_periodic_note`: the note
//! of a period and date, read, created from the period's template, or either.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::locate::locate;
use super::note_io::{create_note, initial_text, read_note, state_of};
use super::result::PeriodicNote;
use crate::errors::{ErrorCode, ToolError};
use crate::periodic::Period;
use crate::runtime::{Handler, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of the three tools.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PeriodicNoteArgs {
    /// `daily`, `weekly`, `monthly`, `quarterly` or `yearly`.
    period: Period,
    /// Any day of the period, `YYYY-MM-DD` (default: today, UTC).
    #[serde(default)]
    #[schemars(length(min = 10, max = 10))]
    date: Option<String>,
}

/// What each of the three tools does when the note is missing or present.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Get,
    Create,
    FindOrCreate,
}

/// The three tools.
pub(super) fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            ("get_periodic_note", "Get periodic note"),
            "Get the daily, weekly, monthly, quarterly or yearly note for a day (default today) where the vault's Daily notes / Periodic Notes plugin puts it: path, whether it exists, content. Never creates it.",
            &[
                "write in my journal on",
                "daily note",
                "weekly note",
                "monthly note",
                "journal",
                "diary",
                "day's note",
            ],
            &["read:periodic"],
            get_periodic_note,
        ),
        tool(
            ("create_periodic_note", "Create periodic note"),
            "Create the daily, weekly, monthly, quarterly or yearly note for a day (default today) in the folder and format of the vault's Daily notes / Periodic Notes plugin, from its template (placeholders filled in). Never overwrites an existing one.",
            &["new daily note", "journal template"],
            &["write:periodic"],
            create_periodic_note,
        ),
        tool(
            (
                "find_or_create_periodic_note",
                "Find or create periodic note",
            ),
            "Get the daily, weekly, monthly, quarterly or yearly note for a day (default today), creating it from the configured template when missing: the usual way to reach today's daily note.",
            &[
                "make it if",
                "isn't there yet",
                "if missing",
                "today's note",
                "daily note if missing",
                "today",
                "journal today",
                "ensure",
            ],
            &["read:periodic", "write:periodic"],
            find_or_create_periodic_note,
        ),
    ]
}

fn tool(
    (name, title): (&'static str, &'static str),
    description: &'static str,
    keywords: &'static [&'static str],
    scopes: &'static [&'static str],
    handler: Handler,
) -> ToolDef {
    ToolDef::new(
        (name, title, description),
        "periodic",
        (
            input_schema::<PeriodicNoteArgs>(),
            output_schema::<PeriodicNote>(),
        ),
        handler,
    )
    .keywords(keywords)
    .scopes(scopes)
    .idempotent(name == "create_periodic_note")
}

fn get_periodic_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    run(ctx, args, Mode::Get)
}

fn create_periodic_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    run(ctx, args, Mode::Create)
}

fn find_or_create_periodic_note(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    run(ctx, args, Mode::FindOrCreate)
}

fn run(ctx: &ToolContext<'_>, args: Value, mode: Mode) -> Result<Value, ToolError> {
    let args: PeriodicNoteArgs = parse(args)?;
    let (layout, note) = locate(ctx, args.period, args.date.as_deref())?;
    let op = if mode == Mode::Get {
        AclOp::Read
    } else {
        AclOp::Write
    };
    if mode != Mode::Create {
        ctx.check_path(&note.path, AclOp::Read)?;
    }
    ctx.check_path(&note.path, op)?;
    let existing = read_note(ctx, &note.path, op)?;
    let result = match (existing, mode) {
        (Some((file, _)), Mode::Create) => {
            return Err(ToolError::new(
                ErrorCode::AlreadyExists,
                format!(
                    "the {} note '{}' already exists; read it with get_periodic_note or add to it with append_to_periodic_note",
                    layout.period.name(),
                    file.path
                ),
            )
            .with_details(serde_json::json!({"path": file.path})));
        }
        (Some((file, text)), _) => {
            PeriodicNote::present(&layout, &note, state_of(&file, text), false)
        }
        (None, Mode::Get) => PeriodicNote::absent(&layout, &note),
        (None, _) => {
            let text = initial_text(ctx, &layout, &note)?;
            let state = create_note(ctx, &note, text)?;
            PeriodicNote::present(&layout, &note, state, true)
        }
    };
    structured(&result)
}

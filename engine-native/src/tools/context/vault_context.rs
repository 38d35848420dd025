//! `vault_context`: `get_context`'s packing (the passages that best answer a query, to a
//! token budget), with a `bootstrap` mode for the start of a session: the vault's hand-off
//! note (`bootstrap.handoffNote`, default `_next-session.md`) is read first under the
//! caller's read ACL, then the query's passages fill what the budget has left. A missing
//! hand-off note, or one the caller may not read, is said in the answer (the same words for
//! both), never an error. Without `mode`, a call with a query is `query` (what `get_context`
//! does) and one without is `bootstrap`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::get_context::{Context, Packed, default_notes, default_tokens, pack};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::budget::Budget;
use crate::tools::common::preload::{LoadedNote, SkipReason, bootstrap_config, load};
use crate::tools::common::structured::{output_schema, structured};

/// What `vault_context` packs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Mode {
    /// The passages that best answer `query` (as `get_context`).
    Query,
    /// The vault's hand-off note first, then the passages for `query` when one is given.
    Bootstrap,
}

/// The arguments of `vault_context`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct VaultContext {
    /// What the context is for, in words (needed in `query` mode).
    #[serde(default)]
    #[schemars(length(min = 1, max = 2000))]
    query: Option<String>,
    /// `query` (the default with a query) or `bootstrap` (the default without one: the
    /// hand-off note the last session left, then the query's passages if a query is given).
    #[serde(default)]
    mode: Option<Mode>,
    /// The most estimated tokens (characters / 4) the packed text may take (default 2000).
    #[serde(default = "default_tokens")]
    #[schemars(range(min = 50, max = 100_000))]
    max_tokens: usize,
    /// How many of the best-matching notes to draw from (default 8).
    #[serde(default = "default_notes")]
    #[schemars(range(min = 1, max = 50))]
    notes: usize,
}

/// The hand-off note of a `bootstrap` call.
#[derive(Debug, Serialize, JsonSchema)]
struct Handoff {
    /// Where the vault keeps it (`bootstrap.handoffNote`).
    path: String,
    /// Whether it was read.
    found: bool,
    /// What was found, in words.
    message: String,
    /// The note (its start when it did not fit `max_tokens`), when found.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<LoadedNote>,
}

/// What `vault_context` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct VaultContextAnswer {
    /// The mode the call ran in.
    mode: Mode,
    /// The hand-off note (`bootstrap` mode only; its tokens count in `tokens_used`).
    #[serde(skip_serializing_if = "Option::is_none")]
    handoff: Option<Handoff>,
    /// The query's passages, as `get_context` packs them.
    #[serde(flatten)]
    context: Context,
}

/// The `vault_context` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "vault_context",
            "Context at a session start",
            "At the start of a session: the hand-off note the last session left \
             (mode bootstrap, the default without a query), then, given a query, the \
             passages get_context packs, all within one token budget (max_tokens).",
        ),
        "context",
        (
            input_schema::<VaultContext>(),
            output_schema::<VaultContextAnswer>(),
        ),
        vault_context,
    )
    .keywords(&[
        "hand-off",
        "handoff",
        "next session",
        "left off",
        "last session",
        "resume",
    ])
    .scopes(&["read:notes"])
}

fn vault_context(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: VaultContext = parse(args)?;
    let mode = args.mode.unwrap_or(match args.query {
        Some(_) => Mode::Query,
        None => Mode::Bootstrap,
    });
    if mode == Mode::Query && args.query.is_none() {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "mode 'query' needs a query: give one, or use mode 'bootstrap'",
        ));
    }
    let mut budget = Budget::new(ctx, args.max_tokens);
    let handoff = (mode == Mode::Bootstrap).then(|| handoff(ctx, &mut budget));
    let packed = match &args.query {
        Some(query) => pack(ctx, query, args.notes, &mut budget)?,
        None => Packed {
            notes: Vec::new(),
            left_out: 0,
        },
    };
    structured(&VaultContextAnswer {
        mode,
        handoff,
        context: Context::of(packed, &budget),
    })
}

/// The vault's hand-off note read into `budget`, or what was found instead.
fn handoff(ctx: &ToolContext<'_>, budget: &mut Budget) -> Handoff {
    let path = bootstrap_config(ctx)
        .handoff_note
        .trim_matches('/')
        .to_owned();
    let read = load(ctx, &path).and_then(|note| note.fit(budget, usize::MAX));
    let message = match &read {
        Ok(note) if note.truncated => "read first; cut to fit max_tokens".to_owned(),
        Ok(_) => "read first".to_owned(),
        Err(SkipReason::NotFound) => format!(
            "no hand-off note at {path} (or not one you may read): the last session left \
             nothing for this one"
        ),
        Err(SkipReason::NoRoom) => "the hand-off note does not fit max_tokens".to_owned(),
        Err(SkipReason::NotText) => format!("{path} is not a UTF-8 text note"),
        Err(SkipReason::Unreadable | SkipReason::MaxPaths) => {
            format!("{path} could not be read just now; try again")
        }
    };
    Handoff {
        path,
        found: read.is_ok(),
        message,
        note: read.ok(),
    }
}

//! `bulk_move_notes`: move many notes at once, rewriting every link the moves break, all or
//! nothing. Its scopes put it on the HITL floor (every call needs a human). Each item is
//! checked first (readable, deletable, the destination writable and free, no path named
//! twice); if any item fails its check, nothing moves and each item says why. If a write
//! or a move fails while committing, everything done is undone ([`crate::tools::common::relink`]).

use std::collections::BTreeSet;

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::complete_link_table;
use crate::tools::common::relink::{PlannedMove, commit, plan_moves};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::VaultError;

/// The arguments of `bulk_move_notes`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BulkMoveArgs {
    /// The moves, applied together.
    #[schemars(length(min = 1, max = 500))]
    moves: Vec<MoveItem>,
    /// Only show what would change; change nothing.
    #[serde(default)]
    dry_run: bool,
}

/// One move.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct MoveItem {
    /// The note's vault-relative path.
    #[schemars(length(min = 1, max = 1024))]
    from: String,
    /// Its new vault-relative path (must not exist; missing folders are created).
    #[schemars(length(min = 1, max = 1024))]
    to: String,
}

/// The outcome of one move.
#[derive(Debug, Serialize, JsonSchema)]
struct ItemResult {
    /// The note's path (canonical when it exists).
    from: String,
    /// Its new path.
    to: String,
    /// `moved`, `would_move`, `invalid` (this item failed its check) or `not_moved`
    /// (another item failed, so nothing moved).
    status: &'static str,
    /// Why the item failed its check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<ItemError>,
}

/// Why one item failed its check.
#[derive(Debug, Serialize, JsonSchema)]
struct ItemError {
    /// The error code (`not_found`, `already_exists`, `acl_denied`, `invalid_input`, ...).
    code: &'static str,
    /// What went wrong and what to do.
    message: String,
}

/// What `bulk_move_notes` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct BulkMoveResult {
    /// Whether the moves were made (false for a dry run or when an item failed its check).
    applied: bool,
    /// Whether this was a dry run.
    dry_run: bool,
    /// One result per move, in the order given.
    items: Vec<ItemResult>,
    /// How many links were (or would be) rewritten.
    links_rewritten: usize,
    /// The notes whose links were (or would be) rewritten, by their path before the moves.
    notes_rewritten: Vec<String>,
    /// Notes linking to a moved note that the caller may not write: left as they are.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    skipped_notes: Vec<String>,
    /// Links that needed a change but could not be rewritten.
    skipped_links: usize,
}

/// The `bulk_move_notes` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("bulk_move_notes", "Move many notes", "Batch-move many notes in one go, updating every link to them. All or nothing: if any item fails its check or any write fails, nothing changes. Always needs the user's confirmation; per-item results."),
"notes",
(input_schema::<BulkMoveArgs>(), output_schema::<BulkMoveResult>()),
bulk_move_notes,
)
.keywords(&["these notes", "all at once", "many notes", "batch move", "mass move", "restructure folders", "relocate many", "move many", "move several"])
.scopes(&["write:notes", "delete:notes", "bulk:notes"])
.idempotent(true)
}

fn bulk_move_notes(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: BulkMoveArgs = parse(args)?;
    let checked: Vec<Result<PlannedMove, ToolError>> = args
        .moves
        .iter()
        .map(|item| check_item(ctx, item))
        .collect();
    let mut checked = refuse_repeats(checked);
    if checked.iter().any(Result::is_err) {
        let items = args
            .moves
            .iter()
            .zip(checked.drain(..))
            .map(|(item, outcome)| match outcome {
                Ok(mv) => item_result(mv.from, mv.to, "not_moved", None),
                Err(error) => item_result(
                    item.from.clone(),
                    item.to.clone(),
                    "invalid",
                    Some(ItemError {
                        code: error.code.as_str(),
                        message: error.message,
                    }),
                ),
            })
            .collect();
        return structured(&BulkMoveResult {
            applied: false,
            dry_run: args.dry_run,
            items,
            links_rewritten: 0,
            notes_rewritten: Vec::new(),
            skipped_notes: Vec::new(),
            skipped_links: 0,
        });
    }
    let moves: Vec<PlannedMove> = checked.into_iter().flatten().collect();
    let pairs: Vec<(String, String)> = moves
        .iter()
        .map(|mv| (mv.from.clone(), mv.to.clone()))
        .collect();
    let plan = plan_moves(ctx, &*complete_link_table(ctx)?, &pairs)?;
    let status = if args.dry_run { "would_move" } else { "moved" };
    let mut targets = moves.clone();
    if !args.dry_run {
        let moved = commit(ctx, &plan, &moves)?;
        for (mv, to) in targets.iter_mut().zip(moved) {
            mv.to = to;
        }
    }
    structured(&BulkMoveResult {
        applied: !args.dry_run,
        dry_run: args.dry_run,
        items: targets
            .into_iter()
            .map(|mv| item_result(mv.from, mv.to, status, None))
            .collect(),
        links_rewritten: plan.links(),
        notes_rewritten: plan.visible_notes(ctx),
        skipped_notes: plan.skipped_notes,
        skipped_links: plan.skipped_links,
    })
}

fn item_result(
    from: String,
    to: String,
    status: &'static str,
    error: Option<ItemError>,
) -> ItemResult {
    ItemResult {
        from,
        to,
        status,
        error,
    }
}

/// Checks one move: the source exists and may be read and deleted, the destination may be
/// written and is free.
fn check_item(ctx: &ToolContext<'_>, item: &MoveItem) -> Result<PlannedMove, ToolError> {
    ctx.check_path(&item.from, AclOp::Read)?;
    ctx.check_path(&item.from, AclOp::Delete)?;
    ctx.check_path(&item.to, AclOp::Write)?;
    let source = ctx
        .vault()
        .read(&item.from)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    match ctx.vault().read(&item.to) {
        Err(VaultError::NotFound { .. }) => {}
        Ok(file) => {
            let exists = VaultError::AlreadyExists { path: file.path };
            return Err(tool_error_from_vault(&exists, AclOp::Write));
        }
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Write)),
    }
    Ok(PlannedMove {
        from: source.path,
        to: item.to.clone(),
        sha256: source.sha256,
        replaces: None,
    })
}

/// Refuses the items that name a source twice, a destination twice, or a destination that
/// is another item's source (chains and swaps are not supported: split them in two calls).
fn refuse_repeats(
    checked: Vec<Result<PlannedMove, ToolError>>,
) -> Vec<Result<PlannedMove, ToolError>> {
    let key = |path: &str| path.to_lowercase();
    let sources: Vec<String> = checked.iter().flatten().map(|mv| key(&mv.from)).collect();
    let mut seen_from = BTreeSet::new();
    let mut seen_to = BTreeSet::new();
    checked
        .into_iter()
        .map(|outcome| {
            let mv = outcome?;
            let repeated = !seen_from.insert(key(&mv.from))
                || !seen_to.insert(key(&mv.to))
                || sources.contains(&key(&mv.to));
            if repeated {
                return Err(ToolError::new(
                    ErrorCode::InvalidInput,
                    format!(
                        "{} -> {} names a path another item also moves or fills; move each note once, to a free path",
                        mv.from, mv.to
                    ),
                ));
            }
            Ok(mv)
        })
        .collect()
}

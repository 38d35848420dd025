//! The open contradictions a caller may see: a stored pair touching one of the given notes,
//! shown only when the caller may read both sides and both still hold the judged text
//! (`list_contradictions`, and `knowledge_challenge`'s count over its evidence).

use crate::errors::ToolError;
use crate::index::contradictions::still_holds;
use crate::runtime::ToolContext;
use crate::store::{ContradictionRow, store_fault};

/// The open contradictions touching `paths` that the caller of `ctx` may see, oldest first.
pub(crate) fn visible_open(
    ctx: &ToolContext<'_>,
    paths: &[String],
) -> Result<Vec<ContradictionRow>, ToolError> {
    let repo = ctx.store().contradictions();
    let rows: Vec<_> = repo
        .open(ctx.vault_id(), Some(paths))
        .map_err(store_fault)?
        .into_iter()
        .filter(|row| ctx.may_list(&row.source.path) && ctx.may_list(&row.conflict.path))
        .collect();
    let current = repo
        .current_hashes(
            ctx.vault_id(),
            rows.iter()
                .flat_map(|row| [row.source.path.as_str(), row.conflict.path.as_str()]),
        )
        .map_err(store_fault)?;
    Ok(rows
        .into_iter()
        .filter(|row| still_holds(row, &current))
        .collect())
}

//! Paging a list: the cursor a tool returns and takes back, and the page of a whole list.

use schemars::JsonSchema;
use serde::Serialize;

use crate::errors::{ErrorCode, ToolError};

/// The offset a paging tool's `cursor` carries (0 without one).
pub(crate) fn cursor_offset(cursor: Option<&str>) -> Result<usize, ToolError> {
    let Some(cursor) = cursor else {
        return Ok(0);
    };
    cursor.parse().map_err(|_| {
        ToolError::new(
            ErrorCode::InvalidInput,
            "the cursor is not one this tool returned; start again without it",
        )
    })
}

/// The page size when no `limit` is given.
pub(crate) const DEFAULT_LIMIT: usize = 100;

/// The most items one page of a list may hold.
pub(crate) const MAX_LIMIT: usize = 1000;

/// The page size an optional `limit` asks for: [`DEFAULT_LIMIT`] without one, at least 1 and
/// at most [`MAX_LIMIT`].
pub(crate) fn page_size(limit: Option<usize>) -> usize {
    limit.unwrap_or(DEFAULT_LIMIT).clamp(1, MAX_LIMIT)
}

/// The default of `limit`.
pub(crate) fn default_limit() -> usize {
    DEFAULT_LIMIT
}

/// A page of a list.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Page<T> {
    /// The items of this page.
    pub(crate) items: Vec<T>,
    /// How many items the whole list has (all pages).
    pub(crate) total_count: usize,
    /// Pass this as `cursor` to get the next page; absent on the last page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cursor: Option<String>,
}

/// The page of `all` that starts at `cursor` (an offset this tool returned) and holds at
/// most `limit` items.
pub(crate) fn page<T>(
    all: Vec<T>,
    cursor: Option<&str>,
    limit: usize,
) -> Result<Page<T>, ToolError> {
    let total_count = all.len();
    let start = cursor_offset(cursor)?;
    if start > total_count {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "the cursor is past the end of the list; start again without it",
        ));
    }
    let end = start.saturating_add(limit).min(total_count);
    let items: Vec<T> = all.into_iter().skip(start).take(end - start).collect();
    Ok(Page {
        items,
        total_count,
        cursor: (end < total_count).then(|| end.to_string()),
    })
}

//! The per-item results of a bulk call, and how the call ends: a result when every item
//! succeeded, `bulk_partial` with the results in `details` when some failed. The notes a
//! bulk call wrote are re-read into the index here (dispatch only refreshes single paths).

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Value, json};

use crate::errors::{ErrorCode, ToolError};
use crate::tools::common::structured::structured;

/// What happened to one item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(super) enum ItemStatus {
    /// A new note was written.
    Created,
    /// An existing note was replaced (`overwrite`).
    Overwritten,
    /// An existing note was edited.
    Updated,
    /// The note already was as asked; nothing was written.
    Unchanged,
    /// Nothing was written for this item; `error` says why.
    Failed,
}

/// Why one item failed.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(super) struct ItemError {
    /// The error code (`already_exists`, `acl_denied`, `not_found`, ...).
    code: ErrorCode,
    /// What went wrong and what to do.
    message: String,
}

/// The result of one item.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub(super) struct ItemResult {
    /// The note's vault-relative path (canonical when it was written).
    pub(super) path: String,
    /// What happened.
    pub(super) status: ItemStatus,
    /// The note's SHA-256 after the call, when it exists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) sha256: Option<String>,
    /// Why the item failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) error: Option<ItemError>,
}

impl ItemResult {
    /// A successful item.
    pub(super) fn done(path: String, status: ItemStatus, sha256: String) -> ItemResult {
        ItemResult {
            path,
            status,
            sha256: Some(sha256),
            error: None,
        }
    }

    /// A failed item.
    pub(super) fn failed(path: &str, error: &ToolError) -> ItemResult {
        ItemResult {
            path: path.to_owned(),
            status: ItemStatus::Failed,
            sha256: None,
            error: Some(ItemError {
                code: error.code,
                message: error.message.clone(),
            }),
        }
    }

    /// Whether this item wrote a note.
    fn wrote(&self) -> bool {
        matches!(
            self.status,
            ItemStatus::Created | ItemStatus::Overwritten | ItemStatus::Updated
        )
    }
}

/// What a bulk call returns when every item succeeded.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BulkResult {
    /// One result per item, in request order.
    results: Vec<ItemResult>,
    /// How many items wrote a note.
    written: usize,
    /// How many items were already as asked.
    unchanged: usize,
}

/// Ends a bulk call over `results` (dispatch re-indexes what was written): the result,
/// or `bulk_partial` (with the same fields in `details`) when an item failed.
pub(super) fn finish(results: Vec<ItemResult>) -> Result<Value, ToolError> {
    let failed = results
        .iter()
        .filter(|item| item.status == ItemStatus::Failed)
        .count();
    let result = BulkResult {
        written: results.iter().filter(|item| item.wrote()).count(),
        unchanged: results
            .iter()
            .filter(|item| item.status == ItemStatus::Unchanged)
            .count(),
        results,
    };
    if failed == 0 {
        return structured(&result);
    }
    let mut details = structured(&result)?;
    if let Value::Object(map) = &mut details {
        map.insert("failed".to_owned(), json!(failed));
    }
    Err(ToolError::new(
        ErrorCode::BulkPartial,
        format!(
            "{failed} of {} items failed and {} were written; details.results says which and why",
            result.results.len(),
            result.written
        ),
    )
    .with_details(details))
}

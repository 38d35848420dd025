//! Writing a base: its sections rendered as YAML the way properties are written, parsed back
//! with the base parser before anything is written, and the result reported.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use super::load::parse_base_text;
use crate::dispatch::ToolContext;
use crate::errors::ToolError;
use crate::frontmatter::property_lines;
use crate::tools::structured::structured;
use crate::tools::write_back::write_back;

/// The result of `create_base` and `update_base`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BaseWritten {
    /// The base's path.
    pub path: String,
    /// Whether the file did not exist before.
    pub created: bool,
    /// The view names now, in order.
    pub view_names: Vec<String>,
    /// The file's SHA-256 now.
    pub sha256: String,
    /// Its SHA-256 before (when it replaced a file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub previous_sha256: Option<String>,
}

/// A base rendered and checked, ready to write.
pub(super) struct Prepared {
    /// The YAML text.
    text: String,
    /// Its view names, in order.
    view_names: Vec<String>,
}

/// Renders `sections` (top-level keys in the given order) as YAML and checks that the text
/// parses as a base, before anything is asked or written.
pub(super) fn prepare(path: &str, sections: &[(String, Value)]) -> Result<Prepared, ToolError> {
    let text: String = sections
        .iter()
        .map(|(key, value)| property_lines(key, value, "\n"))
        .collect();
    let (_, base) = parse_base_text(path, &text)?;
    Ok(Prepared {
        text,
        view_names: base.views.into_iter().map(|v| v.name).collect(),
    })
}

/// Writes a prepared base to `path`: a new file, or (with `previous_sha256`) a replacement
/// of the file that still has that content.
pub(super) fn write_base(
    ctx: &ToolContext<'_>,
    path: &str,
    prepared: Prepared,
    previous_sha256: Option<String>,
) -> Result<Value, ToolError> {
    let written = write_back(ctx, path, prepared.text.as_bytes(), previous_sha256.clone())?;
    structured(&BaseWritten {
        path: written.path,
        created: written.created,
        view_names: prepared.view_names,
        sha256: written.sha256,
        previous_sha256,
    })
}

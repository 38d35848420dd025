//! Reading a `.canvas` file and writing one back.

use engine_core::acl::AclOp;

use super::model::{Canvas, invalid};
use crate::errors::ToolError;
use crate::runtime::ToolContext;
use crate::tools::common::vault_error::{check_expected, tool_error_from_vault};
use crate::tools::common::write_back::write_back;
use crate::vault::WriteOutcome;

/// A canvas as read.
pub(super) struct CanvasFile {
    /// Its canonical path.
    pub path: String,
    /// The SHA-256 of the bytes read.
    pub sha256: String,
    /// The parsed canvas.
    pub canvas: Canvas,
}

/// Refuses a path that is not a `.canvas` file.
pub(super) fn require_canvas_path(path: &str) -> Result<(), ToolError> {
    if path.to_lowercase().ends_with(".canvas") {
        Ok(())
    } else {
        Err(invalid(format!(
            "'{path}' is not a .canvas file: pass the path of a canvas, e.g. 'Boards/Plan.canvas'"
        )))
    }
}

/// Reads and parses the canvas at `path`; with `expected_sha256`, refuses a canvas that
/// changed since (`concurrent_modification`).
pub(super) fn load_canvas(
    ctx: &ToolContext<'_>,
    path: &str,
    expected_sha256: Option<&str>,
) -> Result<CanvasFile, ToolError> {
    require_canvas_path(path)?;
    let file = ctx
        .vault()
        .read(path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    check_expected(&file.path, Some(&file.sha256), expected_sha256)?;
    let text = String::from_utf8(file.bytes)
        .map_err(|_| invalid(format!("'{}' is not UTF-8 text", file.path)))?;
    let canvas = Canvas::parse(&text, &file.path)?;
    Ok(CanvasFile {
        path: file.path,
        sha256: file.sha256,
        canvas,
    })
}

/// Writes `canvas` to `path`: over the file read with `replacing` (its SHA-256 the
/// precondition), or as a new file.
pub(super) fn write_canvas_file(
    ctx: &ToolContext<'_>,
    path: &str,
    canvas: &Canvas,
    replacing: Option<String>,
) -> Result<WriteOutcome, ToolError> {
    write_back(ctx, path, canvas.to_text().as_bytes(), replacing)
}

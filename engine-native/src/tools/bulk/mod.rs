//! The bulk note tools (domain `notes`, scopes `write:notes` + `bulk:notes`, so every call
//! needs a human's confirmation through the `bulk` HITL floor):
//!
//! - `create`: `bulk_create_notes` — many new notes in one call, never over an existing note
//!   unless `overwrite` is asked; a note that already has the requested content is
//!   `unchanged` (a repeated call is harmless), and the call takes an `idempotency_key`.
//! - `set_property`: `bulk_set_property` — one frontmatter property set on the notes named by
//!   `paths`, or on every note under a folder and/or with a tag the caller may write.
//!
//! Both report one result per item (`outcome`); when some items failed the call fails
//! with `bulk_partial` and the per-item results in `details`.

mod create;
mod outcome;
mod set_property;

use crate::runtime::ToolDef;

/// The bulk note tools.
pub fn tools() -> Vec<ToolDef> {
    vec![create::tool(), set_property::tool()]
}

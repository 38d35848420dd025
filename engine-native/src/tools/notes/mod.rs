//! The note tools over the vault backend, one module per tool or small group:
//!
//! - `exists`: `note_exists`; `read`: `read_note` (whole, or lines / heading / block);
//!   `read_many`: `read_notes` (per-path results); `list`: `list_notes` (paged, ACL-filtered).
//! - `write`: `write_note` (create / overwrite / upsert); `append`: `append_note`;
//!   `patch`: `patch_note` — all three with `dry_run` previews, `expected_sha256` and
//!   `idempotency_key`, and conditional confirmation (v1 §2.4) through [`ToolContext::confirm`].
//! - `edit_note`: line operations (`line_patch`) checked against the expected old text,
//!   all or nothing, dry run by default.
//! - `transfer`: `move_note`, `copy_note`; `delete`: `delete_note` (soft delete, HITL).
//!
//! Notes are handed out and taken as text with LF line breaks and without a BOM; every write
//! puts back the BOM and line endings the note had ([`crate::vault::TextFile`]).
//!
//! [`ToolContext::confirm`]: crate::runtime::ToolContext::confirm

mod append;
mod delete;
mod edit_note;
mod exists;
mod line_patch;
mod list;
mod patch;
mod read;
mod read_many;
mod transfer;
mod write;

use crate::runtime::ToolDef;

pub use read_many::MAX_PATHS;

/// The note tools.
pub fn tools() -> Vec<ToolDef> {
    let mut tools = vec![
        exists::tool(),
        read::tool(),
        read_many::tool(),
        list::tool(),
        write::tool(),
        append::tool(),
        patch::tool(),
        edit_note::tool(),
        delete::tool(),
    ];
    tools.extend(transfer::tools());
    tools
}

//! Pure text operations behind the note tools: reading part of a note (lines, a heading's
//! section, a block), appending, patching, and a diff preview for `dry_run`.
//!
//! Everything works on LF text without a BOM (the tools decode files with
//! [`crate::vault::TextFile`]) and reads the note's structure from
//! `engine_core::markdown::extract`. No function does I/O or panics; each returns a typed
//! result or an [`EditError`] with a stable code, and an error means nothing changed.
//! Every edit reports the lines it removed and added and whether it discards so much of the
//! note that a human must confirm it ([`needs_confirmation`]).

mod append;
mod diff;
mod error;
mod guard;
mod heading_path;
mod locate;
mod outcome;
mod patch;
mod preview;
mod read;
mod text_lines;

pub use append::{AppendAt, append};
pub use error::{Candidate, EditError};
pub use guard::{CONFIRM_LINES, needs_confirmation};
pub use heading_path::heading_paths;
pub use outcome::Edit;
pub use patch::{PatchTarget, patch};
pub use preview::preview;
pub use read::{LineRange, ReadTarget, Selection, read_range};

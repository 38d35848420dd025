//! Note properties (YAML frontmatter): reading them as typed JSON values, editing them
//! without touching the bytes of anything not edited, per-note types and predicates.
//!
//! - [`read()`], [`property`]: the properties of a note. Values follow the YAML 1.2 core
//!   schema like Obsidian does: `zip: 01234` reads as the number 1234, `version: 1.10` as
//!   1.1, `date: 2024-01-05` as text. Reading never changes a byte; quote such values to
//!   read them as text.
//! - [`apply`] with an [`Edit`]: `set`, `remove`, `merge` change only the lines of the
//!   properties they touch; `replace` rewrites the whole block.
//! - [`property_types`], [`PropertyType`]: the typed properties of one note.
//! - [`matches()`], [`PropertyQuery`]: does a note have a property / value / list element.
//!
//! Line breaks: new lines use the break of the block's opening `---` line (or the note's,
//! when a block is created), so CRLF notes stay CRLF; a BOM stays in front of the block.

mod edit;
mod emit;
mod error;
mod key;
mod layout;
mod query;
mod read;
mod types;
mod yaml_value;

pub use edit::{Edit, EditResult, apply, block_of};
pub(crate) use emit::property_lines;
pub use error::FrontmatterError;
pub use query::{PropertyQuery, matches};
pub use read::{Frontmatter, property, read};
pub use types::{PropertyType, property_types};
pub(crate) use yaml_value::parse_properties;

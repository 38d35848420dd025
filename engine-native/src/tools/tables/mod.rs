//! Markdown (GFM) table tools (domain `structured`), each an edit of one note through the
//! note edit flow (`expected_sha256`, `dry_run` with a diff, the data-loss guard):
//!
//! - `format_table`, `insert_table_row`, `insert_table_column`, `sort_table_by_column`
//!   (`tools`), on a table located by its index in the note or by the heading it sits under.
//!
//! The pure table model is in `gfm`: cells split on unescaped pipes outside inline code,
//! alignment honoured; every edited table is written back formatted.

mod gfm;
mod tools;

pub use tools::tools;

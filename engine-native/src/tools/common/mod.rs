//! What several tool families use, so that no family uses another (`tests/it/layers.rs`
//! checks it): arguments and results as typed structs, paging, the vault's errors and
//! writes, the search index, what rankings read (`searchable`) and the link table, link rewriting, note edits, frontmatter
//! reading, and calls to TC Bridge.

pub(crate) mod admin;
pub mod args;
pub(crate) mod budget;
pub(crate) mod companion;
pub(crate) mod contradictions;
pub(crate) mod edit_error;
pub(crate) mod edit_flow;
pub(crate) mod file_name;
pub(crate) mod frontmatter;
pub(crate) mod index;
pub(crate) mod link_table;
pub(crate) mod memory_folder;
pub(crate) mod model;
pub(crate) mod note_text;
pub mod note_uri;
pub(crate) mod ordered_json;
pub(crate) mod paging;
pub(crate) mod preload;
pub(crate) mod relink;
pub(crate) mod retrieval_log;
pub(crate) mod searchable;
pub mod structured;
pub mod vault_error;
pub(crate) mod whole_vault;
pub mod write_back;

//! obsidian-tc, the native server: configuration, the SQLite store, the vault filesystem
//! backend, and the dispatch pipeline's gates. `src/main.rs` is the command line over it.
#![warn(missing_docs)]

pub mod config;
pub mod errors;
pub mod frontmatter;
pub mod governor;
pub mod store;
pub mod throttle;
pub mod vault;

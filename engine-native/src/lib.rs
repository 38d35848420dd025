//! obsidian-tc, the native server: configuration, the SQLite store, the vault filesystem
//! backend, the dispatch pipeline and its gates, and the tools. `src/main.rs` is the command line over it.
#![warn(missing_docs)]

pub mod auth;
pub mod bases;
pub mod bridge;
pub mod calendar;
pub mod cli;
pub mod companion;
pub mod config;
pub mod dispatch;
pub mod edits;
pub mod embed;
pub mod errors;
pub mod facade;
pub mod frontmatter;
pub mod governor;
pub mod index;
pub mod mcp;
pub mod periodic;
pub mod store;
pub mod tasks;
pub mod throttle;
pub mod tools;
pub mod vault;
pub mod vectors;

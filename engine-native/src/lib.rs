//! obsidian-tc, the native server: configuration, the SQLite store, the vault filesystem
//! backend, the dispatch pipeline and its gates, and the tools. `src/main.rs` is the command
//! line over it.
//!
//! # Layers
//!
//! The modules form layers, listed here from the top. A module uses only modules of the
//! layers below its own, never one of its own layer or above (`tests/it/layers.rs` reads
//! every `crate::` path of `src/` and fails on any other):
//!
//! 1. [`cli`]: the command line.
//! 2. [`stdio_bridge`], [`upkeep`]: the stdio relay of TC Bridge for Claude Desktop; what a
//!    serving process does in the background (watchers, scans, embedding, cache sweeps).
//! 3. [`mcp`]: the MCP server over stdio and Streamable HTTP.
//! 4. [`dispatch`]: the pipeline every tool call passes, over the built-in tools.
//! 5. [`facade`]: how the catalog is offered to clients (`find_capability`, envelopes).
//! 6. [`tools`]: the tools.
//! 7. [`runtime`]: the tool contract and the state every call shares.
//! 8. [`companion`], [`index`], [`inference`], [`vault_cache`]: the client of TC Bridge inside
//!    Obsidian; the search index; the language model the knowledge tools call; where a
//!    zero-config vault's cache folder is, found again after a move.
//! 9. [`audit`], [`config`], [`vectors`]: reading the audit log; the configuration; embedding
//!    vectors, stored and in memory.
//! 10. [`auth`], [`embed`], [`governor`], [`schema`], [`sessions`], [`store`], [`telemetry`], [`throttle`]:
//!     bearer tokens and callers; embedding providers; the result byte limit; JSON Schema
//!     validation; sessions and their JSONL traces; the SQLite cache; logs and OpenTelemetry
//!     spans; rate limits.
//! 11. [`bases`], [`memory`], [`note`], [`periodic`], [`task_line`]: what an Obsidian file
//!     says (a base, an entity of agent memory, a note, a periodic note's place, a task line).
//! 12. [`calendar`], [`content`], [`edits`], [`errors`], [`frontmatter`], [`http_client`], [`vault`], [`vcs`], [`workers`]:
//!     dates, secrets and prompt-injection shapes in text, text edits, the tool error, YAML
//!     frontmatter, outgoing HTTP clients, the vault's files, the git repository holding the
//!     vault, and one job run on several threads.
#![warn(missing_docs)]

pub mod audit;
pub mod auth;
pub mod bases;
pub mod calendar;
pub mod cli;
pub mod companion;
pub mod config;
pub mod content;
pub mod dispatch;
pub mod edits;
pub mod embed;
pub mod errors;
pub mod facade;
pub mod frontmatter;
pub mod governor;
pub mod http_client;
pub mod index;
pub mod inference;
pub mod mcp;
pub mod memory;
pub mod note;
pub mod periodic;
pub mod runtime;
pub mod schema;
pub mod sessions;
pub mod stdio_bridge;
pub mod store;
pub mod task_line;
pub mod telemetry;
pub mod throttle;
pub mod tools;
pub mod upkeep;
pub mod vault;
pub mod vault_cache;
pub mod vcs;
pub mod vectors;
pub mod workers;

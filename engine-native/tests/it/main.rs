//! engine-native's integration tests, one test binary (linking candle, tokenizers, SQLite,
//! rmcp and axum once, not once per file). Each module is named after the `obsidian_tc`
//! module it tests (`src/<module>/` ↔ `tests/it/<module>/`); helpers shared between modules
//! live in `support`. The few tests that need the test-only `fault-injection` feature are in
//! the `faults` binary (`tests/faults/`), which shares `support`. proptest keeps the failure
//! seeds of `tests/it/<path>.rs` in `tests/proptest-regressions/<path>.txt` (its rule for a
//! source file below a `main.rs`), where they are re-run before any new case.
//!
//! One process runs every test on parallel threads: a test must not change process-wide
//! state (the current directory, environment variables, a global subscriber); what needs
//! one runs in a child process, as `vault::crash` and `config::load` do.

mod support;

mod auth;
mod cli;
mod companion;
mod config;
mod content;
mod dispatch;
mod docs;
mod edits;
mod embed;
mod errors;
mod facade;
mod frontmatter;
mod governor;
mod index;
mod inference;
mod layers;
mod mcp;
mod metrics;
mod runtime;
mod source_index;
mod store;
mod telemetry;
mod throttle;
mod tools;
mod upkeep;
mod vault;
mod vault_cache;
mod vcs;
mod vectors;

//! The tests that need the test-only `fault-injection` feature: a file marked with
//! `obsidian_tc::vault::fault::RefuseChanges` (through `support::dispatch::Immutable`) refuses
//! every change, so a multi-file change fails part-way and must roll back. This binary is
//! built only with that feature (`required-features` in Cargo.toml; the product never has
//! it): `cargo test --workspace --features obsidian-tc/fault-injection`. Every other test
//! is in `it`, whose `support` folder this binary shares; modules mirror `src/` as there.

// The helpers of every test family; these tests use a few.
#[allow(dead_code)]
#[path = "../it/support/mod.rs"]
mod support;

mod tools;

//! engine-core's integration tests, one test binary: property tests, the JSONLogic suites and
//! runs over the real vaults, each module named after the `engine_core` module it tests
//! (`src/<module>/` ↔ `tests/it/<module>/`); helpers shared between modules live in `support`.

mod support;

mod acl;
mod hash;
mod jsonlogic;
mod links;
mod markdown;
mod rank;
mod text;

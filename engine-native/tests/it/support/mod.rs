//! Helpers shared by the test modules, compiled once per test binary (`it`, and `faults`,
//! which includes this folder with `#[path]`): one module per family of tests.

pub mod attachments;
pub mod auth;
pub mod companion;
pub mod dispatch;
pub mod embed;
pub mod gates;
pub mod hub_mirror;
pub mod links;
pub mod mcp;
pub mod store;
pub mod vectors;

/// The name the test harness knows the test function `function` of module `module_path` by
/// (pass `module_path!()`): the module path without the crate, then the function, as
/// `--exact` wants it. For tests that re-run themselves in a child process of this binary.
pub fn test_name(module_path: &str, function: &str) -> String {
    match module_path.split_once("::") {
        Some((_crate, module)) => format!("{module}::{function}"),
        None => function.to_owned(),
    }
}

//! Fuzzes tool calls through the real dispatch pipeline (lookup, schema validation, scopes,
//! vault binding, ACL, handler, governor) on a temporary vault.
//!
//! Input layout: the first byte picks a registered tool (by name order); the rest is the
//! call's arguments as JSON, or, when it is not JSON, that text as a JSON string (a wrong
//! type). Every outcome must be an object or a typed error that is not `internal`.
#![no_main]

use fuzz_support::fixture;
use libfuzzer_sys::fuzz_target;
use serde_json::Value;

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let fixture = fixture();
    let registry = fixture.dispatcher.runtime().registry();
    let mut names: Vec<&str> = registry.tools().map(|tool| tool.name()).collect();
    names.sort_unstable();
    let name = names[usize::from(pick) % names.len()];
    let args = serde_json::from_slice(rest)
        .unwrap_or_else(|_| Value::String(String::from_utf8_lossy(rest).into_owned()));
    let _ = fixture.call(name, args);
});

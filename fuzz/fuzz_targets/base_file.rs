//! Fuzzes `.base` files (Obsidian Bases, YAML) through the bases tools on a temporary vault:
//! the fuzzed bytes are written as a base, then `read_base` and `query_base` run through the
//! dispatcher.
//!
//! Every outcome must be an object or a typed error that is not `internal`. A base that reads
//! round-trips: `create_base` with what `read_base` returned writes a base that reads back
//! the same filters, formulas, properties and views.
#![no_main]

use fuzz_support::fixture;
use libfuzzer_sys::fuzz_target;
use serde_json::json;

/// The base the fuzzed bytes are written to, and the one its read is written back to.
const PATH: &str = "Fuzz.base";
const COPY: &str = "Copy.base";

fuzz_target!(|data: &[u8]| {
    let fixture = fixture();
    fixture.write(PATH, data);
    let _ = fixture.call("query_base", json!({"path": PATH}));
    let Ok(read) = fixture.call("read_base", json!({"path": PATH})) else {
        return;
    };
    let _ = std::fs::remove_file(fixture.vault().join(COPY));
    let mut create = json!({"path": COPY});
    for key in ["filters", "formulas", "properties", "views"] {
        if !read[key].is_null() {
            create[key] = read[key].clone();
        }
    }
    if fixture.call("create_base", create).is_err() {
        return;
    }
    let copy = fixture
        .call("read_base", json!({"path": COPY}))
        .expect("a created base reads back");
    for key in ["filters", "formulas", "properties", "views"] {
        assert_eq!(
            copy[key], read[key],
            "{key} differs after create_base of a read base"
        );
    }
});

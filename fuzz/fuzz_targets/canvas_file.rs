//! Fuzzes `.canvas` files (JSON Canvas) through the canvas tools on a temporary vault: the
//! fuzzed bytes are written as a canvas, then `read_canvas`, `query_canvas` and
//! `update_canvas` (adding one node, with the read's SHA-256) run through the dispatcher.
//!
//! Every outcome must be an object or a typed error that is not `internal`. A refused update
//! leaves the file's bytes as they were; an update that succeeds reads back as the canvas
//! read before plus the added node, the edges and other keys unchanged.
#![no_main]

use fuzz_support::fixture;
use libfuzzer_sys::fuzz_target;
use serde_json::{Value, json};

/// The canvas the fuzzed bytes are written to.
const PATH: &str = "Fuzz.canvas";

fuzz_target!(|data: &[u8]| {
    let fixture = fixture();
    fixture.write(PATH, data);
    let _ = fixture.call("query_canvas", json!({"paths": [PATH], "text": "a"}));
    let Ok(before) = fixture.call("read_canvas", json!({"path": PATH})) else {
        return;
    };
    let node = json!({"id": "fuzz-added-node", "type": "text", "text": "added", "x": 0, "y": 0, "width": 10, "height": 10});
    let update = json!({"path": PATH, "expected_sha256": before["sha256"], "add_nodes": [node]});
    if fixture.call("update_canvas", update).is_err() {
        assert_eq!(
            fixture.read(PATH),
            data,
            "a refused update changed the canvas"
        );
        return;
    }
    let after = fixture
        .call("read_canvas", json!({"path": PATH}))
        .expect("an updated canvas reads back");
    let nodes = |canvas: &Value| canvas["nodes"].as_array().cloned().unwrap_or_default();
    let (old, new) = (nodes(&before), nodes(&after));
    assert_eq!(
        new.len(),
        old.len() + 1,
        "not one node more after adding one"
    );
    assert_eq!(new[..old.len()], old[..], "the existing nodes changed");
    assert_eq!(
        new[old.len()]["id"],
        "fuzz-added-node",
        "the added node is not last"
    );
    assert_eq!(after["edges"], before["edges"], "the edges changed");
    assert_eq!(after["extra"], before["extra"], "the other keys changed");
});

//! Tool-call round trips on one long-lived session with obsidian-tc: `read_note`, interleaved
//! with `generate_uri` (the pipeline with a tool that touches no file) and `ping`.

use std::time::Duration;

use serde_json::{Value, json};

use crate::rpc::{Session, expect_success};

/// Three notes of obsidian-help-en at its size quartiles (about 1.7, 2.8 and 5.1 KB): what
/// the round-trip benchmarks read.
pub const NOTES: [&str; 3] = [
    "Import notes/Import CSV files.md",
    "Getting started/Import notes.md",
    "Editing and formatting/Editing shortcuts.md",
];

/// The samples of one transport.
pub struct RoundTrips {
    /// `tools/call read_note`.
    pub read_note: Vec<Duration>,
    /// `tools/call generate_uri` (builds an `obsidian://` URI; reads and writes nothing).
    pub generate_uri: Vec<Duration>,
    /// Protocol-level `ping`.
    pub ping: Vec<Duration>,
}

fn call(name: &str, arguments: Value) -> Value {
    json!({"name": name, "arguments": arguments})
}

/// Runs `calls` rounds, each one `read_note` (cycling through `notes`), one `generate_uri`
/// and one `ping`, rotating their order; every answer is checked to be a success. A first
/// round of each, untimed, warms the server.
pub fn measure(
    subject: &mut dyn Session,
    notes: &[&str],
    calls: usize,
) -> Result<RoundTrips, String> {
    let mut out = RoundTrips {
        read_note: Vec::with_capacity(calls),
        generate_uri: Vec::with_capacity(calls),
        ping: Vec::with_capacity(calls),
    };
    let mut id = 1;
    for round in 0..=calls {
        let note = notes[round % notes.len()];
        for step in 0..3 {
            id += 1;
            let (sample, what) = match (round + step) % 3 {
                0 => {
                    let (took, response) = subject.request(
                        id,
                        "tools/call",
                        call("read_note", json!({"path": note})),
                    )?;
                    expect_success(&response, &format!("read_note {note}"))?;
                    (took, &mut out.read_note)
                }
                1 => {
                    let (took, response) = subject.request(
                        id,
                        "tools/call",
                        call("generate_uri", json!({"action": "search", "query": note})),
                    )?;
                    expect_success(&response, "generate_uri")?;
                    (took, &mut out.generate_uri)
                }
                _ => {
                    let (took, response) = subject.request(id, "ping", json!({}))?;
                    expect_success(&response, "ping")?;
                    (took, &mut out.ping)
                }
            };
            if round > 0 {
                what.push(sample);
            }
        }
    }
    Ok(out)
}

//! Tool-call round trips on long-lived sessions: `read_note` on obsidian-tc, interleaved with
//! the empty tool on the baseline server and `ping` on obsidian-tc.

use std::time::Duration;

use serde_json::{Value, json};

use crate::bench_support::host::EMPTY_TOOL;
use crate::bench_support::rpc::{Session, expect_success};

/// The samples of one transport.
pub struct RoundTrips {
    /// `tools/call read_note` on obsidian-tc.
    pub read_note: Vec<Duration>,
    /// `tools/call` of the empty tool on the baseline server (same library and pipeline).
    pub empty_tool: Vec<Duration>,
    /// Protocol-level `ping` on obsidian-tc.
    pub ping: Vec<Duration>,
}

fn call(name: &str, arguments: Value) -> Value {
    json!({"name": name, "arguments": arguments})
}

/// Runs `calls` rounds, each one `read_note` (cycling through `notes`), one empty-tool call
/// and one `ping`, rotating their order; every answer is checked to be a success. A first
/// round of each, untimed, warms both servers.
pub fn measure(
    subject: &mut dyn Session,
    baseline: &mut dyn Session,
    notes: &[&str],
    calls: usize,
) -> Result<RoundTrips, String> {
    let mut out = RoundTrips {
        read_note: Vec::with_capacity(calls),
        empty_tool: Vec::with_capacity(calls),
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
                    let (took, response) =
                        baseline.request(id, "tools/call", call(EMPTY_TOOL, json!({})))?;
                    expect_success(&response, EMPTY_TOOL)?;
                    (took, &mut out.empty_tool)
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

//! Start-up time: from spawning a stdio MCP server to its `initialize` response.

use std::process::Command;
use std::time::{Duration, Instant};

use crate::rpc::{Session, expect_success, initialize_params};
use crate::stdio_client::StdioSession;

/// Spawns `command`, writes `initialize` at once and returns the time from just before the
/// spawn until the response line arrived; then closes stdin and waits for the process.
pub fn time_to_initialize(command: Command) -> Result<Duration, String> {
    let start = Instant::now();
    let mut session = StdioSession::spawn(command)?;
    let until_written = start.elapsed();
    let (answer, response) = session.request(0, "initialize", initialize_params())?;
    expect_success(&response, "initialize")?;
    session.close()?;
    Ok(until_written + answer)
}

/// Times `runs` start-ups of `subject` and of `baseline`, alternating which goes first, after
/// one untimed start of each (the warm cache). Returns (subject, baseline) samples.
pub fn compare(
    subject: &dyn Fn() -> Command,
    baseline: &dyn Fn() -> Command,
    runs: usize,
) -> Result<(Vec<Duration>, Vec<Duration>), String> {
    time_to_initialize(subject())?;
    time_to_initialize(baseline())?;
    let (mut subject_times, mut baseline_times) = (Vec::new(), Vec::new());
    for run in 0..runs {
        if run % 2 == 0 {
            subject_times.push(time_to_initialize(subject())?);
            baseline_times.push(time_to_initialize(baseline())?);
        } else {
            baseline_times.push(time_to_initialize(baseline())?);
            subject_times.push(time_to_initialize(subject())?);
        }
    }
    Ok((subject_times, baseline_times))
}

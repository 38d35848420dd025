//! Prometheus metrics (`obsidian_tc::runtime::metrics`, `GET /metrics` of
//! `obsidian_tc::mcp::http::metrics_route`, `obsidian-tc metrics` of `obsidian_tc::cli::metrics`):
//! a scripted session's counters over real HTTP, who may scrape, and the cache's report.
//! Every exposition is checked with `promtool check metrics` (Debian's `prometheus`
//! package, installed by scripts/test.sh).

mod access;
mod cache;
mod scrape;

use std::collections::BTreeMap;
use std::io::Write;
use std::process::{Command, Stdio};

/// The call counter's family.
pub const CALLS: &str = "obsidian_tc_tool_calls_total";

/// The environment variable naming the `promtool` binary (scripts/test.sh sets it).
const PROMTOOL_VAR: &str = "OBSIDIAN_TC_PROMTOOL";

/// The samples of an exposition: `name{labels}` as written (labels sorted by the encoder)
/// to value.
pub fn samples(text: &str) -> BTreeMap<String, f64> {
    text.lines()
        .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
        .map(|line| {
            let (series, value) = line.rsplit_once(' ').expect("a sample line");
            let value = value.parse().unwrap_or_else(|_| panic!("a number: {line}"));
            (series.to_owned(), value)
        })
        .collect()
}

/// The samples of family `name` only (exactly that name: no `_bucket`/`_sum` suffixes).
pub fn family(text: &str, name: &str) -> BTreeMap<String, f64> {
    samples(text)
        .into_iter()
        .filter(|(series, _)| series.split('{').next() == Some(name))
        .collect()
}

/// The sample `series` (name and labels as written), or `None`.
pub fn sample(text: &str, series: &str) -> Option<f64> {
    samples(text).get(series).copied()
}

/// The series `name{labels}` as the text encoder writes it (labels in the given order, which
/// must be the encoder's: sorted by label name).
pub fn series(name: &str, labels: &[(&str, &str)]) -> String {
    let labels: Vec<String> = labels
        .iter()
        .map(|(key, value)| format!("{key}=\"{value}\""))
        .collect();
    format!("{name}{{{}}}", labels.join(","))
}

/// The series of `obsidian_tc_tool_calls_total` for calls of `tool` (class `class`) in
/// `vault` that ended with `code`.
pub fn calls(vault: &str, tool: &str, class: &str, code: &str) -> String {
    let outcome = if code == "ok" { "ok" } else { "error" };
    series(
        CALLS,
        &[
            ("class", class),
            ("code", code),
            ("outcome", outcome),
            ("tool", tool),
            ("vault", vault),
        ],
    )
}

/// Runs `promtool check metrics` on `text` and fails on any problem it reports (errors and
/// lint findings alike). Fails, never skips, when promtool is missing.
pub fn promtool_check(text: &str) {
    let promtool = std::env::var(PROMTOOL_VAR).unwrap_or_else(|_| "promtool".to_owned());
    let mut child = Command::new(&promtool)
        .args(["check", "metrics"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|error| {
            panic!(
                "cannot run {promtool} ({error}): run scripts/test.sh (it installs promtool from \
                 Debian's prometheus package and sets {PROMTOOL_VAR}), or set {PROMTOOL_VAR} to \
                 a promtool binary"
            )
        });
    child
        .stdin
        .take()
        .expect("stdin piped")
        .write_all(text.as_bytes())
        .expect("write the exposition to promtool");
    let output = child.wait_with_output().expect("promtool finishes");
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        output.status.success() && said.trim().is_empty(),
        "promtool check metrics: {}\n{said}\n--- exposition ---\n{text}",
        output.status
    );
}

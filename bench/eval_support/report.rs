//! The report: each suite's figures as JSON and as a markdown section, the targets checked,
//! written to `<out>/eval_search.json` and `<out>/eval_search.md`.

use std::path::Path;

use serde::Serialize;
use serde_json::{Value, json};

/// A figure held against its target.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    /// What is measured.
    pub name: String,
    /// The measured value.
    pub value: f64,
    /// `<=` or `>=`.
    pub op: &'static str,
    /// The target.
    pub target: f64,
    /// Whether the target is met.
    pub met: bool,
}

impl Check {
    /// `value` must be at most `target`.
    pub fn at_most(name: &str, value: f64, target: f64) -> Check {
        Check {
            name: name.to_owned(),
            value,
            op: "<=",
            target,
            met: value <= target,
        }
    }

    /// `value` must be at least `target`.
    pub fn at_least(name: &str, value: f64, target: f64) -> Check {
        Check {
            name: name.to_owned(),
            value,
            op: ">=",
            target,
            met: value >= target,
        }
    }
}

/// What one suite measured.
pub struct Section {
    /// The suite's name (`scifact`, `golden`, `latency`).
    pub name: &'static str,
    /// Its figures.
    pub json: Value,
    /// Its markdown (a heading and tables).
    pub markdown: String,
    /// Its targets.
    pub checks: Vec<Check>,
}

/// A markdown table.
pub fn table(headers: &[&str], rows: &[Vec<String>]) -> String {
    let mut out = format!("| {} |\n", headers.join(" | "));
    out.push_str(&format!("|{}\n", "---|".repeat(headers.len())));
    for row in rows {
        out.push_str(&format!("| {} |\n", row.join(" | ")));
    }
    out
}

/// A metric with four decimals.
pub fn f4(value: f64) -> String {
    format!("{value:.4}")
}

/// A time in milliseconds, three significant places below 10 ms.
pub fn ms(value: f64) -> String {
    if value < 10.0 {
        format!("{value:.3} ms")
    } else {
        format!("{value:.0} ms")
    }
}

/// `a / b` as `×N.NN` (`-` when `b` is 0).
pub fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 {
        format!("×{:.2}", a / b)
    } else {
        "-".to_owned()
    }
}

/// The markdown table of every check.
pub fn checks_markdown(checks: &[Check]) -> String {
    let rows: Vec<Vec<String>> = checks
        .iter()
        .map(|c| {
            vec![
                c.name.clone(),
                format!("{:.4}", c.value),
                format!("{} {}", c.op, c.target),
                if c.met { "met" } else { "MISSED" }.to_owned(),
            ]
        })
        .collect();
    format!(
        "## Targets\n\n{}",
        table(&["figure", "value", "target", ""], &rows)
    )
}

/// The whole report as markdown.
pub fn markdown(mode: &str, sections: &[Section]) -> String {
    let mut out = format!("# obsidian-tc search evaluation (mode `{mode}`)\n\n");
    for section in sections {
        out.push_str(&section.markdown);
        out.push('\n');
    }
    let checks: Vec<Check> = sections.iter().flat_map(|s| s.checks.clone()).collect();
    out.push_str(&checks_markdown(&checks));
    out
}

/// Writes `eval_search.json` and `eval_search.md` into `out`.
pub fn write(out: &Path, mode: &str, sections: &[Section]) -> Result<(), String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut suites = serde_json::Map::new();
    for section in sections {
        suites.insert(section.name.to_owned(), section.json.clone());
    }
    let checks: Vec<&Check> = sections.iter().flat_map(|s| &s.checks).collect();
    let json = json!({"mode": mode, "suites": suites, "checks": checks});
    let pretty = serde_json::to_string_pretty(&json).map_err(|e| e.to_string())?;
    for (name, text) in [
        ("eval_search.json", pretty),
        ("eval_search.md", markdown(mode, sections)),
    ] {
        let path = out.join(name);
        std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display()))?;
    }
    Ok(())
}

//! One numbering of the dispatch pipeline: the steps of `telemetry::spans::Gate` (their
//! spans' names), the `// N. name` comments of `src/dispatch/pipeline.rs`, the numbered list
//! of `src/dispatch/mod.rs` and the table of `docs/architecture.md` agree, step for step.

use std::path::Path;

use obsidian_tc::telemetry::spans::Gate;
use regex::Regex;

fn read(rel: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|error| panic!("{rel}: {error}"))
}

/// The steps as the code numbers them: `(number, name)`, in pipeline order.
fn steps() -> Vec<(usize, String)> {
    Gate::ALL
        .iter()
        .map(|gate| (gate.number(), gate.name().to_owned()))
        .collect()
}

/// Every `(number, name)` pair `pattern` captures in `text`, in order.
fn numbered(text: &str, pattern: &str) -> Vec<(usize, String)> {
    Regex::new(pattern)
        .expect("pattern")
        .captures_iter(text)
        .map(|found| (found[1].parse().expect("number"), found[2].to_owned()))
        .collect()
}

#[test]
fn the_steps_are_numbered_from_one_in_order_with_distinct_names() {
    let steps = steps();
    assert_eq!(steps.len(), 14);
    for (at, (number, name)) in steps.iter().enumerate() {
        assert_eq!(*number, at + 1, "{name}");
        assert_eq!(steps.iter().filter(|(_, other)| other == name).count(), 1);
    }
}

#[test]
fn the_dispatch_module_docs_list_the_steps_of_the_code() {
    let listed = numbered(
        &read("src/dispatch/mod.rs"),
        r"(?m)^//! ?(\d+)\. `([a-z_]+)`",
    );
    assert_eq!(listed, steps(), "src/dispatch/mod.rs");
}

#[test]
fn the_pipeline_comments_name_each_step_by_its_number() {
    let comments = numbered(
        &read("src/dispatch/pipeline.rs"),
        r"(?m)^\s*// (\d+)\. ([a-z_]+)",
    );
    let steps = steps();
    for (number, name) in &comments {
        let step = steps.get(number.wrapping_sub(1)).map(|(_, name)| name);
        assert_eq!(step, Some(name), "`// {number}. {name}` in pipeline.rs");
    }
    for (number, name) in &steps {
        assert!(
            comments.iter().any(|(n, _)| n == number),
            "pipeline.rs has no `// {number}. {name}` comment"
        );
    }
}

#[test]
fn the_architecture_document_tables_the_steps_of_the_code() {
    let doc = read("../docs/architecture.md");
    let section = doc
        .split("\n## The dispatch pipeline\n")
        .nth(1)
        .expect("docs/architecture.md has a section `## The dispatch pipeline`");
    let section = section.split("\n## ").next().unwrap_or(section);
    let rows = numbered(section, r"(?m)^\|\s*(\d+)\s*\|\s*`([a-z_]+)`\s*\|");
    assert_eq!(rows, steps(), "the table of docs/architecture.md");
}

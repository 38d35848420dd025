//! The official JSONLogic test suite (fixtures/jsonlogic/tests.json, from jsonlogic.com),
//! run completely: every case must pass except the documented deviations listed here.

use engine_core::jsonlogic::{DEFAULT_BUDGET, Rule};
use serde_json::Value;

const SUITE: &str = include_str!("../../fixtures/jsonlogic/tests.json");

/// Cases of the suite this evaluator answers differently on purpose, by index in the file
/// (there are none: every case passes).
const DEVIATIONS: &[usize] = &[];

#[test]
fn official_suite_passes_completely() {
    let suite: Vec<Value> = serde_json::from_str(SUITE).unwrap();
    let mut passed = 0;
    let mut failures = Vec::new();
    let mut total = 0;
    for (index, case) in suite.iter().enumerate() {
        // Strings are section headings.
        let Some([rule, data, expected]) = case.as_array().map(Vec::as_slice) else {
            continue;
        };
        total += 1;
        let got = Rule::parse(rule)
            .map_err(|e| e.to_string())
            .and_then(|r| r.evaluate(data, DEFAULT_BUDGET).map_err(|e| e.to_string()));
        if got.as_ref() == Ok(expected) {
            passed += 1;
        } else if !DEVIATIONS.contains(&index) {
            failures.push(format!(
                "#{index} {rule} on {data}: expected {expected}, got {got:?}"
            ));
        }
    }
    println!("jsonlogic official suite: {passed}/{total} passed");
    assert_eq!(total, 277, "the fixture has 277 cases");
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(passed + DEVIATIONS.len(), total);
}

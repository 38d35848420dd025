//! The project's own JSONLogic cases (fixtures/jsonlogic/notes.json, also run through
//! WebAssembly by tests/wasm/jsonlogic.test.mjs), the operation budget and the depth limits.

use engine_core::jsonlogic::{
    DEFAULT_BUDGET, EvalError, MAX_RULE_DEPTH, MAX_VALUE_DEPTH, Rule, RuleErrorKind,
};
use serde_json::{Value, json};

const NOTES: &str = include_str!("../../fixtures/jsonlogic/notes.json");

#[test]
fn note_cases() {
    let doc: Value = serde_json::from_str(NOTES).unwrap();
    let cases = doc["cases"].as_array().unwrap();
    assert!(cases.len() >= 40);
    for case in cases {
        let name = &case["name"];
        let data = case.get("data").unwrap_or(&doc["note"]);
        let budget = case
            .get("budget")
            .and_then(Value::as_u64)
            .unwrap_or(DEFAULT_BUDGET);
        let outcome = Rule::parse(&case["rule"])
            .map_err(|e| (e.code(), e.path.clone()))
            .and_then(|rule| {
                rule.run(data, budget)
                    .map_err(|e| (e.code(), String::new()))
            });
        match (case.get("error"), outcome) {
            (Some(code), Err((got, path))) => {
                assert_eq!(code, got, "{name}");
                if let Some(want) = case.get("path") {
                    assert_eq!(want, &json!(path), "{name}");
                }
            }
            (None, Ok(outcome)) => {
                assert_eq!(case["expected"], outcome.value, "{name}");
                if let Some(ops) = case.get("operations") {
                    assert_eq!(ops, &json!(outcome.operations), "{name}");
                }
            }
            (want, got) => panic!("{name}: expected {want:?}, got {got:?}"),
        }
    }
}

fn numbers(n: u64) -> Value {
    json!({ "items": (0..n).collect::<Vec<u64>>() })
}

#[test]
fn map_over_a_large_array_is_bounded_by_the_budget() {
    let rule = Rule::parse(&json!({"map": [{"var": "items"}, {"+": [{"var": ""}, 1]}]})).unwrap();
    let data = numbers(10_000);
    // map 1 + var 1 + 10 000 copied elements + per element (visit, +, var) 3.
    let expected_ops = 1 + 1 + 10_000 + 3 * 10_000;
    assert_eq!(
        rule.run(&data, 1_000),
        Err(EvalError::BudgetExceeded { limit: 1_000 })
    );
    assert_eq!(
        rule.run(&data, expected_ops - 1),
        Err(EvalError::BudgetExceeded {
            limit: expected_ops - 1
        })
    );
    let first = rule.run(&data, 100_000).unwrap();
    assert_eq!(first.operations, expected_ops);
    assert_eq!(first.value.as_array().map(Vec::len), Some(10_000));
    assert_eq!(first.value[9_999], json!(10_000));
    assert_eq!(rule.run(&data, expected_ops).unwrap(), first);
}

#[test]
fn every_iterating_operator_counts_its_elements() {
    // From 1: a 0 element would read as `{}` in `{"var": ""}` (json-logic-js's `data || {}`).
    let data = json!({ "items": (1..=100).collect::<Vec<u64>>() });
    for (op, per_element) in [("filter", 3), ("all", 3), ("none", 3)] {
        let rule = Rule::parse(&json!({op: [{"var": "items"}, {">=": [{"var": ""}, 0]}]})).unwrap();
        let ops = rule.run(&data, 1_000_000).unwrap().operations;
        // `none` stops at the first element, which already matches.
        let visited = if op == "none" { 1 } else { 100 };
        assert_eq!(ops, 1 + 1 + 100 + per_element * visited, "{op}");
    }
    let sum = Rule::parse(&json!({"reduce": [{"var": "items"},
        {"+": [{"var": "current"}, {"var": "accumulator"}]}, 0]}))
    .unwrap();
    let outcome = sum.run(&data, 1_000_000).unwrap();
    assert_eq!(outcome.value, json!(5050));
    assert_eq!(outcome.operations, 1 + 1 + 100 + 100 * 4);
}

#[test]
fn a_self_doubling_accumulator_runs_out_of_budget_quickly() {
    // Each step doubles the accumulator; without charging var's copies this would build
    // 2^60 elements.
    let rule = Rule::parse(&json!({"reduce": [{"var": "items"},
        {"merge": [{"var": "accumulator"}, {"var": "accumulator"}]}, [1]]}))
    .unwrap();
    assert_eq!(
        rule.run(&numbers(60), 1_000_000),
        Err(EvalError::BudgetExceeded { limit: 1_000_000 })
    );
}

#[test]
fn an_ever_deeper_accumulator_is_refused() {
    let rule =
        Rule::parse(&json!({"reduce": [{"var": "items"}, [{"var": "accumulator"}], 0]})).unwrap();
    assert_eq!(
        rule.run(&numbers(1_000), u64::MAX),
        Err(EvalError::ValueTooDeep {
            limit: MAX_VALUE_DEPTH
        })
    );
}

#[test]
fn absurdly_deep_rules_are_refused_before_evaluation() {
    let mut rule = json!(true);
    for _ in 0..MAX_RULE_DEPTH {
        rule = json!({ "!": [rule] });
    }
    let err = Rule::parse(&rule).unwrap_err();
    assert_eq!(
        err.kind,
        RuleErrorKind::TooDeep {
            limit: MAX_RULE_DEPTH
        }
    );
    assert!(err.path.starts_with("/!/0/!/0"), "{}", err.path);
    let mut fits = json!(true);
    for _ in 0..MAX_RULE_DEPTH - 1 {
        fits = json!({ "!": [fits] });
    }
    assert_eq!(
        Rule::parse(&fits).unwrap().evaluate(&json!({}), 1_000),
        Ok(json!(false))
    );
}

#[test]
fn falsy_elements_read_as_an_empty_object_like_json_logic_js() {
    let rule = Rule::parse(&json!({"filter": [{"var": "xs"}, {"var": ""}]})).unwrap();
    assert_eq!(
        rule.evaluate(&json!({"xs": [0, "", 1]}), 100),
        Ok(json!([0, "", 1]))
    );
}

#[test]
fn matches_uses_jsonlogic_truthiness() {
    let data = json!({"empty": [], "zero_text": "0", "obj": {}});
    let m = |rule: Value| Rule::parse(&rule).unwrap().matches(&data, 100).unwrap();
    assert!(!m(json!({"var": "empty"})));
    assert!(m(json!({"var": "zero_text"})));
    assert!(m(json!({"var": "obj"})));
    assert!(!m(json!({"var": "absent"})));
}

#[test]
fn rule_errors_read_well() {
    let err = Rule::parse(&json!({"and": [true, {"==": [1]}]})).unwrap_err();
    assert_eq!(
        err.to_string(),
        "== takes 2 argument(s), got 1 at /and/1/=="
    );
}

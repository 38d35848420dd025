//! Arbitrary JSON rules and data never make the evaluator panic, and evaluation is
//! deterministic and within budget.

use engine_core::jsonlogic::{Rule, operator_names};
use proptest::prelude::*;
use serde_json::{Map, Value};

fn scalar() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        (-5i64..20).prop_map(Value::from),
        any::<f64>()
            .prop_map(|x| serde_json::Number::from_f64(x).map_or(Value::Null, Value::Number)),
        prop::sample::select(vec![
            "",
            "a",
            "0",
            "1.5",
            "a.b",
            "x",
            "current",
            "accumulator",
            "2024-05-01",
            "Projects/**",
            "12px",
            "length",
            "é😀"
        ])
        .prop_map(Value::from),
    ]
}

/// JSON values whose objects mostly have one key, an operator name or not.
fn json_rule() -> impl Strategy<Value = Value> {
    let names: Vec<String> = operator_names()
        .map(String::from)
        .chain(["bogus".into()])
        .collect();
    scalar().prop_recursive(6, 64, 5, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            (prop::sample::select(names.clone()), inner.clone()).prop_map(|(k, v)| {
                let mut m = Map::new();
                m.insert(k, v);
                Value::Object(m)
            }),
            prop::collection::btree_map("[a-c]", inner, 0..3)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_rules_and_data_never_panic(rule in json_rule(), data in json_rule()) {
        if let Ok(parsed) = Rule::parse(&rule) {
            let first = parsed.run(&data, 5_000);
            if let Ok(outcome) = &first {
                prop_assert!(outcome.operations <= 5_000);
            }
            prop_assert_eq!(first, parsed.run(&data, 5_000));
        }
    }
}

//! Property tests of engine_core::hash: canonical JSON (RFC 8785), args_hash, the bridge
//! tool-list hash, and the shortest-digit number format against Rust's own float formatting.

use engine_core::hash::{
    BridgeTool, args_hash, canonical_json, compare_tool_names, tool_list_hash,
};
use proptest::prelude::*;
use serde_json::{Map, Number, Value};

/// Any finite double, drawn from all bit patterns (subnormals, huge, tiny, negative zero).
fn finite_double() -> impl Strategy<Value = f64> {
    any::<u64>()
        .prop_map(f64::from_bits)
        .prop_filter("finite", |x| x.is_finite())
}

/// Doubles with few fraction bits and 15 to 17 significant digits, where exact ties between
/// two shortest candidates (such as 564884782883639.25) are common.
fn tie_prone_double() -> impl Strategy<Value = f64> {
    (1u64 << 40..1u64 << 53, 1i32..8, -30i32..30).prop_map(|(n, fraction_bits, scale)| {
        n as f64 / f64::from(1 << fraction_bits) * 2f64.powi(scale)
    })
}

fn leaf() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        finite_double().prop_map(|x| Value::Number(Number::from_f64(x).expect("finite"))),
        any::<String>().prop_map(Value::String),
    ]
}

fn json_value() -> impl Strategy<Value = Value> {
    leaf().prop_recursive(4, 48, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec((any::<String>(), inner), 0..6)
                .prop_map(|members| Value::Object(members.into_iter().collect())),
        ]
    })
}

/// Equality where numbers compare as the doubles JavaScript would hold.
fn same_modulo_numbers(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => as_js_double(x) == as_js_double(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| same_modulo_numbers(p, q))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| same_modulo_numbers(v, w)))
        }
        _ => a == b,
    }
}

fn as_js_double(n: &Number) -> f64 {
    n.as_u64()
        .map(|u| u as f64)
        .or(n.as_i64().map(|i| i as f64))
        .or(n.as_f64())
        .expect("a number")
}

/// `(significant digits, exponent of the first digit)` of a decimal rendering such as
/// `1.25e-7`, `-0.000125` or `125000`.
fn digits_and_exponent(text: &str) -> (String, i32) {
    let text = text.trim_start_matches('-');
    let (mantissa, exp) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (
            m,
            e.trim_start_matches('+').parse::<i32>().expect("exponent"),
        ),
        None => (text, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all = format!("{whole}{fraction}");
    let leading = all.len() - all.trim_start_matches('0').len();
    let digits = all.trim_matches('0').to_string();
    (digits, exp + whole.len() as i32 - 1 - leading as i32)
}

/// The decimal `d₁.d₂d₃… × 10^exponent` rounded to
/// `k` significant digits, ties to even, trailing zeros removed.
fn round_half_even((digits, exponent): &(String, i32), k: usize) -> (String, i32) {
    if digits.len() <= k {
        return (digits.clone(), *exponent);
    }
    let (head, rest) = digits.split_at(k);
    let rest = rest.as_bytes();
    let up = match rest[0] {
        b'6'..=b'9' => true,
        b'5' => rest[1..].iter().any(|&d| d != b'0') || (head.as_bytes()[k - 1] - b'0') % 2 == 1,
        _ => false,
    };
    let mut out: Vec<u8> = head.bytes().collect();
    let mut exponent = *exponent;
    if up {
        let mut i = k;
        loop {
            if i == 0 {
                out.insert(0, b'1');
                out.pop();
                exponent += 1;
                break;
            }
            i -= 1;
            if out[i] == b'9' {
                out[i] = b'0';
            } else {
                out[i] += 1;
                break;
            }
        }
    }
    let text = String::from_utf8(out).unwrap();
    (text.trim_end_matches('0').to_string(), exponent)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, ..ProptestConfig::default() })]

    #[test]
    fn numbers_are_shortest_round_trip_digits(x in prop_oneof![finite_double(), tie_prone_double()]) {
        let text = canonical_json(&Value::Number(Number::from_f64(x).unwrap())).unwrap();
        let back: f64 = text.parse().unwrap();
        prop_assert_eq!(back, if x == 0.0 { 0.0 } else { x });
        prop_assert!(x == 0.0 || back.to_bits() == x.to_bits(), "{text} for {x:e}");
        if x != 0.0 {
            // The shortest length comes from Rust's `{:e}` (an independent shortest-digits
            // implementation, which however rounds exact ties half up); the digits must then
            // be the exact value (Rust's exact `{:.800e}`) rounded half-even to that length,
            // ECMAScript's "closest, and on a tie the even one", whenever that candidate
            // round-trips (it may not, just above a power of two; then `{:e}` decides).
            let ours = digits_and_exponent(&text);
            let rust = digits_and_exponent(&format!("{x:e}"));
            prop_assert_eq!(ours.0.len(), rust.0.len(), "{} is not as short as {:e}", text, x);
            let exact = digits_and_exponent(&format!("{:.800e}", x.abs()));
            let rounded = round_half_even(&exact, rust.0.len());
            let rounded_text = format!("0.{}e{}", rounded.0, rounded.1 + 1);
            if rounded_text.parse::<f64>() == Ok(x.abs()) {
                prop_assert_eq!(&ours, &rounded, "{} for {:e}", text, x);
            } else {
                prop_assert_eq!(&ours, &rust, "{} for {:e}", text, x);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn canonical_json_ignores_member_insertion_order(
        members in prop::collection::btree_map(any::<String>(), json_value(), 0..8),
        permutation_seed in any::<u64>(),
    ) {
        let entries: Vec<(String, Value)> = members.into_iter().collect();
        let forward: Map<String, Value> = entries.iter().cloned().collect();
        let backward: Map<String, Value> = entries.iter().rev().cloned().collect();
        let mut shuffled_entries = entries.clone();
        let len = shuffled_entries.len().max(1) as u64;
        for i in 0..shuffled_entries.len() {
            let j = ((permutation_seed.wrapping_mul(i as u64 + 1)) % len) as usize;
            shuffled_entries.swap(i, j);
        }
        let shuffled: Map<String, Value> = shuffled_entries.into_iter().collect();
        let expected = canonical_json(&Value::Object(forward)).unwrap();
        prop_assert_eq!(canonical_json(&Value::Object(backward)).unwrap(), expected.clone());
        prop_assert_eq!(canonical_json(&Value::Object(shuffled)).unwrap(), expected);
    }

    #[test]
    fn canonical_json_parses_back_to_the_input(value in json_value()) {
        let text = canonical_json(&value).unwrap();
        let back: Value = serde_json::from_str(&text).unwrap();
        prop_assert!(same_modulo_numbers(&value, &back), "{text}");
    }

    #[test]
    fn canonical_json_is_idempotent(value in json_value()) {
        let once = canonical_json(&value).unwrap();
        let twice = canonical_json(&serde_json::from_str(&once).unwrap()).unwrap();
        prop_assert_eq!(once, twice);
    }

    #[test]
    fn args_hash_is_32_lowercase_hex(name in any::<String>(), args in json_value()) {
        let hash = args_hash(&name, &args).unwrap();
        prop_assert_eq!(hash.len(), 32);
        prop_assert!(hash.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b)));
    }

    #[test]
    fn args_hash_changes_with_the_tool_name(a in any::<String>(), b in any::<String>(), args in json_value()) {
        prop_assume!(a != b);
        prop_assert_ne!(args_hash(&a, &args).unwrap(), args_hash(&b, &args).unwrap());
    }

    #[test]
    fn args_hash_changes_with_any_argument(
        name in "[a-z_]{1,20}",
        members in prop::collection::btree_map("[a-z]{1,6}", json_value(), 1..6),
        pick in any::<prop::sample::Index>(),
        replacement in json_value(),
    ) {
        let args = Value::Object(members.clone().into_iter().collect());
        let key = members.keys().nth(pick.index(members.len())).unwrap().clone();
        let mut changed = members;
        let old = changed.insert(key, replacement.clone()).unwrap();
        prop_assume!(canonical_json(&old).unwrap() != canonical_json(&replacement).unwrap());
        let changed = Value::Object(changed.into_iter().collect());
        prop_assert_ne!(args_hash(&name, &args).unwrap(), args_hash(&name, &changed).unwrap());
    }

    #[test]
    fn tool_list_hash_ignores_registry_order_of_distinct_names(
        tools in prop::collection::btree_map("[A-Za-z0-9_.-]{1,12}", json_value(), 0..10),
        rotation in any::<prop::sample::Index>(),
    ) {
        let registry: Vec<BridgeTool> = tools
            .into_iter()
            .map(|(name, schema)| BridgeTool { name, description: None, input_schema: Some(schema) })
            .collect();
        let mut rotated = registry.clone();
        if !rotated.is_empty() {
            rotated.rotate_left(rotation.index(registry.len()));
        }
        rotated.reverse();
        prop_assert_eq!(tool_list_hash(&registry).unwrap(), tool_list_hash(&rotated).unwrap());
    }

    #[test]
    fn tool_name_order_is_a_total_order(a in "[A-Za-z0-9_.\\- ]{0,8}", b in "[A-Za-z0-9_.\\- ]{0,8}", c in "[A-Za-z0-9_.\\- ]{0,8}") {
        prop_assert_eq!(compare_tool_names(&a, &b), compare_tool_names(&b, &a).reverse());
        prop_assert_eq!(compare_tool_names(&a, &b).is_eq(), a == b);
        let mut sorted = [a, b, c];
        sorted.sort_by(|x, y| compare_tool_names(x, y));
        prop_assert!(compare_tool_names(&sorted[0], &sorted[2]).is_le());
    }
}

/// serde_json's own float printer is a third shortest-digits implementation; agree with it
/// on a fixed spread of bit patterns (every exponent, several mantissas each).
#[test]
fn numbers_agree_with_serde_json_on_every_exponent() {
    let mut checked = 0;
    for exponent in 0u64..2047 {
        for mantissa in [
            0u64,
            1,
            2,
            3,
            0x8_0000_0000_0000,
            0xF_FFFF_FFFF_FFFF,
            0x5_5555_5555_5555,
            0x3_1415_9265_3589,
        ] {
            let x = f64::from_bits((exponent << 52) | mantissa);
            if x == 0.0 {
                continue;
            }
            let ours = canonical_json(&Value::from(x)).unwrap();
            let theirs = serde_json::to_string(&x).unwrap();
            assert_eq!(
                digits_and_exponent(&ours),
                digits_and_exponent(&theirs),
                "{ours} vs {theirs}"
            );
            checked += 1;
        }
    }
    assert!(checked > 16_000);
}

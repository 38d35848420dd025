//! The order in which object members are written.
//!
//! Never the iteration order of `serde_json::Map`: that is byte order by default but insertion
//! order as soon as any crate in the build enables `serde_json/preserve_order`.

use alloc::string::String;
use alloc::vec::Vec;
use core::cmp::Ordering;

use serde_json::{Map, Value};

/// How object members are ordered (and which are kept).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum KeyOrder {
    /// RFC 8785 §3.2.3: all keys, sorted by their UTF-16 code units.
    Rfc8785,
    /// What `JSON.stringify` prints for an object rebuilt from `Object.keys(obj).sort()`
    /// (the bridge's `deepSort`): array-index keys first in ascending numeric order, then the
    /// other keys in UTF-16 order. A `__proto__` key is dropped, because assigning it to a
    /// plain object (`acc[key] = …`) sets the prototype instead of creating a property.
    JsDeepSort,
}

impl KeyOrder {
    /// The members of `map` to write, in order.
    pub(crate) fn members(self, map: &Map<String, Value>) -> Vec<(&str, &Value)> {
        self.arrange(map.iter().map(|(k, v)| (k.as_str(), v)).collect())
    }

    /// Filters and sorts `members`, whatever order they come in.
    fn arrange<'a>(self, mut members: Vec<(&'a str, &'a Value)>) -> Vec<(&'a str, &'a Value)> {
        match self {
            Self::Rfc8785 => members.sort_by(|a, b| utf16_cmp(a.0, b.0)),
            Self::JsDeepSort => {
                members.retain(|(key, _)| *key != "__proto__");
                members.sort_by(|a, b| js_property_cmp(a.0, b.0));
            }
        }
        members
    }
}

/// Compares strings by UTF-16 code units, as JavaScript's default `sort()` and RFC 8785 do.
/// (UTF-8 byte order differs when a supplementary character meets one in U+E000..U+FFFF.)
pub(crate) fn utf16_cmp(a: &str, b: &str) -> Ordering {
    a.encode_utf16().cmp(b.encode_utf16())
}

/// Own-property order of a JavaScript object whose keys were inserted in UTF-16 order.
fn js_property_cmp(a: &str, b: &str) -> Ordering {
    match (array_index(a), array_index(b)) {
        (Some(x), Some(y)) => x.cmp(&y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => utf16_cmp(a, b),
    }
}

/// The value of `key` if it is an ECMAScript array index: the canonical decimal form
/// (no sign, no leading zero) of an integer in `0..=2^32 − 2`.
fn array_index(key: &str) -> Option<u32> {
    let bytes = key.as_bytes();
    let canonical = !bytes.is_empty()
        && bytes.len() <= 10
        && bytes.iter().all(u8::is_ascii_digit)
        && (bytes.len() == 1 || bytes.first() != Some(&b'0'));
    if !canonical {
        return None;
    }
    let value = bytes
        .iter()
        .fold(0u64, |acc, &d| acc * 10 + u64::from(d - b'0'));
    u32::try_from(value).ok().filter(|&v| v != u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn keys(order: KeyOrder, value: &Value) -> Vec<&str> {
        match value {
            Value::Object(map) => order.members(map).into_iter().map(|(k, _)| k).collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn utf16_order_puts_surrogates_before_private_use() {
        assert_eq!(utf16_cmp("\u{1F600}", "\u{FB33}"), Ordering::Less);
        assert_eq!(utf16_cmp("\u{E000}", "\u{10000}"), Ordering::Greater);
        assert_eq!(
            "\u{E000}".cmp("\u{10000}"),
            Ordering::Less,
            "byte order differs"
        );
        assert_eq!(utf16_cmp("a", "ab"), Ordering::Less);
    }

    #[test]
    fn array_indices_are_canonical_u32_below_the_maximum() {
        assert_eq!(array_index("0"), Some(0));
        assert_eq!(array_index("10"), Some(10));
        assert_eq!(array_index("4294967294"), Some(4_294_967_294));
        for not_index in [
            "",
            "01",
            "-1",
            "1.5",
            "4294967295",
            "99999999999",
            "1e3",
            " 1",
            "٣",
        ] {
            assert_eq!(array_index(not_index), None, "{not_index:?}");
        }
    }

    #[test]
    fn rfc8785_sorts_every_key_by_utf16() {
        let value =
            json!({"b": 1, "10": 2, "2": 3, "a": 4, "__proto__": 5, "\u{1F600}": 6, "\u{FB33}": 7});
        assert_eq!(
            keys(KeyOrder::Rfc8785, &value),
            ["10", "2", "__proto__", "a", "b", "\u{1F600}", "\u{FB33}"]
        );
    }

    #[test]
    fn js_deep_sort_puts_indices_first_and_drops_proto() {
        let value = json!({"b": 1, "10": 2, "2": 3, "0": 4, "01": 5, "4294967295": 6, "a": 7, "__proto__": {}});
        assert_eq!(
            keys(KeyOrder::JsDeepSort, &value),
            ["0", "2", "10", "01", "4294967295", "a", "b"]
        );
    }

    #[test]
    fn order_does_not_depend_on_the_incoming_order() {
        let names = [
            "z",
            "\u{E000}",
            "\u{10000}",
            "1",
            "0",
            "a",
            "__proto__",
            "B",
        ];
        let forward: Vec<(&str, &Value)> = names.iter().map(|k| (*k, &Value::Null)).collect();
        for order in [KeyOrder::Rfc8785, KeyOrder::JsDeepSort] {
            let expected = order.arrange(forward.clone());
            for rotation in 0..names.len() {
                let mut shuffled = forward.clone();
                shuffled.rotate_left(rotation);
                shuffled.swap(0, names.len() - 1);
                assert_eq!(order.arrange(shuffled.clone()), expected);
                shuffled.reverse();
                assert_eq!(order.arrange(shuffled), expected);
            }
        }
    }
}

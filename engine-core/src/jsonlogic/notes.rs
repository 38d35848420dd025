//! The `tc.` extensions for querying notes. Every extension takes the value under test
//! first, and is false (never an error) when that value has the wrong type, so one rule
//! can run over notes whose frontmatter differs.
//!
//! - `{"tc.glob": [path, pattern, ignore_case?]}`: the path matches the glob, with the
//!   vault's glob matcher ([`crate::acl::glob`]: `*`, `**`, `?`, `[...]`). The pattern must
//!   be a string literal: it is validated and compiled once, when the rule is parsed.
//! - `{"tc.starts_with": [text, prefix, ignore_case?]}`, `{"tc.ends_with": [...]}`:
//!   string prefix and suffix tests (JSONLogic only has `in`, a substring test).
//! - `{"tc.contains": [haystack, needle, ignore_case?]}`: a substring test on a string, a
//!   membership test on an array (strings compared with `ignore_case`, other values by
//!   strict equality) — `in` with its arguments in reading order and a case option, for
//!   `file.tags` and list-valued frontmatter.
//! - `{"tc.before": [a, b]}`, `{"tc.after": [a, b]}`: calendar-day order of two ISO-8601
//!   dates (`YYYY-MM-DD`, optionally followed by `T` or a space and a time, which is
//!   ignored). Plain string comparison would accept `2024-13-99` or `2024-5-1`; these are
//!   false unless both are real dates.
//!
//! `ignore_case` must be a boolean literal; case-insensitive comparison folds characters
//! one to one ([`crate::acl::casefold::fold_char`]).

use alloc::string::String;

use serde_json::Value;

use super::coerce::strict_eq;
use super::eval::arg;
use crate::acl::Glob;
use crate::acl::casefold::{eq_folded, fold_char};

/// `tc.glob`: whether the string value matches the compiled pattern.
pub(crate) fn glob(values: &[Value], glob: Option<&Glob>) -> Value {
    Value::Bool(match (arg(values, 0), glob) {
        (Value::String(path), Some(glob)) => glob.matches(path),
        _ => false,
    })
}

/// The two strings under test, folded when `ignore_case`.
fn string_pair(values: &[Value], ignore_case: bool) -> Option<(String, String)> {
    let (Value::String(a), Value::String(b)) = (arg(values, 0), arg(values, 1)) else {
        return None;
    };
    Some(if ignore_case {
        (fold(a), fold(b))
    } else {
        (a.clone(), b.clone())
    })
}

fn fold(s: &str) -> String {
    s.chars().map(fold_char).collect()
}

/// `tc.starts_with`.
pub(crate) fn starts_with(values: &[Value], ignore_case: bool) -> Value {
    Value::Bool(string_pair(values, ignore_case).is_some_and(|(a, b)| a.starts_with(&b)))
}

/// `tc.ends_with`.
pub(crate) fn ends_with(values: &[Value], ignore_case: bool) -> Value {
    Value::Bool(string_pair(values, ignore_case).is_some_and(|(a, b)| a.ends_with(&b)))
}

/// `tc.contains`.
pub(crate) fn contains(values: &[Value], ignore_case: bool) -> Value {
    let needle = arg(values, 1);
    Value::Bool(match arg(values, 0) {
        Value::String(_) => string_pair(values, ignore_case).is_some_and(|(a, b)| a.contains(&b)),
        Value::Array(items) => items.iter().any(|item| match (item, needle) {
            (Value::String(a), Value::String(b)) if ignore_case => eq_folded(a, b),
            _ => strict_eq(item, needle),
        }),
        _ => false,
    })
}

/// `tc.before`: whether date `a` is an earlier day than date `b`.
pub(crate) fn before(values: &[Value]) -> Value {
    Value::Bool(matches!(days(values), Some((a, b)) if a < b))
}

/// `tc.after`: whether date `a` is a later day than date `b`.
pub(crate) fn after(values: &[Value]) -> Value {
    Value::Bool(matches!(days(values), Some((a, b)) if a > b))
}

/// A calendar day as `(year, month, day)`, ordered like the calendar.
type Day = (u32, u32, u32);

/// The calendar days of the two arguments, if both are dates.
fn days(values: &[Value]) -> Option<(Day, Day)> {
    Some((calendar_day(arg(values, 0))?, calendar_day(arg(values, 1))?))
}

/// `(year, month, day)` of a string starting with a valid `YYYY-MM-DD` that ends there or
/// continues with `T` or a space.
fn calendar_day(value: &Value) -> Option<Day> {
    let text = value.as_str()?;
    let bytes = text.as_bytes();
    let date = bytes.get(..10)?;
    if !matches!(bytes.get(10), None | Some(b'T' | b't' | b' ')) {
        return None;
    }
    let digits = |range: core::ops::Range<usize>| -> Option<u32> {
        let part = date.get(range)?;
        part.iter().try_fold(0u32, |n, &b| {
            b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0'))
        })
    };
    if date.get(4) != Some(&b'-') || date.get(7) != Some(&b'-') {
        return None;
    }
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    (1..=month_days)
        .contains(&day)
        .then_some((year, month, day))
}

//! [`Val`]: what a Bases expression evaluates to, with Obsidian's truthiness, loose
//! equality, ordering and text form.

use std::cmp::Ordering;

use serde_json::{Map, Value, json};

use crate::calendar::Date;

/// A value of the Bases expression language.
#[derive(Debug, Clone, PartialEq)]
pub enum Val {
    /// Nothing (a missing property).
    Null,
    /// A boolean.
    Bool(bool),
    /// A number.
    Num(f64),
    /// Text.
    Text(String),
    /// A date-time, Unix milliseconds (UTC).
    Date(i64),
    /// A list.
    List(Vec<Val>),
    /// A link, by its normalized target (`Folder/Note`, no brackets, alias or subpath).
    Link(String),
    /// A file of the query, by its index among the query's files.
    File(usize),
    /// A mapping (a nested property).
    Object(Map<String, Value>),
}

impl Val {
    /// The value of a frontmatter property: a text that is exactly one `[[link]]` is a link.
    pub fn from_json(value: &Value) -> Val {
        match value {
            Value::Null => Val::Null,
            Value::Bool(b) => Val::Bool(*b),
            Value::Number(n) => n.as_f64().map_or(Val::Null, Val::Num),
            Value::String(s) => match wikilink_target(s) {
                Some(target) => Val::Link(target),
                None => Val::Text(s.clone()),
            },
            Value::Array(items) => Val::List(items.iter().map(Val::from_json).collect()),
            Value::Object(map) => Val::Object(map.clone()),
        }
    }

    /// Obsidian's truthiness.
    pub fn truthy(&self) -> bool {
        match self {
            Val::Null => false,
            Val::Bool(b) => *b,
            Val::Num(n) => *n != 0.0 && !n.is_nan(),
            Val::Text(s) => !s.is_empty(),
            Val::List(items) => !items.is_empty(),
            Val::Object(map) => !map.is_empty(),
            Val::Date(_) | Val::Link(_) | Val::File(_) => true,
        }
    }

    /// Whether the value is empty (`isEmpty()`).
    pub fn is_empty(&self) -> bool {
        match self {
            Val::Null => true,
            Val::Text(s) => s.is_empty(),
            Val::List(items) => items.is_empty(),
            Val::Object(map) => map.is_empty(),
            _ => false,
        }
    }

    /// The text form (`toString()`); files show as their path through `path_of`.
    pub fn text(&self, path_of: &dyn Fn(usize) -> String) -> String {
        match self {
            Val::Null => String::new(),
            Val::Bool(b) => b.to_string(),
            Val::Num(n) => number_text(*n),
            Val::Text(s) | Val::Link(s) => s.clone(),
            Val::Date(ms) => date_text(*ms),
            Val::List(items) => items
                .iter()
                .map(|item| item.text(path_of))
                .collect::<Vec<_>>()
                .join(", "),
            Val::File(i) => path_of(*i),
            Val::Object(map) => Value::Object(map.clone()).to_string(),
        }
    }

    /// The JSON form of a result cell.
    pub fn to_json(&self, path_of: &dyn Fn(usize) -> String) -> Value {
        match self {
            Val::Null => Value::Null,
            Val::Bool(b) => json!(b),
            Val::Num(n) => json!(n),
            Val::Text(s) => json!(s),
            Val::Link(target) => json!(format!("[[{target}]]")),
            Val::Date(ms) => json!(date_text(*ms)),
            Val::List(items) => Value::Array(items.iter().map(|v| v.to_json(path_of)).collect()),
            Val::File(i) => json!(path_of(*i)),
            Val::Object(map) => Value::Object(map.clone()),
        }
    }
}

/// A number as JavaScript prints it (`3`, not `3.0`).
pub fn number_text(n: f64) -> String {
    if n.fract() == 0.0 && n.abs() < 1e15 {
        format!("{}", n as i64)
    } else {
        n.to_string()
    }
}

/// `YYYY-MM-DD` at midnight, else `YYYY-MM-DDTHH:MM:SSZ`.
pub fn date_text(ms: i64) -> String {
    let day = ms.div_euclid(86_400_000);
    let date = Date::from_days(day);
    let seconds = ms.rem_euclid(86_400_000) / 1000;
    if seconds == 0 {
        date.to_string()
    } else {
        format!(
            "{date}T{:02}:{:02}:{:02}Z",
            seconds / 3600,
            seconds / 60 % 60,
            seconds % 60
        )
    }
}

/// The target of a text that is exactly one wikilink (`[[Target|alias]]` → `Target`).
pub fn wikilink_target(text: &str) -> Option<String> {
    let inner = text.trim().strip_prefix("[[")?.strip_suffix("]]")?;
    (!inner.contains("]]")).then(|| normalize_target(inner))
}

/// A link target without alias, subpath and `.md`.
pub fn normalize_target(target: &str) -> String {
    let target = target.split('|').next().unwrap_or("");
    let target = target.split('#').next().unwrap_or("").trim();
    target.strip_suffix(".md").unwrap_or(target).to_owned()
}

/// Orders two values for sorting: numbers, dates and texts (case-insensitively) among
/// their kind; anything else by its text.
pub fn compare(a: &Val, b: &Val, path_of: &dyn Fn(usize) -> String) -> Ordering {
    match (a, b) {
        (Val::Num(x), Val::Num(y)) => x.partial_cmp(y).unwrap_or(Ordering::Equal),
        (Val::Date(x), Val::Date(y)) => x.cmp(y),
        (Val::Bool(x), Val::Bool(y)) => x.cmp(y),
        _ => a
            .text(path_of)
            .to_lowercase()
            .cmp(&b.text(path_of).to_lowercase()),
    }
}

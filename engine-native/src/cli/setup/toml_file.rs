//! Adds or updates the server entry in Codex's `config.toml` (`[mcp_servers.<name>]` with
//! `command` and `args`), changing only the entry's own text: toml_edit keeps every other
//! table, key, comment and blank line as it was.

use toml_edit::{Array, Document, Item, Table, Value};

use super::entry::{Change, Edited, ServerEntry};
use super::malformed::{Malformed, Problem};

/// Adds `entry` to the table `servers_key` in `text` (`""` for a new file), or brings an
/// existing entry of that name up to date.
pub fn edit(text: &str, servers_key: &str, entry: &ServerEntry) -> Result<Edited, Malformed> {
    let parsed = Document::parse(text).map_err(|error| {
        Malformed::at(
            text,
            error.span().map_or(0, |span| span.start),
            Problem::Syntax(error.message().to_owned()),
        )
    })?;
    let servers_at = parsed
        .get(servers_key)
        .and_then(Item::span)
        .map_or(0, |span| span.start);
    let mut document = parsed.into_mut();
    let servers = document.entry(servers_key).or_insert_with(|| {
        // `[mcp_servers.<name>]` alone, without an empty `[mcp_servers]` header.
        let mut table = Table::new();
        table.set_implicit(true);
        Item::Table(table)
    });
    let inline = servers.is_inline_table();
    let servers = servers.as_table_like_mut().ok_or_else(|| {
        Malformed::at(
            text,
            servers_at,
            Problem::NotATable {
                what: format!("\"{servers_key}\""),
                expected: "a table",
            },
        )
    })?;
    let change = match servers.get_mut(&entry.name) {
        None => {
            servers.insert(&entry.name, new_entry(entry, inline));
            Change::Added
        }
        Some(existing) => update(existing, entry).unwrap_or_else(|| {
            *existing = new_entry(entry, inline || existing.is_value());
            Change::Replaced
        }),
    };
    Ok(Edited {
        text: match change {
            Change::Unchanged => text.to_owned(),
            _ => document.to_string(),
        },
        change,
    })
}

/// A whole new entry: a `[mcp_servers.<name>]` table, or an inline table inside an inline
/// server table.
fn new_entry(entry: &ServerEntry, inline: bool) -> Item {
    let mut table = Table::new();
    for (key, value) in managed(entry) {
        table.insert(key, Item::Value(value));
    }
    if inline {
        Item::Value(Value::InlineTable(table.into_inline_table()))
    } else {
        Item::Table(table)
    }
}

/// The keys `setup` sets in a stdio entry it finds, with their values for `entry`; an entry's
/// other keys (`env`, `cwd`, timeouts, `enabled`, ...) stay.
fn managed(entry: &ServerEntry) -> [(&'static str, Value); 2] {
    [
        ("command", Value::from(entry.command.as_str())),
        ("args", Value::Array(entry.args.iter().collect::<Array>())),
    ]
}

/// Gives `existing`, when it is a stdio entry (a table with `command`), this `command` and
/// `args`, each value keeping its place and any comment after it; `None` for anything else.
fn update(existing: &mut Item, entry: &ServerEntry) -> Option<Change> {
    let table = existing
        .as_table_like_mut()
        .filter(|table| table.contains_key("command"))?;
    let mut changed = Vec::new();
    for (key, mut value) in managed(entry) {
        match table.get_mut(key) {
            Some(Item::Value(old)) if same(old, &value) => {}
            Some(Item::Value(old)) => {
                *value.decor_mut() = old.decor().clone();
                *old = value;
                changed.push(key);
            }
            Some(other) => {
                *other = Item::Value(value);
                changed.push(key);
            }
            None => {
                table.insert(key, Item::Value(value));
                changed.push(key);
            }
        }
    }
    Some(if changed.is_empty() {
        Change::Unchanged
    } else {
        Change::Updated(changed)
    })
}

/// Whether two values are equal as data (strings, or arrays of strings), whatever their
/// quoting and spacing.
fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::String(a), Value::String(b)) => a.value() == b.value(),
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b.iter()).all(|(a, b)| same(a, b))
        }
        _ => false,
    }
}

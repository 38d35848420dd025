//! Adds or updates the server entry in a JSON (or JSONC) configuration file, changing only the
//! entry's own text: jsonc-parser's concrete syntax tree keeps every other byte (comments,
//! indentation, key order, line endings), and new text follows the file's indentation.
//!
//! The file is first read as a syntax tree with positions ([`parse_to_ast`]) to refuse what
//! cannot be edited safely, with a line and column; then edited through the CST.

use jsonc_parser::ast::{Object, ObjectProp, Value};
use jsonc_parser::common::Ranged;
use jsonc_parser::cst::{CstInputValue, CstObject, CstObjectProp, CstRootNode};
use jsonc_parser::errors::{ParseError, ParseErrorKind};
use jsonc_parser::{CollectOptions, ParseOptions, parse_to_ast};

use super::client::JsonDialect;
use super::entry::{Change, Edited, ServerEntry};
use super::malformed::{Malformed, Problem};

/// Adds `entry` under `servers_key` in `text` (a file of `dialect`; `""` for a new file), or
/// brings an existing entry of that name up to date.
pub fn edit(
    text: &str,
    dialect: JsonDialect,
    servers_key: &str,
    entry: &ServerEntry,
) -> Result<Edited, Malformed> {
    let options = parse_options(dialect);
    let syntax_error = |error: ParseError| Malformed {
        line: error.line_display(),
        column: error.column_display(),
        problem: Problem::Syntax(syntax_message(&error, dialect)),
    };
    let ast = parse_to_ast(text, &CollectOptions::default(), &options).map_err(syntax_error)?;
    check_shape(text, ast.value.as_ref(), servers_key, &entry.name)?;
    let root = CstRootNode::parse(text, &options).map_err(syntax_error)?;
    let root_object = root.object_value_or_set();
    let change = match root_object.object_value(servers_key) {
        None => {
            let servers = CstInputValue::Object(vec![(entry.name.clone(), new_entry(entry))]);
            root_object.append(servers_key, servers);
            Change::Added
        }
        Some(servers) => match servers.get(&entry.name) {
            None => {
                servers.append(&entry.name, new_entry(entry));
                Change::Added
            }
            Some(existing) => update(&existing, entry),
        },
    };
    Ok(Edited {
        text: match change {
            Change::Unchanged => text.to_owned(),
            _ => root.to_string(),
        },
        change,
    })
}

/// Plain JSON with `dialect`'s additions; none of jsonc-parser's other leniencies (unquoted
/// keys, single quotes, hexadecimal numbers, ...), which no client reads.
pub fn parse_options(dialect: JsonDialect) -> ParseOptions {
    ParseOptions {
        allow_comments: dialect != JsonDialect::Plain,
        allow_trailing_commas: dialect == JsonDialect::Jsonc,
        allow_loose_object_property_names: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

/// The parser's message, and why when the client's format forbids what the parser found.
fn syntax_message(error: &ParseError, dialect: JsonDialect) -> String {
    let format = match dialect {
        JsonDialect::Plain => "this client reads plain JSON",
        JsonDialect::Comments => "this client reads JSON with comments, not trailing commas",
        JsonDialect::Jsonc => "",
    };
    match error.kind() {
        ParseErrorKind::CommentsNotAllowed | ParseErrorKind::TrailingCommasNotAllowed
            if !format.is_empty() =>
        {
            format!("{} ({format})", error.kind())
        }
        kind => kind.to_string(),
    }
}

/// Refuses a top level that is not an object, a server table that is not an object, and a
/// server table or entry named twice (the CST would edit one, the client might read the other).
fn check_shape(
    text: &str,
    root: Option<&Value<'_>>,
    servers_key: &str,
    name: &str,
) -> Result<(), Malformed> {
    let root = match root {
        None => return Ok(()),
        Some(Value::Object(root)) => root,
        Some(other) => return Err(not_an_object(text, other, "the top level".to_owned())),
    };
    let Some(servers) = unique_property(text, root, servers_key)? else {
        return Ok(());
    };
    match &servers.value {
        Value::Object(servers) => unique_property(text, servers, name).map(|_| ()),
        other => Err(not_an_object(text, other, format!("\"{servers_key}\""))),
    }
}

/// The one property `key` of `object`; an error naming both lines when there are two.
fn unique_property<'a, 'b>(
    text: &str,
    object: &'b Object<'a>,
    key: &str,
) -> Result<Option<&'b ObjectProp<'a>>, Malformed> {
    let mut found = object
        .properties
        .iter()
        .filter(|property| property.name.as_str() == key);
    let first = found.next();
    match (first, found.next()) {
        (Some(first), Some(second)) => {
            let (first_line, _) = super::malformed::line_column(text, first.start());
            Err(Malformed::at(
                text,
                second.start(),
                Problem::Duplicate {
                    key: key.to_owned(),
                    first_line,
                },
            ))
        }
        (first, _) => Ok(first),
    }
}

fn not_an_object(text: &str, value: &Value<'_>, what: String) -> Malformed {
    Malformed::at(
        text,
        value.start(),
        Problem::NotATable {
            what,
            expected: "an object",
        },
    )
}

/// The keys `setup` sets in a stdio entry it finds (an entry's other keys stay), with their
/// values for `entry`: as CST input, and as data to compare with what the file has.
fn managed(entry: &ServerEntry) -> [(&'static str, CstInputValue, serde_json::Value); 2] {
    let command = entry.command.as_str();
    [
        ("command", command.into(), command.into()),
        ("args", entry.args.clone().into(), entry.args.clone().into()),
    ]
}

/// A whole new entry: `type` (when the client states it), `command`, `args`.
fn new_entry(entry: &ServerEntry) -> CstInputValue {
    let stdio_type = entry
        .stdio_type
        .then(|| ("type".to_owned(), CstInputValue::from("stdio")));
    let managed = managed(entry)
        .into_iter()
        .map(|(key, value, _)| (key.to_owned(), value));
    CstInputValue::Object(stdio_type.into_iter().chain(managed).collect())
}

/// Brings the existing property `existing` up to date: a stdio entry gets this `command` and
/// `args` (its other keys stay); anything else is replaced by a new entry.
fn update(existing: &CstObjectProp, entry: &ServerEntry) -> Change {
    let Some(object) = existing.object_value().filter(is_stdio_entry) else {
        existing.set_value(new_entry(entry));
        return Change::Replaced;
    };
    let mut changed = Vec::new();
    for (key, value, wanted) in managed(entry) {
        match object.get(key) {
            Some(property) if data(&property) == Some(wanted) => {}
            Some(property) => {
                property.set_value(value);
                changed.push(key);
            }
            None => {
                object.append(key, value);
                changed.push(key);
            }
        }
    }
    if changed.is_empty() {
        Change::Unchanged
    } else {
        Change::Updated(changed)
    }
}

/// A property's value as data.
fn data(property: &CstObjectProp) -> Option<serde_json::Value> {
    property.value()?.to_serde_value()
}

/// Whether `object` starts a stdio server: it has `command`, and `type` is absent or `stdio`.
fn is_stdio_entry(object: &CstObject) -> bool {
    let stdio_type = match object.get("type") {
        None => true,
        Some(property) => data(&property) == Some(serde_json::Value::from("stdio")),
    };
    stdio_type && object.get("command").is_some()
}

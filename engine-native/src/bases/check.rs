//! The supported subset, checked before anything runs: every function, method and field an
//! expression names must be one the evaluator implements, and every formula it uses must
//! exist; the first that is not is [`Unsupported`].

use std::collections::HashMap;

use super::expr::{Expr, Unsupported};

/// The global functions the evaluator implements.
pub const FUNCTIONS: &[&str] = &[
    "if", "link", "list", "now", "today", "date", "number", "min", "max",
];

/// The methods the evaluator implements (on the types the Bases docs give them).
pub const METHODS: &[&str] = &[
    "contains",
    "containsAll",
    "containsAny",
    "startsWith",
    "endsWith",
    "isEmpty",
    "isTruthy",
    "lower",
    "upper",
    "trim",
    "toString",
    "hasTag",
    "inFolder",
    "hasLink",
    "hasProperty",
    "round",
    "floor",
    "ceil",
    "abs",
    "toFixed",
    "join",
    "unique",
    "reverse",
];

/// The file fields the evaluator knows.
pub const FILE_FIELDS: &[&str] = &[
    "name",
    "basename",
    "path",
    "folder",
    "ext",
    "size",
    "mtime",
    "tags",
    "links",
    "file",
    "properties",
];

/// Why a file field the docs list is left out.
fn missing_file_field(field: &str) -> Option<&'static str> {
    match field {
        "ctime" => Some("creation times are not recorded by the index"),
        "backlinks" => Some("backlinks to attachments are not resolved"),
        "embeds" => Some("embeds are not kept per file"),
        _ => None,
    }
}

fn construct(construct: String) -> Unsupported {
    Unsupported {
        construct,
        column: None,
    }
}

/// Whether `expr` names a file: `file`, `this.file`, `this`.
fn is_file(expr: &Expr) -> bool {
    match expr {
        Expr::Name(name) => name == "file" || name == "this",
        Expr::Member(object, field) => field == "file" && is_file(object),
        _ => false,
    }
}

/// Checks `expr`; `formulas` are the base's formulas (name → source) and `used` collects
/// the formulas it refers to.
pub fn check(
    expr: &Expr,
    formulas: &HashMap<String, String>,
    used: &mut Vec<String>,
) -> Result<(), Unsupported> {
    match expr {
        Expr::Null | Expr::Bool(_) | Expr::Number(_) | Expr::Text(_) | Expr::Name(_) => Ok(()),
        Expr::Member(object, field) => match object.as_ref() {
            Expr::Name(name) if name == "formula" => {
                if !formulas.contains_key(field) {
                    return Err(construct(format!(
                        "formula `{field}` (not defined in `formulas`)"
                    )));
                }
                used.push(field.clone());
                Ok(())
            }
            Expr::Name(name) if name == "note" || name == "this" => Ok(()),
            object if is_file(object) => {
                if let Some(why) = missing_file_field(field) {
                    return Err(construct(format!("file field `file.{field}` ({why})")));
                }
                if !FILE_FIELDS.contains(&field.as_str()) {
                    return Err(construct(format!("file field `file.{field}`")));
                }
                Ok(())
            }
            object => {
                if field != "length" {
                    return Err(construct(format!("field `.{field}`")));
                }
                check(object, formulas, used)
            }
        },
        Expr::Index(object, index) => {
            check(object, formulas, used)?;
            check(index, formulas, used)
        }
        Expr::Call(callee, args) => {
            match callee.as_ref() {
                Expr::Name(function) => {
                    if !FUNCTIONS.contains(&function.as_str()) {
                        return Err(construct(format!("function `{function}()`")));
                    }
                }
                Expr::Member(object, method) => {
                    if !METHODS.contains(&method.as_str()) {
                        return Err(construct(format!("method `.{method}()`")));
                    }
                    check(object, formulas, used)?;
                }
                _ => return Err(construct("a call of a computed value".to_owned())),
            }
            args.iter().try_for_each(|arg| check(arg, formulas, used))
        }
        Expr::Unary(_, operand) => check(operand, formulas, used),
        Expr::Binary(_, left, right) => {
            check(left, formulas, used)?;
            check(right, formulas, used)
        }
        Expr::List(items) => items
            .iter()
            .try_for_each(|item| check(item, formulas, used)),
    }
}

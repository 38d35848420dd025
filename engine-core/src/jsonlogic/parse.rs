//! Validating a rule once into the tree the evaluator walks.
//!
//! An object is an operation: exactly one key, the operator, whose value is its argument
//! list (a non-array value is a list of one, as in json-logic-js). Arrays are evaluated
//! element by element; everything else is a literal. Literal-only arrays are folded into one
//! literal. The pattern of `tc.glob` is compiled here, once per rule.

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

use super::MAX_RULE_DEPTH;
use super::error::{RuleError, RuleErrorKind};
use super::operator::{Op, lookup};
use crate::acl::{CaseMode, Glob};

/// A validated rule node.
#[derive(Debug, Clone)]
pub(crate) enum Node {
    /// A value evaluated to itself.
    Literal(Value),
    /// An array with at least one operation inside: evaluated element by element.
    Array(Vec<Node>),
    /// An operation.
    Op(Box<OpNode>),
}

/// An operation with its validated arguments.
#[derive(Debug, Clone)]
pub(crate) struct OpNode {
    /// Which operator.
    pub op: Op,
    /// Its arguments; for `tc.glob` only the value (the pattern is in [`OpNode::glob`]), for
    /// the string extensions only the two strings (the flag is in [`OpNode::ignore_case`]).
    pub args: Vec<Node>,
    /// The compiled pattern of `tc.glob`.
    pub glob: Option<Glob>,
    /// The `ignore_case` flag of `tc.starts_with`, `tc.ends_with`, `tc.contains`.
    pub ignore_case: bool,
}

/// Parses `value`, which sits at JSON Pointer `path` and nesting level `depth` (1 = root).
pub(crate) fn parse_node(
    value: &Value,
    path: &mut String,
    depth: usize,
) -> Result<Node, RuleError> {
    if depth > MAX_RULE_DEPTH {
        return Err(error(
            path,
            RuleErrorKind::TooDeep {
                limit: MAX_RULE_DEPTH,
            },
        ));
    }
    match value {
        Value::Object(map) => {
            let mut entries = map.iter();
            match (entries.next(), entries.next()) {
                (Some((name, args)), None) => parse_op(name, args, path, depth),
                _ => Err(error(
                    path,
                    RuleErrorKind::NotAnOperation { keys: map.len() },
                )),
            }
        }
        Value::Array(items) => {
            let nodes = items
                .iter()
                .enumerate()
                .map(|(i, item)| within(path, Some(&index(i)), |p| parse_node(item, p, depth + 1)))
                .collect::<Result<Vec<Node>, RuleError>>()?;
            Ok(fold_literals(nodes))
        }
        other => Ok(Node::Literal(other.clone())),
    }
}

/// An array node, or one literal if no element needs evaluating.
fn fold_literals(nodes: Vec<Node>) -> Node {
    if nodes.iter().all(|n| matches!(n, Node::Literal(_))) {
        let values = nodes
            .into_iter()
            .filter_map(|n| match n {
                Node::Literal(v) => Some(v),
                _ => None,
            })
            .collect();
        Node::Literal(Value::Array(values))
    } else {
        Node::Array(nodes)
    }
}

fn parse_op(name: &str, args: &Value, path: &mut String, depth: usize) -> Result<Node, RuleError> {
    within(path, Some(name), |path| {
        let Some(&(op_name, op, min, max)) = lookup(name) else {
            return Err(error(
                path,
                RuleErrorKind::UnknownOperator { name: name.into() },
            ));
        };
        let (raw, listed): (Vec<&Value>, bool) = match args {
            Value::Array(items) => (items.iter().collect(), true),
            single => (alloc::vec![single], false),
        };
        if raw.len() < min || max.is_some_and(|max| raw.len() > max) {
            return Err(error(
                path,
                RuleErrorKind::Arity {
                    op: op_name,
                    min,
                    max,
                    got: raw.len(),
                },
            ));
        }
        let arg_path = |i: usize| listed.then(|| index(i));
        let mut node = OpNode {
            op,
            args: Vec::with_capacity(raw.len()),
            glob: None,
            ignore_case: false,
        };
        let flag_at = match op {
            Op::Glob | Op::StartsWith | Op::EndsWith | Op::Contains => Some(2),
            _ => None,
        };
        if let Some(flag_at) = flag_at
            && let Some(flag) = raw.get(flag_at)
        {
            node.ignore_case = within(path, arg_path(flag_at).as_deref(), |p| match flag {
                Value::Bool(b) => Ok(*b),
                _ => Err(error(
                    p,
                    RuleErrorKind::ExpectedLiteral {
                        expected: "a boolean ignore_case flag",
                    },
                )),
            })?;
        }
        for (i, arg) in raw.iter().enumerate() {
            if flag_at == Some(i) {
                continue;
            }
            if op == Op::Glob && i == 1 {
                node.glob = Some(within(path, arg_path(i).as_deref(), |p| {
                    compile_glob(arg, node.ignore_case, p)
                })?);
                continue;
            }
            node.args.push(within(path, arg_path(i).as_deref(), |p| {
                parse_node(arg, p, depth + 1)
            })?);
        }
        Ok(Node::Op(Box::new(node)))
    })
}

fn compile_glob(pattern: &Value, ignore_case: bool, path: &str) -> Result<Glob, RuleError> {
    let Value::String(pattern) = pattern else {
        return Err(error(
            path,
            RuleErrorKind::ExpectedLiteral {
                expected: "a string glob pattern",
            },
        ));
    };
    let case = if ignore_case {
        CaseMode::Insensitive
    } else {
        CaseMode::Sensitive
    };
    Glob::compile(pattern, case).map_err(|e| error(path, RuleErrorKind::InvalidGlob(e)))
}

/// Runs `f` with `segment` appended to the pointer `path` (`None`: nothing appended, for the
/// single, unlisted argument of an operator, which sits at the operator's own path).
fn within<T>(path: &mut String, segment: Option<&str>, f: impl FnOnce(&mut String) -> T) -> T {
    let len = path.len();
    if let Some(segment) = segment {
        path.push('/');
        for c in segment.chars() {
            match c {
                '~' => path.push_str("~0"),
                '/' => path.push_str("~1"),
                c => path.push(c),
            }
        }
    }
    let out = f(path);
    path.truncate(len);
    out
}

fn index(i: usize) -> String {
    use core::fmt::Write;
    let mut s = String::new();
    let _ = write!(s, "{i}");
    s
}

fn error(path: &str, kind: RuleErrorKind) -> RuleError {
    RuleError {
        path: path.into(),
        kind,
    }
}

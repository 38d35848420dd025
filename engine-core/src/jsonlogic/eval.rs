//! The evaluator: walks a parsed rule against one data object, counting operations.

use alloc::vec::Vec;

use serde_json::Value;

use super::error::EvalError;
use super::operator::Op;
use super::parse::{Node, OpNode};
use super::{arithmetic, collections, compare, data, logic, notes, strings};

/// Counts operations against a budget.
pub(crate) struct Meter {
    used: u64,
    limit: u64,
}

impl Meter {
    /// A meter with nothing used yet.
    pub(crate) fn new(limit: u64) -> Meter {
        Meter { used: 0, limit }
    }

    /// Operations counted so far.
    pub(crate) fn used(&self) -> u64 {
        self.used
    }

    /// Counts `n` operations; fails once the total exceeds the budget.
    pub(crate) fn charge(&mut self, n: u64) -> Result<(), EvalError> {
        self.used = self.used.saturating_add(n);
        if self.used > self.limit {
            return Err(EvalError::BudgetExceeded { limit: self.limit });
        }
        Ok(())
    }
}

/// Evaluates `node` against `data`.
pub(crate) fn eval(node: &Node, data: &Value, meter: &mut Meter) -> Result<Value, EvalError> {
    match node {
        Node::Literal(value) => Ok(value.clone()),
        Node::Array(items) => items
            .iter()
            .map(|item| eval(item, data, meter))
            .collect::<Result<Vec<Value>, EvalError>>()
            .map(Value::Array),
        Node::Op(op) => {
            meter.charge(1)?;
            apply(op, data, meter)
        }
    }
}

/// Applies one operation: the lazy ones get their argument nodes, the others their
/// evaluated arguments.
fn apply(node: &OpNode, data: &Value, meter: &mut Meter) -> Result<Value, EvalError> {
    let args = &node.args;
    match node.op {
        Op::If => return logic::if_then_else(args, data, meter),
        Op::And => return logic::and(args, data, meter),
        Op::Or => return logic::or(args, data, meter),
        Op::Map => return collections::map(args, data, meter),
        Op::Filter => return collections::filter(args, data, meter),
        Op::Reduce => return collections::reduce(args, data, meter),
        Op::All => return collections::all(args, data, meter),
        Op::None => return collections::some(args, data, meter).map(|v| Value::Bool(!v)),
        Op::Some => return collections::some(args, data, meter).map(Value::Bool),
        _ => {}
    }
    let values = args
        .iter()
        .map(|arg| eval(arg, data, meter))
        .collect::<Result<Vec<Value>, EvalError>>()?;
    let v = values.as_slice();
    Ok(match node.op {
        Op::Var => return data::var(v, data, meter),
        Op::Missing => data::missing(v, data),
        Op::MissingSome => data::missing_some(v, data),
        Op::Eq => compare::eq(v),
        Op::StrictEq => compare::strict_eq(v),
        Op::NotEq => compare::not(compare::eq(v)),
        Op::StrictNotEq => compare::not(compare::strict_eq(v)),
        Op::Not => logic::not(v),
        Op::NotNot => logic::not_not(v),
        Op::Gt => compare::greater(v, false),
        Op::Ge => compare::greater(v, true),
        Op::Lt => compare::less(v, false),
        Op::Le => compare::less(v, true),
        Op::Max => arithmetic::max(v),
        Op::Min => arithmetic::min(v),
        Op::Add => arithmetic::add(v),
        Op::Sub => arithmetic::sub(v),
        Op::Mul => arithmetic::mul(v),
        Op::Div => arithmetic::div(v),
        Op::Mod => arithmetic::rem(v),
        Op::Merge => collections::merge(values),
        Op::In => strings::contained_in(v),
        Op::Cat => strings::cat(v),
        Op::Substr => strings::substr(v),
        Op::Glob => notes::glob(v, node.glob.as_ref()),
        Op::StartsWith => notes::starts_with(v, node.ignore_case),
        Op::EndsWith => notes::ends_with(v, node.ignore_case),
        Op::Contains => notes::contains(v, node.ignore_case),
        Op::Before => notes::before(v),
        Op::After => notes::after(v),
        // Evaluated lazily above; never reached.
        Op::If
        | Op::And
        | Op::Or
        | Op::Map
        | Op::Filter
        | Op::Reduce
        | Op::All
        | Op::None
        | Op::Some => Value::Null,
    })
}

/// The argument at `i`, `null` when absent (JavaScript's `undefined` where it reads as null).
pub(crate) fn arg(values: &[Value], i: usize) -> &Value {
    values.get(i).unwrap_or(&Value::Null)
}

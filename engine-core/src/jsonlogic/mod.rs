//! JSONLogic (jsonlogic.com) rules evaluated against a note's facts, with an operation
//! budget, identically on the server and in the plugin (WebAssembly).
//!
//! A rule is validated once with [`Rule::parse`] and then evaluated against many data
//! objects with [`Rule::evaluate`], [`Rule::matches`] or [`Rule::run`]:
//!
//! ```
//! use engine_core::jsonlogic::{EvalError, Rule};
//! use serde_json::json;
//!
//! let rule = Rule::parse(&json!({"and": [
//!     {"tc.glob": [{"var": "file.path"}, "Projects/**"]},
//!     {"in": ["active", {"var": "file.tags"}]},
//!     {">=": [{"var": "priority"}, 2]}
//! ]})).unwrap();
//! let note = json!({"priority": 3, "file": {"path": "Projects/a.md", "tags": ["active"]}});
//! assert!(rule.matches(&note, 1_000).unwrap());
//! assert_eq!(rule.matches(&note, 3), Err(EvalError::BudgetExceeded { limit: 3 }));
//! ```
//!
//! **Operators.** Every standard operator of jsonlogic.com/operations.html except `log`
//! (the evaluator does no I/O) and json-logic-js's method calls (`Math.abs`-style names):
//! `var`, `missing`, `missing_some`, `if`/`?:`, `==`, `===`, `!=`, `!==`, `!`, `!!`, `or`,
//! `and`, `>`, `>=`, `<`, `<=` (and the between forms), `max`, `min`, `+`, `-`, `*`, `/`, `%`,
//! `map`, `filter`, `reduce`, `all`, `none`, `some`, `merge`, `in`, `cat`, `substr`; plus the
//! note extensions of [`notes`](self#extensions), all named `tc.*`.
//!
//! **Semantics** follow the reference implementation, json-logic-js, JavaScript coercions
//! included (`{"==":[1,"1"]}` is true, `{"+":["1",1]}` is 2, `{"*":["1"]}` is `"1"`); the
//! surprising ones are documented on the operator families (`coerce`, `arithmetic`,
//! `data`, `collections`, `strings`). Deliberate departures: arrays and objects compare
//! structurally under `==`/`===` (JSON has no identity); NaN and ±Infinity become `null`;
//! strings count characters, not UTF-16 units; an object with other than one key is refused
//! instead of passed through; arities the reference gives no meaning to are refused.
//!
//! **Budget.** One operation is counted for every operator applied, for every element that
//! `map`, `filter`, `reduce`, `all`, `some` or `none` visits, and for every array element or
//! object member `var` copies out of the data. The count depends only on the rule and the
//! data, so it is the same on every platform. Exceeding the budget stops the evaluation
//! with [`EvalError::BudgetExceeded`]. Rules nesting deeper than [`MAX_RULE_DEPTH`] are
//! refused by [`Rule::parse`]; values read by `var` may nest [`MAX_VALUE_DEPTH`] deep.
//!
//! <a id="extensions"></a>**Extensions** (`tc.glob`, `tc.starts_with`, `tc.ends_with`,
//! `tc.contains`, `tc.before`, `tc.after`) are described in the `notes` module source; in
//! short, each takes the value under test first and is false for a value of the wrong type.

mod arithmetic;
mod coerce;
mod collections;
mod compare;
mod data;
mod error;
mod eval;
mod logic;
mod notes;
mod operator;
mod parse;
mod strings;
mod truthy;

use alloc::string::String;

use serde_json::Value;

pub use error::{EvalError, RuleError, RuleErrorKind};
pub use operator::operator_names;
pub use truthy::truthy;

use eval::{Meter, eval};
use parse::{Node, parse_node};

/// Deepest nesting of arrays and operations a rule may have (the root is level 1).
pub const MAX_RULE_DEPTH: usize = 64;

/// Deepest nesting a value read by `var` may have.
pub const MAX_VALUE_DEPTH: usize = 256;

/// A budget fit for one rule against one note's facts: generous for any hand-written rule
/// on frontmatter, small enough to stop a runaway one in well under a millisecond.
pub const DEFAULT_BUDGET: u64 = 10_000;

/// A validated rule, ready to be evaluated against any number of data objects.
#[derive(Debug, Clone)]
pub struct Rule {
    root: Node,
}

/// The result of [`Rule::run`]: the value and the operations it took.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The rule's value.
    pub value: Value,
    /// Operations counted (see the module documentation), at most the budget.
    pub operations: u64,
}

impl Rule {
    /// Validates `rule`: known operators, accepted arities, nesting within
    /// [`MAX_RULE_DEPTH`], literal `tc.glob` patterns that compile.
    pub fn parse(rule: &Value) -> Result<Rule, RuleError> {
        let mut path = String::new();
        Ok(Rule {
            root: parse_node(rule, &mut path, 1)?,
        })
    }

    /// Evaluates the rule against `data` within `budget` operations, reporting the count.
    pub fn run(&self, data: &Value, budget: u64) -> Result<Outcome, EvalError> {
        let mut meter = Meter::new(budget);
        let value = eval(&self.root, data, &mut meter)?;
        Ok(Outcome {
            value,
            operations: meter.used(),
        })
    }

    /// The rule's value for `data`, within `budget` operations.
    pub fn evaluate(&self, data: &Value, budget: u64) -> Result<Value, EvalError> {
        self.run(data, budget).map(|outcome| outcome.value)
    }

    /// Whether the rule's value for `data` is [`truthy`], within `budget` operations.
    pub fn matches(&self, data: &Value, budget: u64) -> Result<bool, EvalError> {
        self.evaluate(data, budget).map(|value| truthy(&value))
    }
}

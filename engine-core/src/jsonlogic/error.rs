//! Typed errors: [`RuleError`] when a rule is refused before evaluation, [`EvalError`] when an
//! evaluation stops on a limit.

use alloc::string::String;
use core::fmt;

use crate::acl::GlobError;

/// Why a rule is refused by [`Rule::parse`](super::Rule::parse), and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleError {
    /// JSON Pointer (RFC 6901) of the offending node inside the rule: `/and/1/==` names the
    /// `==` key of the object at index 1 of the `and` arguments; `""` is the whole rule.
    pub path: String,
    /// What is wrong with it.
    pub kind: RuleErrorKind,
}

impl RuleError {
    /// Stable error code for callers that map errors to wire codes.
    pub fn code(&self) -> &'static str {
        "invalid_rule"
    }
}

impl fmt::Display for RuleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = if self.path.is_empty() {
            "(root)"
        } else {
            &self.path
        };
        write!(f, "{} at {path}", self.kind)
    }
}

/// The reasons a rule is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RuleErrorKind {
    /// The operator is neither a standard JSONLogic operator nor a `tc.` extension (`log` and
    /// the `Math.*`-style method calls of json-logic-js are not supported).
    UnknownOperator {
        /// The operator as written.
        name: String,
    },
    /// An object in a rule must have exactly one key, the operator; json-logic-js would pass
    /// such an object through as data, which hides typos, so it is refused.
    NotAnOperation {
        /// How many keys the object has.
        keys: usize,
    },
    /// The operator got a number of arguments it does not accept.
    Arity {
        /// The operator.
        op: &'static str,
        /// Fewest arguments accepted.
        min: usize,
        /// Most arguments accepted (`None`: no limit).
        max: Option<usize>,
        /// Arguments given.
        got: usize,
    },
    /// The rule nests deeper than [`MAX_RULE_DEPTH`](super::MAX_RULE_DEPTH).
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// An argument that must be written literally in the rule is not of the right kind
    /// (the pattern of `tc.glob`, the `ignore_case` flag of the string extensions).
    ExpectedLiteral {
        /// What was expected, e.g. `"a string pattern"`.
        expected: &'static str,
    },
    /// The pattern of `tc.glob` does not compile.
    InvalidGlob(GlobError),
}

impl fmt::Display for RuleErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RuleErrorKind::UnknownOperator { name } => write!(
                f,
                "unknown operator {name:?} (use a JSONLogic operator or a tc. extension)"
            ),
            RuleErrorKind::NotAnOperation { keys } => write!(
                f,
                "an object in a rule must have exactly one key, the operator; this one has {keys}"
            ),
            RuleErrorKind::Arity { op, min, max, got } => match max {
                Some(max) if max == min => {
                    write!(f, "{op} takes {min} argument(s), got {got}")
                }
                Some(max) => write!(f, "{op} takes {min} to {max} arguments, got {got}"),
                None => write!(f, "{op} takes at least {min} argument(s), got {got}"),
            },
            RuleErrorKind::TooDeep { limit } => {
                write!(f, "the rule nests deeper than {limit} levels")
            }
            RuleErrorKind::ExpectedLiteral { expected } => {
                write!(f, "expected {expected} written literally in the rule")
            }
            RuleErrorKind::InvalidGlob(e) => write!(f, "invalid glob pattern: {e}"),
        }
    }
}

/// Why an evaluation stopped. Evaluation never fails on data: a value of the wrong type is
/// coerced the JavaScript way or makes the operator false; only the limits stop it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EvalError {
    /// The operation budget ran out (see [`Rule::run`](super::Rule::run) for what counts).
    BudgetExceeded {
        /// The budget that was exceeded.
        limit: u64,
    },
    /// A value read by `var` (from the data or a `reduce` accumulator) nests deeper than
    /// [`MAX_VALUE_DEPTH`](super::MAX_VALUE_DEPTH).
    ValueTooDeep {
        /// The limit.
        limit: usize,
    },
}

impl EvalError {
    /// Stable error code: `compute_budget_exceeded` (the server's code) or `value_too_deep`.
    pub fn code(&self) -> &'static str {
        match self {
            EvalError::BudgetExceeded { .. } => "compute_budget_exceeded",
            EvalError::ValueTooDeep { .. } => "value_too_deep",
        }
    }
}

impl fmt::Display for EvalError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EvalError::BudgetExceeded { limit } => write!(
                f,
                "the rule needed more than {limit} operations; simplify it or raise the budget"
            ),
            EvalError::ValueTooDeep { limit } => {
                write!(f, "a value nests deeper than {limit} levels")
            }
        }
    }
}

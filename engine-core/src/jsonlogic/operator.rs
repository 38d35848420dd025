//! The operator table: every name a rule may use, and how many arguments each accepts.

/// One operator. `?:` is [`Op::If`] under another name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Op {
    Var,
    Missing,
    MissingSome,
    If,
    Eq,
    StrictEq,
    NotEq,
    StrictNotEq,
    Not,
    NotNot,
    Or,
    And,
    Gt,
    Ge,
    Lt,
    Le,
    Max,
    Min,
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Map,
    Filter,
    Reduce,
    All,
    None,
    Some,
    Merge,
    In,
    Cat,
    Substr,
    Glob,
    StartsWith,
    EndsWith,
    Contains,
    Before,
    After,
}

/// Name, operator, fewest and most arguments (`None`: any number).
type Entry = (&'static str, Op, usize, Option<usize>);

/// Every operator a rule may use. Arities are the ones the reference gives a meaning to;
/// json-logic-js would run `{"==":[1]}` as `1 == undefined`, here it is refused.
const OPERATORS: &[Entry] = &[
    ("var", Op::Var, 0, Some(2)),
    ("missing", Op::Missing, 0, None),
    ("missing_some", Op::MissingSome, 2, Some(2)),
    ("if", Op::If, 0, None),
    ("?:", Op::If, 0, None),
    ("==", Op::Eq, 2, Some(2)),
    ("===", Op::StrictEq, 2, Some(2)),
    ("!=", Op::NotEq, 2, Some(2)),
    ("!==", Op::StrictNotEq, 2, Some(2)),
    ("!", Op::Not, 1, Some(1)),
    ("!!", Op::NotNot, 1, Some(1)),
    ("or", Op::Or, 1, None),
    ("and", Op::And, 1, None),
    (">", Op::Gt, 2, Some(2)),
    (">=", Op::Ge, 2, Some(2)),
    ("<", Op::Lt, 2, Some(3)),
    ("<=", Op::Le, 2, Some(3)),
    ("max", Op::Max, 1, None),
    ("min", Op::Min, 1, None),
    ("+", Op::Add, 0, None),
    ("-", Op::Sub, 1, Some(2)),
    ("*", Op::Mul, 1, None),
    ("/", Op::Div, 2, Some(2)),
    ("%", Op::Mod, 2, Some(2)),
    ("map", Op::Map, 2, Some(2)),
    ("filter", Op::Filter, 2, Some(2)),
    ("reduce", Op::Reduce, 2, Some(3)),
    ("all", Op::All, 2, Some(2)),
    ("none", Op::None, 2, Some(2)),
    ("some", Op::Some, 2, Some(2)),
    ("merge", Op::Merge, 0, None),
    ("in", Op::In, 2, Some(2)),
    ("cat", Op::Cat, 0, None),
    ("substr", Op::Substr, 1, Some(3)),
    ("tc.glob", Op::Glob, 2, Some(3)),
    ("tc.starts_with", Op::StartsWith, 2, Some(3)),
    ("tc.ends_with", Op::EndsWith, 2, Some(3)),
    ("tc.contains", Op::Contains, 2, Some(3)),
    ("tc.before", Op::Before, 2, Some(2)),
    ("tc.after", Op::After, 2, Some(2)),
];

/// The table entry for `name`, if it is an operator.
pub(crate) fn lookup(name: &str) -> Option<&'static Entry> {
    OPERATORS.iter().find(|entry| entry.0 == name)
}

/// The names of every operator, standard ones first, then the `tc.` extensions.
pub fn operator_names() -> impl Iterator<Item = &'static str> {
    OPERATORS.iter().map(|entry| entry.0)
}

//! Running one view of a [`Base`] over a [`Universe`]: everything the view uses is parsed
//! and checked first (the base's and the view's filters, its columns, sorts and grouping,
//! and the formulas they reach), so an unsupported construct fails the query before any
//! row is computed; then the files are filtered, sorted, grouped and limited.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::check::check;
use super::eval::{Row, Universe};
use super::expr::{Expr, parse};
use super::model::{Base, BaseError, Filter, View, canonical_property};
use super::value::Val;

/// A column of the result.
#[derive(Debug, Clone, PartialEq)]
pub struct Column {
    /// The property id as the view writes it.
    pub id: String,
    /// Its display name (`properties.<id>.displayName`, else the id).
    pub display_name: String,
}

/// One row: the file and its column values.
#[derive(Debug, Clone, PartialEq)]
pub struct ResultRow {
    /// The file's path.
    pub path: String,
    /// Column id → value.
    pub values: Map<String, Value>,
    /// The row's group key, when the view groups.
    pub group: Option<Value>,
}

/// A view's result.
#[derive(Debug, Clone, PartialEq)]
pub struct ViewResult {
    /// The columns.
    pub columns: Vec<Column>,
    /// The rows, sorted (and grouped), at most the view's limit.
    pub rows: Vec<ResultRow>,
    /// How many files passed the filters (before the limit).
    pub matched: usize,
}

/// A filter with its statements parsed.
enum Compiled {
    Expr(Expr),
    And(Vec<Compiled>),
    Or(Vec<Compiled>),
    Not(Vec<Compiled>),
}

/// The expression of a property id.
fn property_expr(id: &str) -> Expr {
    let canonical = canonical_property(id);
    let (scope, name) = canonical.split_once('.').unwrap_or(("note", &canonical));
    Expr::Member(Box::new(Expr::Name(scope.to_owned())), name.to_owned())
}

struct Compiler<'b> {
    sources: HashMap<String, String>,
    compiled: HashMap<String, Expr>,
    base: &'b Base,
}

impl Compiler<'_> {
    /// Parses and checks `source`, then the formulas it uses.
    fn expr(&mut self, source: &str, location: &str) -> Result<Expr, BaseError> {
        let expr = parse(source).map_err(|e| BaseError {
            construct: e.to_string(),
            location: location.to_owned(),
        })?;
        self.checked(expr, location)
    }

    fn checked(&mut self, expr: Expr, location: &str) -> Result<Expr, BaseError> {
        let mut used = Vec::new();
        check(&expr, &self.sources, &mut used).map_err(|e| BaseError {
            construct: e.to_string(),
            location: location.to_owned(),
        })?;
        for name in used {
            self.formula(&name, &mut Vec::new())?;
        }
        Ok(expr)
    }

    /// Compiles formula `name` and those it uses; `stack` finds cycles.
    fn formula(&mut self, name: &str, stack: &mut Vec<String>) -> Result<(), BaseError> {
        if self.compiled.contains_key(name) {
            return Ok(());
        }
        let location = format!("formulas.{name}");
        if stack.iter().any(|s| s == name) {
            return Err(BaseError {
                construct: format!(
                    "a circular formula reference ({} → {name})",
                    stack.join(" → ")
                ),
                location,
            });
        }
        let source = self
            .base
            .formulas
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| s.clone())
            .unwrap_or_default();
        let expr = parse(&source).map_err(|e| BaseError {
            construct: e.to_string(),
            location: location.clone(),
        })?;
        let mut used = Vec::new();
        check(&expr, &self.sources, &mut used).map_err(|e| BaseError {
            construct: e.to_string(),
            location: location.clone(),
        })?;
        stack.push(name.to_owned());
        for inner in used {
            self.formula(&inner, stack)?;
        }
        stack.pop();
        self.compiled.insert(name.to_owned(), expr);
        Ok(())
    }

    fn filter(&mut self, filter: &Filter) -> Result<Compiled, BaseError> {
        Ok(match filter {
            Filter::Statement { source, location } => Compiled::Expr(self.expr(source, location)?),
            Filter::And(items) => Compiled::And(self.filters(items)?),
            Filter::Or(items) => Compiled::Or(self.filters(items)?),
            Filter::Not(items) => Compiled::Not(self.filters(items)?),
        })
    }

    fn filters(&mut self, items: &[Filter]) -> Result<Vec<Compiled>, BaseError> {
        items.iter().map(|f| self.filter(f)).collect()
    }
}

fn holds(filter: &Compiled, row: &mut Row<'_>) -> bool {
    match filter {
        Compiled::Expr(expr) => row.eval(expr).truthy(),
        Compiled::And(items) => items.iter().all(|f| holds(f, row)),
        Compiled::Or(items) => items.iter().any(|f| holds(f, row)),
        Compiled::Not(items) => !items.iter().any(|f| holds(f, row)),
    }
}

/// Runs `view` of `base` over `universe`, with the rows capped at `limit` (the view's own
/// limit applies first).
pub fn run_view(
    base: &Base,
    view: &View,
    location: &str,
    universe: &Universe,
) -> Result<ViewResult, BaseError> {
    let mut compiler = Compiler {
        sources: base.formulas.iter().cloned().collect(),
        compiled: HashMap::new(),
        base,
    };
    let base_filter = base
        .filters
        .as_ref()
        .map(|f| compiler.filter(f))
        .transpose()?;
    let view_filter = view
        .filters
        .as_ref()
        .map(|f| compiler.filter(f))
        .transpose()?;
    let columns: Vec<(String, Expr)> = view
        .order
        .iter()
        .enumerate()
        .map(|(i, id)| {
            let expr = compiler.checked(property_expr(id), &format!("{location}.order[{i}]"))?;
            Ok((id.clone(), expr))
        })
        .collect::<Result<_, BaseError>>()?;
    let mut keys: Vec<(Expr, bool)> = Vec::new();
    if let Some(group) = &view.group_by {
        let expr = compiler.checked(
            property_expr(&group.property),
            &format!("{location}.groupBy"),
        )?;
        keys.push((expr, group.descending));
    }
    for (i, key) in view.sort.iter().enumerate() {
        let expr = compiler.checked(
            property_expr(&key.property),
            &format!("{location}.sort[{i}]"),
        )?;
        keys.push((expr, key.descending));
    }
    let formulas = compiler.compiled;
    let mut passed: Vec<(usize, Vec<Val>, Vec<Val>)> = Vec::new();
    for file in 0..universe.files.len() {
        let mut row = Row::new(universe, &formulas, file);
        let keep = base_filter.as_ref().is_none_or(|f| holds(f, &mut row))
            && view_filter.as_ref().is_none_or(|f| holds(f, &mut row));
        if !keep {
            continue;
        }
        let sort_values = keys.iter().map(|(e, _)| row.eval(e)).collect();
        let column_values = columns.iter().map(|(_, e)| row.eval(e)).collect();
        passed.push((file, sort_values, column_values));
    }
    let judge = Row::new(universe, &formulas, 0);
    passed.sort_by(|a, b| {
        for (i, (_, descending)) in keys.iter().enumerate() {
            let (x, y) = (&a.1[i], &b.1[i]);
            let ordering = match (x.is_empty(), y.is_empty()) {
                (true, true) => std::cmp::Ordering::Equal,
                // Empty values go last whatever the direction.
                (true, false) => std::cmp::Ordering::Greater,
                (false, true) => std::cmp::Ordering::Less,
                (false, false) if *descending => judge.order(y, x),
                (false, false) => judge.order(x, y),
            };
            if ordering.is_ne() {
                return ordering;
            }
        }
        universe.files[a.0].path.cmp(&universe.files[b.0].path)
    });
    let matched = passed.len();
    if let Some(limit) = view.limit {
        passed.truncate(limit);
    }
    let path_of = |i: usize| universe.path_of(i);
    let rows = passed
        .into_iter()
        .map(|(file, sort_values, column_values)| ResultRow {
            path: universe.files[file].path.clone(),
            values: columns
                .iter()
                .zip(column_values)
                .map(|((id, _), v)| (id.clone(), v.to_json(&path_of)))
                .collect(),
            group: view
                .group_by
                .as_ref()
                .and_then(|_| sort_values.first().map(|v| v.to_json(&path_of))),
        })
        .collect();
    Ok(ViewResult {
        columns: view
            .order
            .iter()
            .map(|id| Column {
                display_name: base
                    .display_names
                    .get(&canonical_property(id))
                    .and_then(Value::as_str)
                    .map_or_else(|| id.clone(), str::to_owned),
                id: id.clone(),
            })
            .collect(),
        rows,
        matched,
    })
}

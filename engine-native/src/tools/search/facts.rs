//! JSONLogic rules over a note's facts, for `search_vault` mode `jsonlogic`.
//!
//! The data a rule sees for a note: its frontmatter properties at the top level, and its
//! file facts under `file` (`file.path`, `file.title`, `file.folder`, `file.tags`,
//! `file.aliases`, `file.size`, `file.mtime`, `file.links`). Each file fact is also at the
//! top level unless the frontmatter has a property of that name (the property wins there;
//! `file.<name>` is always the fact). A frontmatter property named `file` is shadowed.

use std::time::Instant;

use engine_core::jsonlogic::{DEFAULT_BUDGET, EvalError, Rule};
use serde_json::{Map, Value, json};

use super::matching::TIME_BUDGET;
use crate::errors::{ErrorCode, ToolError};
use crate::note::title_of;
use crate::store::NoteFacts;

/// A validated rule from the query text.
pub(super) fn parse_rule(query: &str) -> Result<Rule, ToolError> {
    let value: Value = serde_json::from_str(query)
        .map_err(|error| invalid_rule(format!("the query is not a JSON value: {error}")))?;
    Rule::parse(&value)
        .map_err(|error| invalid_rule(format!("the JSONLogic rule is invalid: {error}")))
}

/// The first `wanted` notes among `notes` (in order) whose facts satisfy `rule`; `allowed` says which notes may be looked at at all.
/// Each note's evaluation has engine-core's default operation budget, the whole run the
/// search time budget.
pub(super) fn matching<'n>(
    rule: &Rule,
    notes: &'n [NoteFacts],
    allowed: &dyn Fn(&str) -> bool,
    wanted: usize,
) -> Result<Vec<&'n NoteFacts>, ToolError> {
    let started = Instant::now();
    let mut out = Vec::new();
    for note in notes.iter().filter(|n| allowed(&n.path)) {
        let hit = rule
            .matches(&data(note), DEFAULT_BUDGET)
            .map_err(|error| match error {
                EvalError::BudgetExceeded { limit } => over_budget(format!(
                    "the rule needed more than {limit} operations on '{}'",
                    note.path
                )),
                EvalError::ValueTooDeep { .. } => invalid_rule(format!(
                    "the rule read a value nested too deep in '{}': {error}",
                    note.path
                )),
            })?;
        if started.elapsed() > TIME_BUDGET {
            return Err(over_budget(format!(
                "evaluating the rule ran longer than {} ms",
                TIME_BUDGET.as_millis()
            )));
        }
        if hit {
            out.push(note);
            if out.len() == wanted {
                break;
            }
        }
    }
    Ok(out)
}

/// The data object a rule sees for `note`.
fn data(note: &NoteFacts) -> Value {
    let folder = note.path.rsplit_once('/').map_or("", |(folder, _)| folder);
    let file = json!({
        "path": note.path,
        "title": title_of(&note.path),
        "folder": folder,
        "tags": note.tags,
        "aliases": note.aliases,
        "size": note.size,
        "mtime": note.mtime,
        "links": note.links,
    });
    let mut data: Map<String, Value> = note.frontmatter.clone();
    if let Value::Object(facts) = &file {
        for (name, value) in facts {
            data.entry(name.clone()).or_insert_with(|| value.clone());
        }
    }
    data.insert("file".to_owned(), file);
    Value::Object(data)
}

fn invalid_rule(message: String) -> ToolError {
    ToolError::new(ErrorCode::InvalidInput, message).with_recovery(
        "give query as a JSONLogic rule in JSON, e.g. {\"==\":[{\"var\":\"status\"},\"done\"]}; \
         facts are the frontmatter properties and file.path, file.title, file.folder, \
         file.tags, file.aliases, file.size, file.mtime, file.links",
    )
}

fn over_budget(message: String) -> ToolError {
    ToolError::new(ErrorCode::ComputeBudgetExceeded, message).with_recovery(
        "simplify the rule (fewer map/filter/reduce over long lists), or narrow it with folder",
    )
}

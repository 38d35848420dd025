//! `list_properties` and `find_notes_by_property`: vault-wide views over the properties of
//! the notes the caller may read.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use super::args::{FindNotesByProperty, ListProperties, QueryOp};
use super::errors::argument_error;
use super::page::page;
use super::results::{PropertyList, PropertyMatch, PropertyMatches, PropertyUsage};
use crate::errors::ToolError;
use crate::frontmatter::{PropertyQuery, PropertyType};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::frontmatter::scan;
use crate::tools::common::structured::structured;

/// Every property name used by the readable notes under a folder, with how many notes use
/// it and the types seen, by name; notes whose properties cannot be read are listed apart.
pub(super) fn list_properties(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ListProperties = parse(args)?;
    let mut scan = scan(ctx, args.folder.as_deref())?;
    let mut usage: BTreeMap<&str, (usize, BTreeSet<PropertyType>)> = BTreeMap::new();
    for (_, fm) in &scan.notes {
        for (name, value) in &fm.properties {
            let (count, types) = usage.entry(name).or_default();
            *count += 1;
            types.insert(PropertyType::of(value));
        }
    }
    let total_count = usage.len();
    let sorted = usage
        .into_iter()
        .map(|(name, (note_count, types))| {
            let item = PropertyUsage {
                name: name.to_owned(),
                note_count,
                types: types.into_iter().collect(),
            };
            (name.to_owned(), item)
        })
        .collect();
    let page = page(sorted, args.page.cursor(), args.page.limit());
    let (invalid, invalid_count) = scan.invalid_report();
    structured(&PropertyList {
        items: page.items,
        cursor: page.cursor,
        total_count,
        notes_scanned: scan.notes.len() + invalid_count,
        invalid,
        invalid_count,
    })
}

/// The readable notes under a folder whose property satisfies the condition, by path, each
/// with the property's value.
pub(super) fn find_notes_by_property(
    ctx: &ToolContext<'_>,
    args: Value,
) -> Result<Value, ToolError> {
    let args: FindNotesByProperty = parse(args)?;
    let query = query_of(&args)?;
    let mut scan = scan(ctx, args.folder.as_deref())?;
    let matching: Vec<(String, PropertyMatch)> = std::mem::take(&mut scan.notes)
        .into_iter()
        .filter(|(_, fm)| query.matches_properties(&fm.properties))
        .map(|(path, mut fm)| {
            let value = fm.properties.remove(&args.key).unwrap_or(Value::Null);
            let item = PropertyMatch {
                path: path.clone(),
                value,
            };
            (path, item)
        })
        .collect();
    let total_count = matching.len();
    let page = page(matching, args.page.cursor(), args.page.limit());
    let (invalid, invalid_count) = scan.invalid_report();
    structured(&PropertyMatches {
        items: page.items,
        cursor: page.cursor,
        total_count,
        invalid,
        invalid_count,
    })
}

/// The condition the arguments describe: `value` is required by `equals` and `contains`
/// and refused by `exists`.
fn query_of(args: &FindNotesByProperty) -> Result<PropertyQuery, ToolError> {
    let key = args.key.clone();
    match (args.op, args.value.clone()) {
        (QueryOp::Exists, None) => Ok(PropertyQuery::Exists { key }),
        (QueryOp::Equals, Some(value)) => Ok(PropertyQuery::Equals { key, value }),
        (QueryOp::Contains, Some(value)) => Ok(PropertyQuery::Contains { key, value }),
        (QueryOp::Exists, Some(_)) => Err(argument_error(
            "op 'exists' takes no value; leave out 'value' or use op 'equals'",
        )),
        (QueryOp::Equals | QueryOp::Contains, None) => Err(argument_error(
            "ops 'equals' and 'contains' need a 'value' to compare with",
        )),
    }
}

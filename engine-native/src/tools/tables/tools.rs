//! The four table tools: shared arguments (which note, which table), one pure edit each.

use std::cmp::Ordering;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::gfm::{Align, Table, find_tables, render};
use crate::edits::Edit;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{Handler, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::edit_flow::{EditRequest, apply_note_edit, edit_tool};
use crate::tools::common::structured::structured;

/// Which note and which table.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Target {
    /// The note's vault-relative path.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// The table's 0-based index in the note (default 0), or among the tables under `heading`.
    #[serde(default)]
    index: usize,
    /// Only tables in the section of this heading (its text, without `#`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    heading: Option<String>,
    /// Refuse (`concurrent_modification`) unless the note still has this SHA-256.
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    expected_sha256: Option<String>,
    /// Return the diff preview and change nothing.
    #[serde(default)]
    dry_run: bool,
}

/// `format_table` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct FormatTable {
    #[serde(flatten)]
    target: Target,
}

/// `insert_table_row` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct InsertRow {
    #[serde(flatten)]
    target: Target,
    /// The row's cells, left to right (missing ones are empty).
    cells: Vec<String>,
    /// The 0-based data row the new row becomes (default: last).
    #[serde(default)]
    position: Option<usize>,
}

/// `insert_table_column` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct InsertColumn {
    #[serde(flatten)]
    target: Target,
    /// The new column's header.
    header: String,
    /// Its value in each data row, top to bottom (missing ones are empty).
    #[serde(default)]
    values: Vec<String>,
    /// `left`, `right`, `center` or `none` (default).
    #[serde(default)]
    alignment: Option<String>,
    /// The 0-based column index it becomes (default: last).
    #[serde(default)]
    position: Option<usize>,
}

/// `sort_table_by_column` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SortTable {
    #[serde(flatten)]
    target: Target,
    /// The column: its header text, or its 0-based index as a string of digits.
    #[schemars(length(min = 1))]
    column: String,
    /// Largest first.
    #[serde(default)]
    descending: bool,
    /// Compare as numbers (cells that are not numbers sort last).
    #[serde(default)]
    numeric: bool,
}

/// The table tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        table_tool(
            ("format_table", "Format table"),
            "Reformat a GFM markdown table in a note: pad every column to its widest cell, honouring the delimiter row's alignment. The table is the index-th of the note (default 0) or of the section under heading. dry_run previews.",
            &[
                "table",
                "markdown table",
                "align columns",
                "tidy table",
                "pretty print table",
                "reformat",
                "pad columns",
            ],
            input_schema::<FormatTable>(),
            format_table,
        ),
        table_tool(
            ("insert_table_row", "Insert table row"),
            "Insert a data row (cells left to right) into a GFM table of a note at position (default last); the table is written back formatted. Table by index or by the heading it sits under. dry_run previews.",
            &[
                "table",
                "add row",
                "new row",
                "table entry",
                "append row",
                "rows",
            ],
            input_schema::<InsertRow>(),
            insert_row,
        ),
        table_tool(
            ("insert_table_column", "Insert table column"),
            "Insert a column (header, per-row values, alignment left/right/center/none) into a GFM table of a note at position (default last). Table by index or heading. dry_run previews.",
            &[
                "table",
                "add column",
                "new column",
                "table field",
                "columns",
            ],
            input_schema::<InsertColumn>(),
            insert_column,
        ),
        table_tool(
            ("sort_table_by_column", "Sort table"),
            "Sort a GFM table's data rows by a column (header text or 0-based index), ascending or descending, optionally numeric; the header and alignment stay. Table by index or heading. dry_run previews.",
            &[
                "order by",
                "newest first",
                "oldest first",
                "table",
                "sort",
                "order rows",
                "ascending",
                "descending",
                "sort by column",
            ],
            input_schema::<SortTable>(),
            sort_table,
        ),
    ]
}

fn table_tool(
    names: (&'static str, &'static str),
    description: &'static str,
    keywords: &'static [&'static str],
    schema: Value,
    handler: Handler,
) -> ToolDef {
    ToolDef {
        domain: "structured",
        keywords,
        ..edit_tool(names, description, schema, handler)
    }
}

/// Parses `args` as `A`, edits the chosen table with `change`, writes the note.
fn edit_table<A: DeserializeOwned>(
    ctx: &ToolContext<'_>,
    args: Value,
    target: impl Fn(&A) -> &Target,
    change: impl Fn(&A, &mut Table) -> Result<(), ToolError>,
) -> Result<Value, ToolError> {
    let args: A = parse(args)?;
    let at = target(&args);
    let request = EditRequest {
        path: &at.path,
        expected_sha256: at.expected_sha256.as_deref(),
        dry_run: at.dry_run,
    };
    let result = apply_note_edit(ctx, &request, |path, text| {
        let lines: Vec<&str> = text.split('\n').collect();
        let mut table = locate(&lines, at, path)?;
        change(&args, &mut table)?;
        let mut out: Vec<String> = lines[..table.start]
            .iter()
            .map(|l| (*l).to_owned())
            .collect();
        out.extend(render(&table));
        out.extend(lines[table.end..].iter().map(|l| (*l).to_owned()));
        Ok(Edit::new(text, out.join("\n")))
    })?;
    structured(&result)
}

/// The table `at` names among `lines`.
fn locate(lines: &[&str], at: &Target, path: &str) -> Result<Table, ToolError> {
    let (from, to) = match &at.heading {
        None => (0, lines.len()),
        Some(heading) => section(lines, heading).ok_or_else(|| {
            ToolError::new(
                ErrorCode::NotFound,
                format!("'{path}' has no heading '{heading}'; read the note's outline"),
            )
        })?,
    };
    let tables: Vec<Table> = find_tables(&lines[..to])
        .into_iter()
        .filter(|table| table.start >= from)
        .collect();
    let count = tables.len();
    tables.into_iter().nth(at.index).ok_or_else(|| {
        ToolError::new(
            ErrorCode::NotFound,
            format!(
                "there is no table {} in '{path}'{} ({count} found); give an index below {count}",
                at.index,
                at.heading
                    .as_deref()
                    .map(|h| format!(" under '{h}'"))
                    .unwrap_or_default()
            ),
        )
        .with_details(json!({ "path": path, "tables": count }))
    })
}

/// The lines of the section under the ATX heading whose text is `heading`: after it, up to
/// the next heading of the same or a higher level.
fn section(lines: &[&str], heading: &str) -> Option<(usize, usize)> {
    let level_of = |line: &str| {
        let hashes = line.chars().take_while(|&c| c == '#').count();
        ((1..=6).contains(&hashes) && line[hashes..].starts_with(' ')).then_some(hashes)
    };
    let start = lines.iter().position(|line| {
        level_of(line).is_some_and(|level| line[level..].trim() == heading.trim())
    })?;
    let level = level_of(lines[start])?;
    let end = lines[start + 1..]
        .iter()
        .position(|line| level_of(line).is_some_and(|l| l <= level))
        .map_or(lines.len(), |p| start + 1 + p);
    Some((start + 1, end))
}

fn format_table(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    edit_table(ctx, args, |a: &FormatTable| &a.target, |_, _| Ok(()))
}

fn insert_row(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    edit_table(
        ctx,
        args,
        |a: &InsertRow| &a.target,
        |a, table| {
            let columns = table.header.len();
            if a.cells.len() > columns {
                return Err(invalid(format!(
                    "the row has {} cells but the table {columns} columns; insert a column first",
                    a.cells.len()
                )));
            }
            let position = a.position.unwrap_or(table.rows.len());
            if position > table.rows.len() {
                return Err(invalid(format!(
                    "position {position} is past the table's {} rows",
                    table.rows.len()
                )));
            }
            let mut row = a.cells.iter().map(|c| escape(c)).collect::<Vec<_>>();
            row.resize(columns, String::new());
            table.rows.insert(position, row);
            Ok(())
        },
    )
}

fn insert_column(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    edit_table(
        ctx,
        args,
        |a: &InsertColumn| &a.target,
        |a, table| {
            let align = match a.alignment.as_deref().unwrap_or("none") {
                "none" => Align::None,
                "left" => Align::Left,
                "right" => Align::Right,
                "center" => Align::Center,
                other => {
                    return Err(invalid(format!(
                        "alignment '{other}' is not left, right, center or none"
                    )));
                }
            };
            if a.values.len() > table.rows.len() {
                return Err(invalid(format!(
                    "{} values for a table of {} rows; give at most one per row",
                    a.values.len(),
                    table.rows.len()
                )));
            }
            let position = a.position.unwrap_or(table.header.len());
            if position > table.header.len() {
                return Err(invalid(format!(
                    "position {position} is past the table's {} columns",
                    table.header.len()
                )));
            }
            table.header.insert(position, escape(&a.header));
            table.align.insert(position, align);
            for (i, row) in table.rows.iter_mut().enumerate() {
                row.insert(
                    position,
                    a.values.get(i).map(|v| escape(v)).unwrap_or_default(),
                );
            }
            Ok(())
        },
    )
}

fn sort_table(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    edit_table(
        ctx,
        args,
        |a: &SortTable| &a.target,
        |a, table| {
            let column = table
                .header
                .iter()
                .position(|h| h == &a.column)
                .or_else(|| {
                    a.column
                        .parse::<usize>()
                        .ok()
                        .filter(|&c| c < table.header.len())
                })
                .ok_or_else(|| {
                    invalid(format!(
                        "no column '{}'; give a header ({}) or an index below {}",
                        a.column,
                        table.header.join(", "),
                        table.header.len()
                    ))
                })?;
            table.rows.sort_by(|x, y| {
                let order = if a.numeric {
                    let number = |s: &str| s.trim().parse::<f64>().ok();
                    match (number(&x[column]), number(&y[column])) {
                        (Some(p), Some(q)) => p.partial_cmp(&q).unwrap_or(Ordering::Equal),
                        (Some(_), None) => return Ordering::Less,
                        (None, Some(_)) => return Ordering::Greater,
                        (None, None) => x[column].cmp(&y[column]),
                    }
                } else {
                    x[column].to_lowercase().cmp(&y[column].to_lowercase())
                };
                if a.descending { order.reverse() } else { order }
            });
            Ok(())
        },
    )
}

/// A cell's text with its line breaks flattened and its pipes escaped.
fn escape(cell: &str) -> String {
    let mut out = String::with_capacity(cell.len());
    let mut previous = '\0';
    for c in cell.replace('\n', " ").chars() {
        if c == '|' && previous != '\\' {
            out.push('\\');
        }
        out.push(c);
        previous = c;
    }
    out.trim().to_owned()
}

fn invalid(message: String) -> ToolError {
    ToolError::new(ErrorCode::InvalidInput, message)
}

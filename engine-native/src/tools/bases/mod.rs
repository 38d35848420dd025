//! Bases tools: `read_base` (a `.base` file's filters, formulas, properties and views) and
//! `query_base` (run one view over the vault's files the caller may read: filters,
//! formulas, sort, group and limit, the rows with the view's columns). A construct outside
//! the supported subset (see [`crate::bases`]) is `unsupported_base_filter`, naming it and
//! where it is.

mod args;
mod load;
mod query;
mod read;

use crate::dispatch::ToolDef;
use crate::tools::args::{PATH_READ, input_schema};
use crate::tools::structured::output_schema;

/// The Bases tools.
pub fn tools() -> Vec<ToolDef> {
    let read_tool = |name, title, description, (input, output), handler| ToolDef {
        name,
        title,
        description,
        domain: "structured",
        keywords: &[],
        input_schema: input,
        output_schema: output,
        scopes: &["read:bases"],
        destructive: false,
        idempotency: false,
        vault_arg: true,
        path_args: PATH_READ,
        precheck: None,
        handler,
    };
    vec![
        ToolDef {
            keywords: &[
                "base",
                ".base",
                "bases",
                "database",
                "view",
                "table view",
                "schema",
            ],
            ..read_tool(
                "read_base",
                "Read base",
                "Read an Obsidian Bases file (.base): its filters, formulas, properties (display names) and views (type, name, order, sort, limit, groupBy, filters), and its SHA-256.",
                (
                    input_schema::<args::ReadBase>(),
                    output_schema::<read::BaseRead>(),
                ),
                read::read_base,
            )
        },
        ToolDef {
            keywords: &[
                "base",
                "bases",
                "database",
                "run view",
                "table",
                "rows",
                "filter notes",
                "query",
            ],
            ..read_tool(
                "query_base",
                "Query base",
                "Run one view of an Obsidian Bases file (.base) over the vault: its filters, formulas, sort, groupBy and limit, returning the rows (path and the view's columns). view: name or index (default the first). this_path: the note `this` refers to (default the base itself). Unsupported expressions fail with unsupported_base_filter naming the construct and where.",
                (
                    input_schema::<args::QueryBase>(),
                    output_schema::<query::BaseRows>(),
                ),
                query::query_base,
            )
        },
    ]
}

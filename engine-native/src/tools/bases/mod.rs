//! Bases tools: `read_base` (a `.base` file's filters, formulas, properties and views) and
//! `query_base` (run one view over the vault's files the caller may read: filters,
//! formulas, sort, group and limit, the rows with the view's columns). A construct outside
//! the supported subset (see [`crate::bases`]) is `unsupported_base_filter`, naming it and
//! where it is.
//!
//! `create_base` (a new `.base` from filters, formulas, properties and views, parsed back
//! before it is written; overwrite only with `overwrite` and confirmation) and `update_base`
//! (views added, replaced or removed by name, formulas, properties and top-level filters
//! patched; changing the top-level filters asks first) write with scope `write:bases`.

mod args;
mod create;
mod load;
mod query;
mod read;
mod update;
mod written;

use engine_core::acl::AclOp;

use crate::runtime::{PathArg, ToolDef};
use crate::tools::common::args::{PATH_READ, PATH_READ_WRITE, input_schema};
use crate::tools::common::structured::output_schema;

/// A `path` argument written (a new base, or one replaced with confirmation).
const PATH_WRITE: &[PathArg] = &[PathArg {
    name: "path",
    op: AclOp::Write,
}];

/// The Bases tools.
pub fn tools() -> Vec<ToolDef> {
    let read_tool = |name, title, description, (input, output), handler| {
        ToolDef::new(
            (name, title, description),
            "structured",
            (input, output),
            handler,
        )
        .scopes(&["read:bases"])
        .paths(PATH_READ)
    };
    vec![
        read_tool(
            "read_base",
            "Read base",
            "Read an Obsidian Bases file (.base): its filters, formulas, properties (display names) and views (type, name, order, sort, limit, groupBy, filters), and its SHA-256.",
            (
                input_schema::<args::ReadBase>(),
                output_schema::<read::BaseRead>(),
            ),
            read::read_base,
        )
        .keywords(&["filters", "columns", "what views", "base", ".base", "bases", "database", "base definition", "view settings", "schema"]),
        read_tool(
            "query_base",
            "Query base",
            "Run one view of an Obsidian Bases file (.base) over the vault: its filters, formulas, sort, groupBy and limit, returning the rows (path and the view's columns). view: name or index (default the first). this_path: the note `this` refers to (default the base itself). Unsupported expressions fail with unsupported_base_filter naming the construct and where.",
            (
                input_schema::<args::QueryBase>(),
                output_schema::<query::BaseRows>(),
            ),
            query::query_base,
        )
        .keywords(&["base", "bases", "database", "run view", "base results", "rows", "filter notes", "query base"]),
        read_tool(
            "create_base",
            "Create base",
            "Create a Bases file (.base) from filters, formulas, properties (displayName) and views (type table|cards|list|map, name, order, sort, limit, groupBy, filters). The YAML is validated by the base parser before writing. An existing file needs overwrite: true and the user's confirmation.",
            (
                input_schema::<args::CreateBase>(),
                output_schema::<written::BaseWritten>(),
            ),
            create::create_base,
        )
        .keywords(&["make a base", "new base", "create base", "bases view", "database view", "new database"])
.scopes(&["write:bases"])
.idempotent(true)
.paths(PATH_WRITE),
        read_tool(
            "update_base",
            "Update base",
            "Patch a Bases file (.base): views added, replaced or removed by name, formulas and properties set (null removes one), top-level filters set or cleared (asks the user first). Other keys are kept; expected_sha256 (from read_base) guards against concurrent edits.",
            (
                input_schema::<args::UpdateBase>(),
                output_schema::<written::BaseWritten>(),
            ),
            update::update_base,
        )
        .keywords(&["add a view", "cards view", "edit base", "add view", "base formula", "base filters", "change base"])
.scopes(&["write:bases"])
.paths(PATH_READ_WRITE),
    ]
}

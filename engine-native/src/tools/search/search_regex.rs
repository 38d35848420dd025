//! `search_regex`: every line of the vault's notes where a regular expression matches, by
//! path then line, within a compute budget.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::line_search::{self, LinePaging, LineResults};
use super::matching::{Budget, MAX_SCAN_BYTES, Pattern};
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::paging::PageArgs;
use crate::tools::common::structured::output_schema;

/// The arguments of `search_regex`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchRegex {
    /// A regular expression in Rust `regex` syntax (no look-around or backreferences, so it
    /// runs in linear time); `^` and `$` match at the start and end of each line.
    #[schemars(length(min = 1, max = 2000))]
    pattern: String,
    /// Match upper and lower case exactly (default false).
    #[serde(default)]
    case_sensitive: bool,
    /// Only notes under this folder (vault-relative).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    folder: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<LinePaging>,
    /// Stop with `compute_budget_exceeded` rather than read more than this many bytes of
    /// notes (default and most 268435456, 256 MiB). The search also stops after 2 seconds.
    #[serde(default = "default_max_bytes")]
    #[schemars(range(min = 1, max = 268_435_456))]
    max_scan_bytes: u64,
}

fn default_max_bytes() -> u64 {
    MAX_SCAN_BYTES
}

/// The `search_regex` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "search_regex",
            "Find a regex in notes",
            "Find every line where a regular expression matches (Rust regex syntax, \
                      linear time; case-insensitive unless case_sensitive). Each hit has the \
                      path, line number and the line with the matches highlighted; also counts \
                      matching files, lines and matches. Bounded by a compute budget \
                      (max_scan_bytes, 2 s): past it, compute_budget_exceeded. Paged with \
                      cursor; folder narrows it.",
        ),
        "find",
        (
            input_schema::<SearchRegex>(),
            output_schema::<LineResults>(),
        ),
        search_regex,
    )
    .keywords(&[
        "phone numbers",
        "stuff like",
        "shaped like",
        "regex",
        "regexp",
        "pattern",
        "grep",
        "wildcard",
        "expression",
        "regular expression",
        "match",
        "lines",
    ])
    .scopes(&["read:notes"])
}

fn search_regex(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SearchRegex = parse(args)?;
    let pattern = Pattern::regex(&args.pattern, args.case_sensitive)?;
    let budget = Budget {
        max_bytes: args.max_scan_bytes.min(MAX_SCAN_BYTES),
        ..Budget::default()
    };
    line_search::run(
        ctx,
        &pattern,
        args.folder.as_deref(),
        args.page.limit(),
        args.page.cursor(),
        budget,
    )
}

//! `search_text`: every line of the vault's notes that contains a piece of text, literally
//! (case-insensitive unless asked, optionally whole words only), by path then line.

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use super::line_search::{self, LinePaging, LineResults};
use super::matching::{Budget, Pattern};
use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::paging::PageArgs;
use crate::tools::common::structured::output_schema;

/// The arguments of `search_text`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchText {
    /// The text to find, literally (no wildcards or operators).
    #[schemars(length(min = 1, max = 2000))]
    query: String,
    /// Match upper and lower case exactly (default false: `Moon` finds `moon`).
    #[serde(default)]
    case_sensitive: bool,
    /// Only where the text is not part of a longer word (default false: `cat` finds `catalog`).
    #[serde(default)]
    whole_word: bool,
    /// Only notes under this folder (vault-relative).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    folder: Option<String>,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<LinePaging>,
}

/// The `search_text` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "search_text",
            "Grep for a literal string",
            "Find every line that contains a string, literally (like grep -F): \
                      case-insensitive unless case_sensitive, whole words with whole_word. \
                      Each hit has the path, line number and the line with the matches \
                      highlighted; also counts matching files, lines and matches. Paged with \
                      cursor; folder narrows it.",
        ),
        "find",
        (input_schema::<SearchText>(), output_schema::<LineResults>()),
        search_text,
    )
    .keywords(&[
        "grep",
        "literal",
        "exact",
        "substring",
        "text",
        "contains",
        "string",
        "occurrence",
        "phrase",
        "line",
        "verbatim",
        "exact words",
        "ctrl f",
    ])
    .scopes(&["read:notes"])
}

fn search_text(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SearchText = parse(args)?;
    let pattern = Pattern::literal(&args.query, args.case_sensitive, args.whole_word)?;
    line_search::run(
        ctx,
        &pattern,
        args.folder.as_deref(),
        args.page.limit(),
        args.page.cursor(),
        Budget::default(),
    )
}

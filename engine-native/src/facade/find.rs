//! `find_capability`: the tools listed to the caller that best match a task in plain words.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::facade::catalog::{one_line, rank_catalog};
use crate::facade::domains::catalog_tools;
use crate::facade::{FACADE_DOMAIN, FIND_CAPABILITY};
use crate::server::{ToolContext, ToolDef};
use crate::tools::args::{input_schema, parse};
use crate::tools::companion::BRIDGE_DOMAIN;
use crate::tools::structured::{output_schema, structured};

/// The arguments of `find_capability`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct FindArgs {
    /// The task in plain words, e.g. "rename a note".
    #[schemars(length(min = 1, max = 1000))]
    query: String,
    /// How many tools to return (default 10).
    #[schemars(range(min = 1, max = 50))]
    limit: Option<usize>,
}

/// The result of `find_capability`.
#[derive(Debug, Serialize, JsonSchema)]
struct Found {
    /// The best matches, best first.
    results: Vec<FoundTool>,
}

/// One match.
#[derive(Debug, Serialize, JsonSchema)]
struct FoundTool {
    /// The tool name.
    name: &'static str,
    /// Its title.
    title: &'static str,
    /// Its description's first sentence.
    description: &'static str,
    /// Its domain.
    domain: &'static str,
    /// Its relevance (BM25F, higher is better).
    score: f32,
}

/// How many tools a query returns unless it says.
const DEFAULT_LIMIT: usize = 10;

/// The `find_capability` declaration.
pub(crate) fn tool() -> ToolDef {
    ToolDef::scope_free(
        (FIND_CAPABILITY, "Find capability", FACADE_DOMAIN),
        "Search the available tools by task in plain words; returns the best \
matches (name, title, description, domain, score). Next: describe_capability, call_capability.",
        (input_schema::<FindArgs>(), output_schema::<Found>()),
        false,
        find_capability,
    )
}

fn find_capability(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: FindArgs = parse(args)?;
    // Tools that need TC Bridge are suggested only when some vault has a companion (configured
    // or found through TC Bridge's settings): without one they can only answer plugin_missing,
    // and their words would crowd out the tools that work.
    let companions = ctx.server().companions();
    let companion = ctx
        .served()
        .config()
        .config
        .vaults
        .iter()
        .any(|vault| companions.of(vault).is_ok());
    let catalog: Vec<_> = catalog_tools(ctx.served().registry(), ctx.caller())
        .into_iter()
        .filter(|tool| companion || tool.def.domain != BRIDGE_DOMAIN)
        .collect();
    let matches = rank_catalog(&catalog, &args.query, args.limit.unwrap_or(DEFAULT_LIMIT))?;
    let results = matches
        .into_iter()
        .map(|found| FoundTool {
            name: found.tool.name(),
            title: found.tool.def.title,
            description: one_line(found.tool.def.description),
            domain: found.tool.def.domain,
            score: (found.score * 1000.0).round() / 1000.0,
        })
        .collect();
    structured(&Found { results })
}

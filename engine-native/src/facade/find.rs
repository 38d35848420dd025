//! `find_capability`: the tools listed to the caller that best match a task in plain words,
//! ranked by words (BM25F), and by meaning too when the server has an embedding model.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::{ErrorCode, ToolError};
use crate::facade::catalog::{one_line, rank_catalog};
use crate::facade::domains::catalog_tools;
use crate::facade::meaning::rank_catalog_by_meaning;
use crate::facade::{FACADE_DOMAIN, FIND_CAPABILITY, call_envelope_for};
use crate::index::semantic::SemanticIndex;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::obsidian::OBSIDIAN_DOMAIN;

/// The arguments of `find_capability`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct FindArgs {
    /// The task in plain words, best in English, e.g. "rename a note".
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
    /// How they were ranked: `words` (BM25F) or `words_and_meaning` (BM25F fused with the
    /// cosine of the loaded embedding model).
    ranking: Ranking,
}

/// How `find_capability` ranked.
#[derive(Debug, Clone, Copy, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Ranking {
    /// BM25F over the tool documents.
    Words,
    /// BM25F fused with embedding similarity.
    WordsAndMeaning,
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
    /// The envelope to call it through: `call_read_capability` (read-only) or
    /// `call_capability`.
    call_with: &'static str,
    /// Its relevance (higher is better): the BM25F score, or the fused z-score when ranked
    /// by meaning too.
    score: f32,
}

/// How many tools a query returns unless it says.
const DEFAULT_LIMIT: usize = 10;

/// The `find_capability` declaration.
pub(crate) fn tool() -> ToolDef {
    ToolDef::scope_free(
        (FIND_CAPABILITY, "Find capability", FACADE_DOMAIN),
        "Search the available tools by task in plain words (English matches best: the \
catalog is written in English); returns the best matches (name, title, description, domain, \
call_with, score). Next: describe_capability, then call_with: call_read_capability (read-only \
tools) or call_capability.",
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
    let companions = ctx.runtime().companions();
    let companion = ctx
        .served()
        .config()
        .config
        .vaults
        .iter()
        .any(|vault| companions.of(vault).is_ok());
    let catalog: Vec<_> = catalog_tools(ctx.served().registry(), ctx.caller())
        .into_iter()
        .filter(|tool| companion || tool.def.domain != OBSIDIAN_DOMAIN)
        .collect();
    let limit = args.limit.unwrap_or(DEFAULT_LIMIT);
    let by_meaning = semantic(ctx).map(|semantic| {
        rank_catalog_by_meaning(
            ctx.served().registry(),
            &catalog,
            &args.query,
            limit,
            &semantic,
            (ctx.runtime().catalog_vectors(), ctx.store()),
        )
    });
    let (matches, ranking) = match by_meaning {
        Some(Ok(matches)) => (matches, Ranking::WordsAndMeaning),
        // A provider that is down or refuses leaves the words, which need no model.
        Some(Err(error)) if error.code == ErrorCode::EmbeddingProviderError => {
            tracing::warn!("find_capability ranks by words only: {error}");
            (rank_catalog(&catalog, &args.query, limit)?, Ranking::Words)
        }
        Some(Err(error)) => return Err(error),
        None => (rank_catalog(&catalog, &args.query, limit)?, Ranking::Words),
    };
    let results = matches
        .into_iter()
        .map(|found| FoundTool {
            name: found.tool.name(),
            title: found.tool.def.title,
            description: one_line(found.tool.def.description),
            domain: found.tool.def.domain,
            call_with: call_envelope_for(found.tool),
            score: (found.score * 1000.0).round() / 1000.0,
        })
        .collect();
    structured(&Found { results, ranking })
}

/// The embedding model search uses, when embeddings are on and it is (or can be) loaded: the
/// same provider `search_vault` takes, so no model is loaded that search would not load. A
/// provider that cannot open, or fails to embed, leaves `find_capability` ranking by words
/// (and is logged).
fn semantic(ctx: &ToolContext<'_>) -> Option<Arc<SemanticIndex>> {
    ctx.runtime()
        .indexes()
        .semantic(ctx.store(), &ctx.served().config().config.embeddings)
        .unwrap_or_else(|error| {
            tracing::warn!("find_capability ranks by words only: {error}");
            None
        })
}

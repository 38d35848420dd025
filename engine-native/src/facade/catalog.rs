//! Ranking the catalog for a free-text query with engine-core's BM25F: each tool is one
//! document (title field: its name in words and its title; aliases: its name as written;
//! headings: its parameter names; tags: its domain; body: its description). English stop
//! words are dropped: descriptions and queries are English prose, and in a catalog this
//! small `a`, `the` or `of` would otherwise decide rankings.

use engine_core::rank::{Bm25Params, Document, FieldWeights, LexicalIndex};
use engine_core::text::AnalyzerSettings;

use crate::dispatch::Tool;
use crate::errors::ToolError;

/// One ranked tool.
#[derive(Debug, Clone, Copy)]
pub struct CatalogMatch<'r> {
    /// The tool.
    pub tool: &'r Tool,
    /// Its BM25F score for the query (higher is better).
    pub score: f32,
}

/// The `limit` tools of `tools` that best match `query`, best first (ties by name); tools
/// sharing no term with the query are left out.
pub fn rank_catalog<'r>(
    tools: &[&'r Tool],
    query: &str,
    limit: usize,
) -> Result<Vec<CatalogMatch<'r>>, ToolError> {
    let mut index = LexicalIndex::new(AnalyzerSettings::english(), catalog_params())
        .map_err(|error| ToolError::internal(format!("the catalog index: {error}")))?;
    for tool in tools {
        index
            .upsert(tool.name(), &document(tool))
            .map_err(|error| ToolError::internal(format!("indexing {}: {error:?}", tool.name())))?;
    }
    Ok(index
        .search(query, limit)
        .into_iter()
        .filter_map(|hit| {
            let tool = tools.iter().find(|tool| tool.name() == hit.id)?;
            Some(CatalogMatch {
                tool,
                score: hit.score,
            })
        })
        .collect())
}

/// BM25F over tool documents: the description carries most of the words a task is asked in,
/// so it weighs as much as the name and title (whose generic verbs such as `get` or `list`
/// would otherwise decide), and parameter names (`path`, `value`, `key`) count for less.
/// Chosen on tests/fixtures/intents.json (facade_find).
fn catalog_params() -> Bm25Params {
    Bm25Params {
        weights: FieldWeights {
            title: 1.0,
            aliases: 1.0,
            headings: 0.3,
            tags: 1.0,
            body: 1.0,
        },
        ..Bm25Params::default()
    }
}

/// The fields a tool is found by.
fn document(tool: &Tool) -> Document {
    let parameters = tool.def.input_schema["properties"]
        .as_object()
        .map(|properties| properties.keys().map(|key| words(key)).collect())
        .unwrap_or_default();
    Document {
        title: format!("{} {}", words(tool.name()), tool.def.title),
        aliases: std::iter::once(tool.name())
            .chain(tool.def.keywords.iter().copied())
            .map(str::to_owned)
            .collect(),
        headings: parameters,
        tags: vec![tool.def.domain.to_owned()],
        body: tool.def.description.to_owned(),
    }
}

/// A snake_case identifier as words.
fn words(identifier: &str) -> String {
    identifier.replace('_', " ")
}

/// The first sentence of a description: what a listing shows in one line.
pub(crate) fn one_line(description: &str) -> &str {
    let line = description.lines().next().unwrap_or_default();
    match line.find(". ") {
        Some(end) => &line[..=end],
        None => line,
    }
}

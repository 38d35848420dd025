//! `diagnose_retrieval`: why a search did or did not return one note. It runs the ranking a
//! search runs (the same functions, watched: [`Retriever::notes_watched`],
//! [`graph_notes_watched`]) for one query, 100 notes deep, and reports each stage for that
//! note: the lexical and semantic arms, their fusion, the link expansion (mode `graph`), and
//! the page (`final_top_k`). The stage named as the one that dropped it is the first after
//! which no later stage has it (an arm that misses it does not drop it when the other
//! carries it; a walk over links can bring back a note the query ranking missed).
//!
//! Every stage ranks only the notes the caller may read, so a note it may not read is, to
//! it, exactly a note that does not exist: absent from every stage with no chunk, no error.
//! Only a caller with `admin:acl` (who may inspect the ACL anyway) gets the `acl` stage, which
//! says that the ACL hides an indexed note.

use std::collections::HashSet;

use engine_core::acl::{Scope, satisfies_all};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::{ErrorCode, ToolError};
use crate::index::graph::{GraphQuery, graph_notes_watched};
use crate::index::retrieve::{FUSION_DEPTH, NoteHit, Retrieval, Retriever, Stage};
use crate::index::semantic::SemanticError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::searchable::Searchable;
use crate::tools::common::structured::{output_schema, structured};

/// The scope that sees the `acl` stage.
const ACL_SCOPE: &str = "admin:acl";

/// The arguments of `diagnose_retrieval`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Diagnose {
    /// The query, as the search got it.
    #[schemars(length(min = 1, max = 2000))]
    query: String,
    /// The vault-relative path of the note expected among the results.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// How many results the search returned (its page; default 30).
    #[serde(default = "thirty")]
    #[schemars(range(min = 1, max = 100))]
    final_top_k: usize,
    /// The ranking to trace (default `auto`: hybrid when embeddings are loaded, else
    /// lexical, as `search_vault` does).
    #[serde(default)]
    mode: TraceMode,
}

fn thirty() -> usize {
    30
}

/// The rankings `diagnose_retrieval` traces: `search_vault`'s ranked modes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum TraceMode {
    /// Hybrid when embeddings are loaded, else lexical.
    #[default]
    Auto,
    /// BM25F only.
    Lexical,
    /// Embedding cosine only.
    Semantic,
    /// Both, fused.
    Hybrid,
    /// The best notes raised by their links (search_vault's mode graph).
    Graph,
}

/// One stage of the trace.
#[derive(Debug, Serialize, JsonSchema)]
struct StageTrace {
    /// `acl`, `lexical`, `semantic`, `fusion`, `graph` or `paging`.
    stage: &'static str,
    /// Whether the note is in this stage's output.
    present: bool,
    /// The note's chunks in this stage: those matching the query's words (lexical), those
    /// indexed (acl), else 1 when the stage carries the note (by its best chunk), 0 when not.
    chunks_present: usize,
    /// What the stage ranked: readable chunks (lexical), embedded readable chunks
    /// (semantic), notes of the two arms (fusion), ranked notes (graph, paging), the note's
    /// indexed chunks (acl: nothing of any other note).
    candidates_in: usize,
    /// What it passed on: notes (the note's readable chunks for acl).
    candidates_out: usize,
    /// The note's score in this stage, when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
    /// The note's rank in this stage (1 = best), when present.
    #[serde(skip_serializing_if = "Option::is_none")]
    rank: Option<usize>,
    /// What the stage did to the note, when worth saying.
    #[serde(skip_serializing_if = "Option::is_none")]
    note: Option<String>,
}

/// What `diagnose_retrieval` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Diagnosis {
    /// The query.
    query: String,
    /// The note.
    path: String,
    /// The ranking traced: `lexical`, `semantic`, `hybrid` or `graph`.
    mode: &'static str,
    /// Whether the search returns the note within `final_top_k`.
    returned: bool,
    /// The stage that dropped it (null when returned).
    dropped_at: Option<&'static str>,
    /// One sentence saying what happened.
    summary: String,
    /// Every stage, in pipeline order.
    stages: Vec<StageTrace>,
}

/// The `diagnose_retrieval` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "diagnose_retrieval",
            "Diagnose a retrieval",
            "Why a search did not return a note: re-runs the ranked search for one query and \
             traces one note through each stage (lexical, semantic, fusion, graph, paging), \
             naming the first stage that dropped it.",
        ),
        "knowledge",
        (input_schema::<Diagnose>(), output_schema::<Diagnosis>()),
        diagnose_retrieval,
    )
    .keywords(&[
        "why not found",
        "missing from results",
        "search debugging",
        "retrieval trace",
        "ranking stages",
        "dropped note",
    ])
    .scopes(&["read:notes"])
}

fn diagnose_retrieval(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Diagnose = parse(args)?;
    let searchable = Searchable::open(ctx)?;
    let vectors = searchable.semantic.is_some();
    let mode = route(args.mode, vectors)?;
    let graph = match mode {
        Ran::Graph(_) => Some(link_table(ctx)?),
        _ => None,
    };
    let boost = ctx.served().config().config.search.graph_boost;
    let stages = searchable.with_retriever(ctx, |retriever| {
        let mut arms: Vec<(Stage, Vec<NoteHit>)> = Vec::new();
        let mut watch = |stage: Stage, hits: &[NoteHit]| arms.push((stage, hits.to_vec()));
        let ranked: Vec<(String, f64)> = match (mode, &graph) {
            (Ran::Graph(_), Some(table)) => graph_notes_watched(
                retriever,
                table.graph(),
                &args.query,
                GraphQuery::search(vectors, boost),
                FUSION_DEPTH,
                &mut watch,
            )
            .map_err(SemanticError::into_tool_error)?
            .into_iter()
            .map(|hit| (hit.path, hit.score))
            .collect(),
            (Ran::Notes(how), _) | (Ran::Graph(how), None) => retriever
                .notes_watched(how, &args.query, FUSION_DEPTH, &mut watch)
                .map_err(SemanticError::into_tool_error)?
                .into_iter()
                .map(|hit| (hit.path, hit.score))
                .collect(),
        };
        let mut stages = acl_stage(ctx, retriever, &args.path)
            .into_iter()
            .collect::<Vec<_>>();
        let embedded = searchable.semantic.as_ref().map_or(0, |semantic| {
            semantic.embedded_readable(ctx.vault_id(), &|path| ctx.may_list(path))
        });
        stages.extend(arm_stages(retriever, &args, &arms, embedded));
        if matches!(mode, Ran::Graph(_)) {
            let before = arms.last().map_or(0, |(_, hits)| hits.len());
            stages.push(listed("graph", &ranked, &args.path, before));
        }
        stages.push(paging(&ranked, &args.path, args.final_top_k));
        Ok(stages)
    })?;
    let dropped_at = dropped_at(&stages);
    structured(&Diagnosis {
        summary: summary(&args.path, dropped_at, &stages, args.final_top_k),
        query: args.query,
        path: args.path,
        mode: mode.name(),
        returned: dropped_at.is_none(),
        dropped_at,
        stages,
    })
}

/// The ranking that runs.
#[derive(Debug, Clone, Copy)]
enum Ran {
    /// A note ranking.
    Notes(Retrieval),
    /// The graph ranking, seeded by this note ranking.
    Graph(Retrieval),
}

impl Ran {
    fn name(self) -> &'static str {
        match self {
            Ran::Graph(_) => "graph",
            Ran::Notes(Retrieval::Lexical) => "lexical",
            Ran::Notes(Retrieval::Semantic) => "semantic",
            Ran::Notes(Retrieval::Hybrid) => "hybrid",
        }
    }
}

/// The ranking `asked` runs as, as `search_vault` routes it; semantic and hybrid need
/// vectors.
fn route(asked: TraceMode, vectors: bool) -> Result<Ran, ToolError> {
    let seeds = if vectors {
        Retrieval::Hybrid
    } else {
        Retrieval::Lexical
    };
    match (asked, vectors) {
        (TraceMode::Auto, _) => Ok(Ran::Notes(seeds)),
        (TraceMode::Graph, _) => Ok(Ran::Graph(seeds)),
        (TraceMode::Lexical, _) => Ok(Ran::Notes(Retrieval::Lexical)),
        (TraceMode::Semantic, true) => Ok(Ran::Notes(Retrieval::Semantic)),
        (TraceMode::Hybrid, true) => Ok(Ran::Notes(Retrieval::Hybrid)),
        (TraceMode::Semantic | TraceMode::Hybrid, false) => Err(ToolError::new(
            ErrorCode::InvalidInput,
            "semantic and hybrid rankings need embeddings, and none are loaded",
        )
        .with_recovery("trace mode lexical or auto; get_index_status shows the embeddings")),
    }
}

/// The `acl` stage, for a caller with [`ACL_SCOPE`] only.
fn acl_stage(ctx: &ToolContext<'_>, retriever: &Retriever<'_>, path: &str) -> Option<StageTrace> {
    let required: Vec<Scope> = Scope::parse(ACL_SCOPE).into_iter().collect();
    if !satisfies_all(&ctx.caller().scopes, &required) {
        return None;
    }
    let indexed = retriever.view.chunks_of(path);
    let present = indexed > 0 && (retriever.allowed)(path);
    Some(StageTrace {
        stage: "acl",
        present,
        chunks_present: indexed,
        candidates_in: indexed,
        candidates_out: if present { indexed } else { 0 },
        score: None,
        rank: None,
        note: (indexed > 0 && !present).then(|| {
            "indexed, but the caller's read ACL (or the excluded files) hides it from every \
             stage"
                .to_owned()
        }),
    })
}

/// The stages of the query's own ranking, as watched.
fn arm_stages(
    retriever: &Retriever<'_>,
    args: &Diagnose,
    arms: &[(Stage, Vec<NoteHit>)],
    embedded: usize,
) -> Vec<StageTrace> {
    arms.iter()
        .map(|(stage, hits)| {
            let ranked: Vec<(String, f64)> = hits
                .iter()
                .map(|hit| (hit.path.clone(), hit.score))
                .collect();
            match stage {
                Stage::Lexical => {
                    let mut trace = listed("lexical", &ranked, &args.path, retriever.visible.len());
                    trace.chunks_present = retriever
                        .chunks(&args.query, retriever.visible.len())
                        .iter()
                        .filter(|hit| {
                            retriever
                                .view
                                .place(hit.chunk_id)
                                .is_some_and(|place| place.path == args.path)
                        })
                        .count();
                    trace
                }
                Stage::Semantic => listed("semantic", &ranked, &args.path, embedded),
                Stage::Fusion => listed("fusion", &ranked, &args.path, arms_union(arms)),
            }
        })
        .collect()
}

/// How many notes the two arms ranked, together.
fn arms_union(arms: &[(Stage, Vec<NoteHit>)]) -> usize {
    arms.iter()
        .filter(|(stage, _)| *stage != Stage::Fusion)
        .flat_map(|(_, hits)| hits.iter().map(|hit| hit.path.as_str()))
        .collect::<HashSet<_>>()
        .len()
}

/// A stage whose output is `ranked` (best first), from `candidates_in` candidates.
fn listed(
    stage: &'static str,
    ranked: &[(String, f64)],
    path: &str,
    candidates_in: usize,
) -> StageTrace {
    let at = ranked.iter().position(|(found, _)| found == path);
    StageTrace {
        stage,
        present: at.is_some(),
        chunks_present: usize::from(at.is_some()),
        candidates_in,
        candidates_out: ranked.len(),
        score: at.map(|at| ranked[at].1),
        rank: at.map(|at| at + 1),
        note: None,
    }
}

/// The page: the first `top_k` of the final ranking.
fn paging(ranked: &[(String, f64)], path: &str, top_k: usize) -> StageTrace {
    let mut trace = listed("paging", ranked, path, ranked.len());
    trace.candidates_out = ranked.len().min(top_k);
    if let Some(rank) = trace.rank.filter(|rank| *rank > top_k) {
        trace.present = false;
        trace.chunks_present = 0;
        trace.note = Some(format!("ranked {rank}, beyond final_top_k {top_k}"));
    }
    trace
}

/// The first stage after which no stage has the note; `None` when the page has it.
fn dropped_at(stages: &[StageTrace]) -> Option<&'static str> {
    let last_present = stages.iter().rposition(|stage| stage.present);
    match last_present {
        Some(at) if at + 1 == stages.len() => None,
        Some(at) => Some(stages[at + 1].stage),
        None => stages.first().map(|stage| stage.stage),
    }
}

/// One sentence on what happened to the note.
fn summary(
    path: &str,
    dropped_at: Option<&'static str>,
    stages: &[StageTrace],
    top_k: usize,
) -> String {
    let stage = |name: &str| stages.iter().find(|stage| stage.stage == name);
    match dropped_at {
        None => {
            let rank = stages.last().and_then(|stage| stage.rank).unwrap_or(0);
            format!("{path} is returned at rank {rank} of {top_k}.")
        }
        Some("acl") => {
            format!("{path} is indexed, but the caller may not read it, so no stage ranks it.")
        }
        Some("lexical") if stage("lexical").is_some_and(|s| s.chunks_present == 0) => format!(
            "{path} has no readable indexed chunk matching the query's words, so it never was a \
             candidate."
        ),
        Some("paging") => format!(
            "{path} is ranked {}, beyond the {top_k} results returned.",
            stage("paging").and_then(|s| s.rank).unwrap_or(0)
        ),
        Some(other) => format!("{path} was dropped by the {other} stage."),
    }
}

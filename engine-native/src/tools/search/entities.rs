//! `search_entities`: the entities that best match a query, ranked exactly as `search_vault`
//! ranks notes (lexical BM25F, semantic, or both fused; the same index and ACL-exact
//! statistics) over the notes of the memory folder, each with its type, status and the
//! observations that share a word with the query.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{Found, ResultPaging, SearchMode, SearchVault, search};
use crate::errors::ToolError;
use crate::index::snippet::Snippet;
use crate::memory::{EntityType, Observation, read_entity};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::memory_folder::memory_folder;
use crate::tools::common::paging::{CursorLength, PageArgs, Paging};
use crate::tools::common::structured::{output_schema, structured};

/// The most matching observations shown per entity.
const MAX_OBSERVATIONS: usize = 5;

/// How `search_entities` ranks.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum EntityMode {
    /// `hybrid` when the embedding model is loaded, else `lexical`.
    Auto,
    /// BM25F over the entity notes' titles, aliases, headings and text.
    Lexical,
    /// Cosine similarity of embeddings.
    Semantic,
    /// Both fused, as search_vault's hybrid mode.
    Hybrid,
}

/// The arguments of `search_entities`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchEntities {
    /// What to look for: words about the entity or its facts.
    #[schemars(length(min = 1, max = 2000))]
    query: String,
    /// How to rank (default `auto`).
    #[serde(default = "auto")]
    mode: EntityMode,
    /// `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<EntityPaging>,
}

fn auto() -> EntityMode {
    EntityMode::Auto
}

/// `search_entities` pages as `search_vault` does, by entities.
struct EntityPaging;

impl Paging for EntityPaging {
    const ITEMS: &'static str = "entities";
    const DEFAULT: usize = ResultPaging::DEFAULT;
    const MAX: usize = ResultPaging::MAX;
    const CURSOR: CursorLength = ResultPaging::CURSOR;
}

/// One entity found.
#[derive(Debug, Serialize, JsonSchema)]
struct EntityHit {
    /// The entity's name.
    name: String,
    /// Its note's vault-relative path.
    path: String,
    /// Its type (absent when the note's `type` is not an entity type).
    #[serde(rename = "type")]
    kind: Option<EntityType>,
    /// Its lifecycle status, when the note has one.
    status: Option<String>,
    /// The rank score, as search_vault's.
    score: f64,
    /// The best passage of its note.
    snippet: Snippet,
    /// The key of the best chunk: pass it to `record_retrieval_feedback`.
    #[serde(skip_serializing_if = "Option::is_none")]
    chunk_id: Option<String>,
    /// Its observations sharing a word with the query (at most 5, in the note's order).
    observations: Vec<Observation>,
}

/// What `search_entities` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct EntityHits {
    /// The ranking that ran (`lexical` when no embedding model is loaded).
    mode: SearchMode,
    /// Best first.
    entities: Vec<EntityHit>,
    /// Pass this as `cursor` to get the next page; absent on the last page.
    #[serde(skip_serializing_if = "Option::is_none")]
    cursor: Option<String>,
}

/// The `search_entities` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "search_entities",
            "Search memory entities",
            "Look up remembered entities by what agent memory says about them: the best matching entities first, each with its type, status and the remembered facts that share a word with the query.",
        ),
        "memory",
        (input_schema::<SearchEntities>(), output_schema::<EntityHits>()),
        search_entities,
    )
    .keywords(&["search memory", "what do I remember", "memory", "entities about", "remembered facts"])
    .scopes(&["read:memory"])
}

fn search_entities(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SearchEntities = parse(args)?;
    let query = SearchVault {
        query: args.query,
        mode: match args.mode {
            EntityMode::Auto => SearchMode::Auto,
            EntityMode::Lexical => SearchMode::Lexical,
            EntityMode::Semantic => SearchMode::Semantic,
            EntityMode::Hybrid => SearchMode::Hybrid,
        },
        folder: Some(memory_folder(ctx)),
        page: PageArgs::given(args.page.limit(), args.page.cursor()),
        explain: false,
    };
    let found = search(ctx, &query)?;
    let words = words(&query.query);
    let entities = found
        .results
        .into_iter()
        .map(|hit| entity_hit(ctx, hit, &words))
        .collect();
    structured(&EntityHits {
        mode: found.mode,
        entities,
        cursor: found.cursor,
    })
}

/// A found note as an entity: what its note says now (a note that can no longer be read or
/// parsed shows no type, status or observations).
fn entity_hit(ctx: &ToolContext<'_>, hit: Found, words: &[String]) -> EntityHit {
    let entity = ctx
        .may_list(&hit.path)
        .then(|| read_text(ctx.vault(), &hit.path).ok())
        .flatten()
        .and_then(|note| read_entity(&note.text).ok());
    let (kind, status, observations) = match entity {
        Some(entity) => (
            entity.kind,
            entity.status,
            entity
                .observations
                .into_iter()
                .filter(|observation| {
                    words
                        .iter()
                        .any(|word| self::words(&observation.text).contains(word))
                })
                .take(MAX_OBSERVATIONS)
                .collect(),
        ),
        None => (None, None, Vec::new()),
    };
    EntityHit {
        name: hit.title,
        path: hit.path,
        kind,
        status,
        score: hit.score,
        snippet: hit.snippet,
        chunk_id: hit.chunk_id,
        observations,
    }
}

/// The lowercase words of `text` (letters and digits).
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|word| !word.is_empty())
        .map(str::to_lowercase)
        .collect()
}

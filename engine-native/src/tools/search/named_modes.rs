//! `search_semantic` and `search_jsonlogic`: the original obsidian-tc's names for
//! `search_vault`'s modes `semantic` and `jsonlogic`, so prompts and scripts written for it
//! keep working. Each is `search_vault` with its mode fixed: the same search, the same answer
//! (and the same refusal when embeddings are off). The original's argument names are taken
//! too: `root` for `folder`, `k` for `limit` (`search_semantic`), and `logic`, the rule as a
//! JSON object, for `query` (`search_jsonlogic`, whose `query` may also be an object).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Map, Value};

use super::{ResultPaging, SearchMode, SearchResults, SearchVault, search};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::paging::PageArgs;
use crate::tools::common::structured::{output_schema, structured};

/// Where to search: `folder`, or `root` (the original's name for it).
#[derive(Debug, Deserialize, JsonSchema)]
struct Place {
    /// Only notes under this folder (vault-relative).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    folder: Option<String>,
    /// The original obsidian-tc's name for `folder`.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    root: Option<String>,
}

/// The arguments of `search_semantic`: `search_vault`'s without `mode`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchSemantic {
    /// What to look for, in words.
    #[schemars(length(min = 1, max = 2000))]
    query: String,
    /// `folder` or `root`.
    #[serde(flatten)]
    place: Place,
    /// The original obsidian-tc's name for `limit`: how many notes (1-100).
    #[serde(default)]
    #[schemars(range(min = 1, max = 100))]
    k: Option<usize>,
    /// `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<ResultPaging>,
    /// Also say how the query was routed.
    #[serde(default)]
    explain: bool,
}

/// A JSONLogic rule: JSON text, or the rule itself as a JSON object.
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
#[serde(untagged)]
enum RuleArg {
    /// The rule written as JSON text.
    Text(String),
    /// The rule as a JSON object.
    Rule(Map<String, Value>),
}

/// The arguments of `search_jsonlogic`: `search_vault`'s without `mode`; the rule is `query`
/// or `logic` (exactly one).
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct SearchJsonlogic {
    /// The JSONLogic rule (JSON text or a JSON object). The data is the note's frontmatter
    /// properties plus file facts under `file`: file.path, file.title, file.folder,
    /// file.tags, file.aliases, file.size (bytes), file.mtime (Unix ms), file.links
    /// (outgoing link count), each also at the top level unless a property has its name.
    #[serde(default)]
    query: Option<RuleArg>,
    /// The original obsidian-tc's name for `query`: the rule as a JSON object.
    #[serde(default)]
    logic: Option<Map<String, Value>>,
    /// `folder` or `root`.
    #[serde(flatten)]
    place: Place,
    /// `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<ResultPaging>,
    /// Also say how the query was routed.
    #[serde(default)]
    explain: bool,
}

/// The `search_semantic` tool.
pub(super) fn semantic_tool() -> ToolDef {
    ToolDef::new(
        (
            "search_semantic",
            "Semantic search",
            "The original obsidian-tc's name for search_vault mode semantic: the notes whose \
             passages are nearest the query by embedding cosine, best first, each with its \
             best passage. Needs embeddings. Takes folder (or root), limit (or k), cursor.",
        ),
        "find",
        (
            input_schema::<SearchSemantic>(),
            output_schema::<SearchResults>(),
        ),
        search_semantic,
    )
    .keywords(&[
        "semantic search",
        "by meaning",
        "vector search",
        "embeddings search",
    ])
    .scopes(&["read:notes"])
}

/// The `search_jsonlogic` tool.
pub(super) fn jsonlogic_tool() -> ToolDef {
    ToolDef::new(
        (
            "search_jsonlogic",
            "Search by JSONLogic rule",
            "The original obsidian-tc's name for search_vault mode jsonlogic: the notes whose \
             frontmatter and file facts satisfy a JSONLogic rule (query, JSON text or object; \
             or logic, an object), by path. Takes folder (or root), limit, cursor.",
        ),
        "find",
        (
            input_schema::<SearchJsonlogic>(),
            output_schema::<SearchResults>(),
        ),
        search_jsonlogic,
    )
    .keywords(&["jsonlogic", "json logic", "logic rule"])
    .scopes(&["read:notes"])
}

fn search_semantic(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SearchSemantic = parse(args)?;
    let limit = one_of("limit", args.page.given_limit(), "k", args.k)?;
    let args = SearchVault {
        query: args.query,
        mode: SearchMode::Semantic,
        folder: args.place.folder()?,
        page: PageArgs::given(limit.unwrap_or(args.page.limit()), args.page.cursor()),
        explain: args.explain,
    };
    structured(&search(ctx, &args)?)
}

fn search_jsonlogic(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: SearchJsonlogic = parse(args)?;
    let rule = match one_of("query", args.query, "logic", args.logic.map(RuleArg::Rule))? {
        Some(RuleArg::Text(text)) => text,
        Some(RuleArg::Rule(rule)) => Value::Object(rule).to_string(),
        None => {
            return Err(ToolError::new(
                ErrorCode::InvalidInput,
                "give the JSONLogic rule as query (JSON text or an object) or as logic",
            ));
        }
    };
    let args = SearchVault {
        query: rule,
        mode: SearchMode::Jsonlogic,
        folder: args.place.folder()?,
        page: PageArgs::given(args.page.limit(), args.page.cursor()),
        explain: args.explain,
    };
    structured(&search(ctx, &args)?)
}

impl Place {
    /// The folder named by `folder` or `root`.
    fn folder(self) -> Result<Option<String>, ToolError> {
        one_of("folder", self.folder, "root", self.root)
    }
}

/// The value of an argument that has two names (ours, `ours`, and the original's, `theirs`):
/// either, or both when they agree; two different values are `invalid_input`.
fn one_of<T: PartialEq + std::fmt::Debug>(
    ours: &str,
    a: Option<T>,
    theirs: &str,
    b: Option<T>,
) -> Result<Option<T>, ToolError> {
    match (a, b) {
        (Some(a), Some(b)) if a != b => Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("{ours} and {theirs} name the same argument; give one of them"),
        )),
        (a, b) => Ok(a.or(b)),
    }
}

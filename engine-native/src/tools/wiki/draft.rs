//! `draft_wiki_page`: everything needed to write a page for a topic, without writing
//! anything or any prose: the dedupe verdict (`find_existing_page`'s), the `SCHEMA.md`
//! section and the type's required properties, a link map (pages to link to, notes to link
//! from, notes already linking to the topic's name) and a changeset skeleton for
//! `commit_wiki_page`. The changeset is `null` when the topic has a page, or when an
//! ingested `source` is under [`MIN_SOURCE_CHARS`] and nothing in the wiki covers, relates
//! to or cites it.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::catalog::wikilink;
use super::find::{FindPage, Found, find};
use super::identity::{Strength, Verdict, fold};
use super::pages::{WikiPlace, read_pages};
use super::schema::WikiSchema;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::read_for_tool;
use crate::tools::common::link_table::link_table;
use crate::tools::common::structured::{output_schema, structured};

/// An ingested source shorter than this (characters) gets no changeset unless the wiki
/// already covers, relates to or cites it.
pub const MIN_SOURCE_CHARS: usize = 1500;

/// The heading the skeleton's patches put their link under.
const PATCH_HEADING: &str = "See also";

/// The arguments of `draft_wiki_page`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DraftPage {
    /// The topic to plan a page for.
    #[schemars(length(min = 1, max = 500))]
    topic: String,
    /// The notes the page will rest on (vault paths), listed as its `sources`.
    #[serde(default)]
    #[schemars(length(max = 100))]
    sources: Vec<String>,
    /// The page type (one of `SCHEMA.md`'s): its required properties go in the skeleton.
    #[serde(default, rename = "type")]
    #[schemars(length(min = 1, max = 200))]
    kind: Option<String>,
    /// One raw note to ingest (a vault path): a source too.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    source: Option<String>,
    /// The most candidates and link suggestions (1-25, default 8).
    #[serde(default = "eight")]
    #[schemars(range(min = 1, max = 25))]
    limit: usize,
    /// The cosine floor of similarity (default 0.5).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1.0))]
    min_similarity: Option<f32>,
    /// Let the model judge settle the dedupe verdict (default true).
    #[serde(default = "yes")]
    judge: bool,
}

fn eight() -> usize {
    8
}

fn yes() -> bool {
    true
}

/// The type's requirements.
#[derive(Debug, Serialize, JsonSchema)]
struct Requirements {
    /// The page type asked for.
    #[serde(rename = "type")]
    kind: Option<String>,
    /// The properties the type requires (`SCHEMA.md`).
    required: Vec<String>,
    /// The types `SCHEMA.md` defines.
    known_types: Vec<String>,
}

/// Where the page links.
#[derive(Debug, Default, Serialize, JsonSchema)]
struct LinkMap {
    /// Pages and sources the new page should link to.
    link_to: Vec<String>,
    /// Notes that should link to the new page (the changeset's patches).
    link_from: Vec<String>,
    /// Notes whose links name the topic already (they resolve once the page exists).
    already_linking: Vec<String>,
}

/// The page of the skeleton.
#[derive(Debug, Serialize, JsonSchema)]
struct SkeletonPage {
    /// Where it goes.
    path: String,
    /// `create`.
    mode: &'static str,
    /// Its properties: `type`, `sources`, and each required one empty.
    frontmatter: Map<String, Value>,
    /// Empty: the prose is the caller's to write.
    body: String,
}

/// One patch of the skeleton.
#[derive(Debug, Serialize, JsonSchema)]
struct SkeletonPatch {
    /// The note to link from.
    path: String,
    /// Its SHA-256 now.
    prev_hash: String,
    /// `link`.
    operation: &'static str,
    /// The heading the link goes under.
    heading: &'static str,
}

/// The changeset skeleton for `commit_wiki_page`.
#[derive(Debug, Serialize, JsonSchema)]
struct Changeset {
    /// The topic.
    topic: String,
    /// The page to write.
    page: SkeletonPage,
    /// The notes to link from.
    patches: Vec<SkeletonPatch>,
}

/// What `draft_wiki_page` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Draft {
    /// `find_existing_page`'s answer for the topic.
    dedupe: Found,
    /// The wiki's `SCHEMA.md` (null without one).
    schema: Option<WikiSchema>,
    /// The type's requirements.
    requirements: Requirements,
    /// Where the page links.
    link_map: LinkMap,
    /// The skeleton to fill in and pass to `commit_wiki_page` (null: see `reason`).
    changeset: Option<Changeset>,
    /// Why there is no changeset.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// The `draft_wiki_page` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "draft_wiki_page",
            "Draft wiki page",
            "Prepare a new wiki page without writing anything: the dedupe verdict \
             (find_existing_page), the wiki schema's page type and its required fields, the wiki \
             pages it should cite and be cited by, and a changeset skeleton to fill in and \
             pass to commit_wiki_page. changeset is null when the topic has a wiki page.",
        ),
        "knowledge",
        (input_schema::<DraftPage>(), output_schema::<Draft>()),
        draft_wiki_page,
    )
    .keywords(&["prepare a wiki page", "wiki page skeleton"])
    .scopes(&["read:notes"])
}

fn draft_wiki_page(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: DraftPage = parse(args)?;
    let place = WikiPlace::of(ctx);
    let mut sources = args.sources.clone();
    let source_text = match &args.source {
        Some(path) => {
            if !ctx.may(path, AclOp::Read) {
                return Err(ToolError::new(
                    ErrorCode::NotFound,
                    format!("there is no note at '{path}'"),
                ));
            }
            let note = read_for_tool(ctx.vault(), path)?;
            sources.push(note.path.clone());
            Some((note.path, note.text))
        }
        None => None,
    };
    let dedupe = find(
        ctx,
        &FindPage {
            topic: args.topic.clone(),
            folder: None,
            limit: args.limit,
            min_similarity: args.min_similarity,
            judge: args.judge,
        },
    )?;
    let schema = place.schema(ctx);
    let required = schema
        .as_ref()
        .zip(args.kind.as_deref())
        .and_then(|(schema, kind)| schema.types.get(kind).cloned())
        .unwrap_or_default();
    let requirements = Requirements {
        kind: args.kind.clone(),
        required,
        known_types: schema
            .as_ref()
            .map(|schema| schema.types.keys().cloned().collect())
            .unwrap_or_default(),
    };
    let link_map = link_map(ctx, &args.topic, &dedupe, &sources)?;
    let (changeset, reason) = if dedupe.verdict == Verdict::Exists {
        (
            None,
            Some("the topic has a page already: update it instead".to_owned()),
        )
    } else if let Some((path, _)) = source_text
        .as_ref()
        .filter(|(_, text)| text.chars().count() < MIN_SOURCE_CHARS)
        .filter(|(path, _)| dedupe.candidates.is_empty() && !cited(ctx, &place, path))
    {
        (
            None,
            Some(format!(
                "{path} is under {MIN_SOURCE_CHARS} characters and nothing in the wiki covers, relates to or cites it"
            )),
        )
    } else {
        (
            Some(skeleton(
                ctx,
                &place,
                &args,
                &requirements,
                &sources,
                &link_map,
            )?),
            None,
        )
    };
    structured(&Draft {
        dedupe,
        schema,
        requirements,
        link_map,
        changeset,
        reason,
    })
}

/// Whether any page of the wiki names `path` among its `sources` or links to it.
fn cited(ctx: &ToolContext<'_>, place: &WikiPlace, path: &str) -> bool {
    let Ok(table) = link_table(ctx) else {
        return false;
    };
    table.incoming(path).any(|link| {
        super::pages::inside(&link.source, place.folder.as_deref())
            && ctx.may(&link.source, AclOp::Read)
    })
}

/// The link map: related pages (soft candidates) and sources to link to, the related
/// pages to link from, the notes whose unresolved links name the topic.
fn link_map(
    ctx: &ToolContext<'_>,
    topic: &str,
    dedupe: &Found,
    sources: &[String],
) -> Result<LinkMap, ToolError> {
    let related: Vec<String> = dedupe
        .candidates
        .iter()
        .filter(|candidate| candidate.strength == Strength::Soft && !candidate.excluded)
        .map(|candidate| candidate.path.clone())
        .collect();
    let mut link_to = related.clone();
    link_to.extend(sources.iter().cloned());
    let wanted = fold(topic);
    let table = link_table(ctx)?;
    let mut already_linking: Vec<String> = table
        .all()
        .filter(|link| link.resolved.is_none() && fold(&link.target) == wanted)
        .map(|link| link.source.clone())
        .filter(|source| ctx.may_list(source))
        .collect();
    already_linking.dedup();
    let link_from = related
        .into_iter()
        .filter(|path| ctx.may(path, AclOp::Write) && !already_linking.contains(path))
        .collect();
    Ok(LinkMap {
        link_to,
        link_from,
        already_linking,
    })
}

/// The changeset skeleton: the page (in the wiki folder, named after the topic) with its
/// frontmatter, and a link patch per note of `link_from` with its hash now.
fn skeleton(
    ctx: &ToolContext<'_>,
    place: &WikiPlace,
    args: &DraftPage,
    requirements: &Requirements,
    sources: &[String],
    link_map: &LinkMap,
) -> Result<Changeset, ToolError> {
    let mut frontmatter = Map::new();
    if let Some(kind) = &args.kind {
        frontmatter.insert("type".to_owned(), json!(kind));
    }
    for key in &requirements.required {
        frontmatter.entry(key.clone()).or_insert_with(|| json!(""));
    }
    frontmatter.insert(
        "sources".to_owned(),
        json!(
            sources
                .iter()
                .map(|path| wikilink(path))
                .collect::<Vec<_>>()
        ),
    );
    let pages = read_pages(ctx, place, place.folder.as_deref())?;
    let mut patches = Vec::new();
    for path in &link_map.link_from {
        if let Some(page) = pages.iter().find(|page| &page.path == path) {
            patches.push(SkeletonPatch {
                path: page.path.clone(),
                prev_hash: page.sha256.clone(),
                operation: "link",
                heading: PATCH_HEADING,
            });
        }
    }
    Ok(Changeset {
        topic: args.topic.clone(),
        page: SkeletonPage {
            path: place.file(&format!("{}.md", file_name(&args.topic))),
            mode: "create",
            frontmatter,
            body: String::new(),
        },
        patches,
    })
}

/// A topic as a file name: the characters Obsidian refuses in names removed.
fn file_name(topic: &str) -> String {
    let name: String = topic
        .chars()
        .filter(|c| {
            !matches!(
                c,
                '\\' | '/' | ':' | '*' | '?' | '"' | '<' | '>' | '|' | '#' | '^' | '[' | ']'
            )
        })
        .collect();
    let name = name.split_whitespace().collect::<Vec<_>>().join(" ");
    if name.is_empty() {
        "Untitled".to_owned()
    } else {
        name
    }
}

//! `find_existing_page`: whether the wiki already has a page for a topic (a text, a
//! `[[link]]` or a Wikidata QID). Identity evidence is read from the pages (exact path, file
//! name, `aliases`, `wikidata`, title or first H1) and from the link text other notes use
//! for a page; similarity from the search index's vectors (a page's best chunk at or above
//! `min_similarity`). One path match or one strong candidate is `exists`, several are
//! `ambiguous`, soft evidence only is `ambiguous` (the optional judge may settle it), nothing
//! is `new`. Only pages the caller may read are candidates; an excluded file is one by
//! identity only.

use std::collections::BTreeSet;

use engine_core::acl::AclOp;
use engine_core::links::LinkSyntax;
use engine_core::markdown::extract;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::identity::{
    Candidate, Candidates, Evidence, EvidenceKind, Topic, Verdict, fold, has, verdict,
};
use super::judge::{JudgeReport, model_judge, opening, settle};
use super::pages::{Page, WikiPlace, inside, pages_in};
use super::similar::{SemanticCheck, semantic_evidence};
use crate::errors::ToolError;
use crate::index::links::LinkTable;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::link_table::link_table;
use crate::tools::common::model::may_send;
use crate::tools::common::structured::{output_schema, structured};

/// The cosine floor of `semantic` evidence when the call names none.
pub const DEFAULT_MIN_SIMILARITY: f32 = 0.5;

/// How many chunks are searched per candidate asked for.
const CHUNK_DEPTH: usize = 4;

/// The arguments of `find_existing_page`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct FindPage {
    /// The topic: words, a `[[link]]`, a vault path, or a Wikidata QID (`Q42`).
    #[schemars(length(min = 1, max = 500))]
    pub topic: String,
    /// The folder whose pages are candidates (default: the wiki folder, else the vault).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    pub folder: Option<String>,
    /// The most candidates listed (1-25, default 8).
    #[serde(default = "eight")]
    #[schemars(range(min = 1, max = 25))]
    pub limit: usize,
    /// The cosine a page's best chunk must reach to be `semantic` evidence (default 0.5).
    #[serde(default)]
    #[schemars(range(min = 0.0, max = 1.0))]
    pub min_similarity: Option<f32>,
    /// Ask the model judge to settle a verdict that rests on soft evidence only (default
    /// true; without a model it is not asked).
    #[serde(default = "yes")]
    pub judge: bool,
}

fn eight() -> usize {
    8
}

fn yes() -> bool {
    true
}

/// What to do next.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Next {
    /// `link_to_existing`, `review_candidates` or `create_new`.
    pub action: &'static str,
    /// The tool to call for it.
    pub tool: &'static str,
    /// The pages concerned.
    pub paths: Vec<String>,
    /// In words.
    pub note: String,
}

/// What `find_existing_page` returns.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct Found {
    /// `exists`, `ambiguous` or `new`.
    pub verdict: Verdict,
    /// How many candidates there are (before `limit`).
    pub total: usize,
    /// The candidates, strongest first.
    pub candidates: Vec<Candidate>,
    /// What to do next.
    pub next: Next,
    /// Whether similarity was looked at.
    pub semantic: SemanticCheck,
    /// What the model judge did.
    pub judge: JudgeReport,
    /// The model whose judgement made the verdict (absent when the evidence did).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged_by: Option<String>,
}

/// The `find_existing_page` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "find_existing_page",
            "Find existing wiki page",
            "Wiki dedupe: before writing a wiki page, check whether the wiki already covers the \
             topic (words, a wikilink or a Wikidata QID). Verdict exists, ambiguous or new, \
             with each candidate page's evidence: path, name_variant, alias, wikidata, title \
             (strong), link_text, semantic (soft). Without embeddings semantic.checked is \
             false.",
        ),
        "knowledge",
        (input_schema::<FindPage>(), output_schema::<Found>()),
        find_existing_page,
    )
    .keywords(&["wiki page already exists", "dedupe wiki topic"])
    .scopes(&["read:notes"])
}

fn find_existing_page(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: FindPage = parse(args)?;
    structured(&find(ctx, &args)?)
}

/// `find_existing_page`'s answer to `args`.
pub(super) fn find(ctx: &ToolContext<'_>, args: &FindPage) -> Result<Found, ToolError> {
    let place = WikiPlace::of(ctx);
    let (folder, pages) = pages_in(ctx, &place, args.folder.as_deref())?;
    let table = link_table(ctx)?;
    let topic = Topic::parse(&args.topic);
    let resolved = resolve(ctx, &table, &place, &topic);
    let mut candidates = Candidates::default();
    for page in &pages {
        candidates.identity(&topic, resolved.as_deref(), page);
    }
    if let Topic::Text(words) = &topic {
        link_text(ctx, &table, &pages, words, &mut candidates);
    }
    let min = args.min_similarity.unwrap_or(DEFAULT_MIN_SIMILARITY);
    let semantic = match &topic {
        Topic::Wikidata(_) => SemanticCheck {
            checked: false,
            min,
            reason: Some("a Wikidata QID is matched by identity only".to_owned()),
        },
        _ => {
            let allowed = |path: &str| {
                inside(path, folder.as_deref()) && !place.is_own_file(path) && ctx.may_list(path)
            };
            semantic_evidence(
                ctx,
                &topic.words(),
                (min, CHUNK_DEPTH * args.limit),
                &allowed,
                &mut candidates,
            )
        }
    };
    let mut ranked = candidates.ranked();
    let mut found_verdict = verdict(&ranked);
    let mut judged_by = None;
    let judge = match (args.judge, model_judge(ctx)) {
        (false, _) => JudgeReport::unused("not asked (judge: false)"),
        (true, Err(reason)) => JudgeReport::unused(reason),
        (true, Ok(judge)) => {
            let read = |path: &str| {
                pages
                    .iter()
                    .find(|page| page.path == path && may_send(ctx, path))
                    .map(|page| opening(page.body()))
            };
            let (settled, report) = settle(
                judge.as_ref(),
                &args.topic,
                found_verdict,
                &mut ranked,
                &read,
            );
            if settled != found_verdict {
                judged_by = report.model.clone();
            }
            found_verdict = settled;
            report
        }
    };
    let total = ranked.len();
    ranked.truncate(args.limit);
    Ok(Found {
        next: next(found_verdict, &ranked),
        verdict: found_verdict,
        total,
        candidates: ranked,
        semantic,
        judge,
        judged_by,
    })
}

/// The readable page a path or `[[link]]` topic names.
fn resolve(
    ctx: &ToolContext<'_>,
    table: &LinkTable,
    place: &WikiPlace,
    topic: &Topic,
) -> Option<String> {
    let resolver = table.resolver();
    let found = match topic {
        Topic::Path(path) => resolver
            .find(path)
            .or_else(|| resolver.find(&format!("{path}.md"))),
        Topic::Link(target) => resolver
            .resolve(target, &place.file(super::pages::INDEX_FILE))
            .first(),
        _ => None,
    }?;
    ctx.may(found, AclOp::Read).then(|| found.to_owned())
}

/// Adds `link_text` evidence: a readable note links to a page with `words` as the link's
/// text.
fn link_text(
    ctx: &ToolContext<'_>,
    table: &LinkTable,
    pages: &[Page],
    words: &str,
    candidates: &mut Candidates,
) {
    let wanted = fold(words);
    let sources: BTreeSet<&str> = pages
        .iter()
        .flat_map(|page| table.incoming(&page.path))
        .map(|link| link.source.as_str())
        .filter(|source| ctx.may(source, AclOp::Read))
        .collect();
    for source in sources {
        let Ok(note) = read_text(ctx.vault(), source) else {
            continue;
        };
        for link in extract(&note.text).links {
            if link.syntax != LinkSyntax::Wikilink && link.syntax != LinkSyntax::Markdown {
                continue;
            }
            let Some(text) = link.display_text.as_deref() else {
                continue;
            };
            if fold(text) != wanted {
                continue;
            }
            let Some(target) = table.resolver().resolve(&link.path, source).first() else {
                continue;
            };
            if let Some(page) = pages.iter().find(|page| page.path == target) {
                candidates.add(
                    &page.path,
                    page.excluded,
                    Evidence {
                        source: Some(source.to_owned()),
                        ..Evidence::of(EvidenceKind::LinkText, text)
                    },
                );
            }
        }
    }
}

/// What to do after `verdict`.
fn next(verdict: Verdict, candidates: &[Candidate]) -> Next {
    let paths: Vec<String> = candidates.iter().map(|c| c.path.clone()).collect();
    match verdict {
        Verdict::Exists => {
            let page = candidates
                .iter()
                .find(|candidate| has(candidate, EvidenceKind::Path))
                .or_else(|| candidates.first())
                .map(|candidate| candidate.path.clone())
                .unwrap_or_default();
            Next {
                action: "link_to_existing",
                tool: "read_note",
                note: format!("{page} is the topic's page: link to it or update it"),
                paths: vec![page],
            }
        }
        Verdict::Ambiguous => Next {
            action: "review_candidates",
            tool: "read_note",
            note: "read the candidates and decide: link to one, or create a new page with \
                   allow_duplicate"
                .to_owned(),
            paths,
        },
        Verdict::New => Next {
            action: "create_new",
            tool: "draft_wiki_page",
            note: "no page covers the topic: draft one".to_owned(),
            paths,
        },
    }
}

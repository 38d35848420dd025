//! `commit_wiki_page`: writes a wiki page and its link patches, all or nothing, then the
//! wiki's `index.md` (regenerated) and `log.md` (one line appended), in the same commit.
//!
//! Everything is checked before anything is written: the page lies in the wiki folder, the
//! caller may read and write every note, every `prev_hash` is the note's SHA-256 now, the
//! page's text has no high-risk prompt-injection shape, and the topic has no page yet
//! (unless `allow_duplicate`). Overwriting a page asks for a person's confirmation, like
//! `write_note`. The writes go through `tools::common::relink::commit`: each guarded
//! by the SHA-256 read, undone in reverse order on a failure. Schema and link findings do
//! not block: they come back as `problems`.

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::catalog::{index_text, log_text, wikilink};
use super::compose::{add_link_bullet, links_to, page_text};
use super::find::{FindPage, find};
use super::identity::{EvidenceKind, Verdict, has};
use super::pages::{INDEX_FILE, LOG_FILE, WikiPlace, inside, page, read_pages};
use crate::calendar::rfc3339_utc;
use crate::content::findings::ContentFindings;
use crate::content::injection::Risk;
use crate::edits::preview;
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::link_table::link_table;
use crate::tools::common::note_text::read_if_exists;
use crate::tools::common::preload::is_note_path;
use crate::tools::common::relink::{NoteChange, RelinkPlan, commit};
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::{check_expected, tool_error_from_vault};
use crate::vault::{NoteFile, TextFile};

/// The heading a link patch goes under when it names none.
const DEFAULT_HEADING: &str = "See also";

/// The arguments of `commit_wiki_page`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CommitPage {
    /// The page's topic, for the duplicate check (default: the page's file name).
    #[serde(default)]
    #[schemars(length(min = 1, max = 500))]
    topic: Option<String>,
    /// The page's type (written as its `type` property).
    #[serde(default, rename = "type")]
    #[schemars(length(min = 1, max = 200))]
    kind: Option<String>,
    /// The page's sources (written as its `sources` property, e.g. `[[raw/article]]`).
    #[serde(default)]
    #[schemars(length(max = 100))]
    sources: Vec<String>,
    /// The page.
    page: PageArg,
    /// Notes to add a link to the page to.
    #[serde(default)]
    #[schemars(length(max = 100))]
    patches: Vec<PatchArg>,
    /// Write the page even though the topic has a page already.
    #[serde(default)]
    allow_duplicate: bool,
    /// Let the model judge settle the duplicate check (default true; without a model it is
    /// not asked).
    #[serde(default = "yes")]
    judge: bool,
}

fn yes() -> bool {
    true
}

/// The page to write.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PageArg {
    /// Its vault-relative path, inside the wiki folder, ending in `.md`.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// `create` (default; refuses an existing note) or `overwrite` (needs `prev_hash` and a
    /// person's confirmation).
    #[serde(default)]
    mode: PageMode,
    /// The SHA-256 the page has now (`overwrite`).
    #[serde(default)]
    #[schemars(length(min = 64, max = 64))]
    prev_hash: Option<String>,
    /// Its frontmatter properties.
    #[serde(default)]
    frontmatter: Map<String, Value>,
    /// Its Markdown body.
    #[serde(default)]
    #[schemars(length(max = 1_000_000))]
    body: String,
}

/// How the page is written.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum PageMode {
    /// A new page.
    #[default]
    Create,
    /// In place of the existing page.
    Overwrite,
}

/// What a patch does.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Operation {
    /// A bullet linking to the page, under a heading, once.
    #[default]
    Link,
}

/// One note to link to the page.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct PatchArg {
    /// The note's vault-relative path.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// The SHA-256 the note has now.
    #[schemars(length(min = 64, max = 64))]
    prev_hash: String,
    /// `link` (the only one).
    #[serde(default)]
    operation: Operation,
    /// The heading the bullet goes under (default `See also`; made at the end when absent).
    #[serde(default)]
    #[schemars(length(min = 1, max = 200))]
    heading: Option<String>,
}

/// The page written.
#[derive(Debug, Serialize, JsonSchema)]
struct PageDone {
    /// Its path.
    path: String,
    /// Whether it is new.
    created: bool,
    /// Its SHA-256 now.
    content_hash: String,
    /// Its SHA-256 before (absent for a new page).
    #[serde(skip_serializing_if = "Option::is_none")]
    prev_hash: Option<String>,
}

/// One patch.
#[derive(Debug, Serialize, JsonSchema)]
struct PatchDone {
    /// The note.
    path: String,
    /// `link`.
    operation: Operation,
    /// Whether the note changed.
    applied: bool,
    /// Why not (it links to the page already).
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// Its SHA-256 now.
    content_hash: String,
    /// Its SHA-256 before.
    prev_hash: String,
}

/// The duplicate check.
#[derive(Debug, Serialize, JsonSchema)]
struct Dedupe {
    /// `find_existing_page`'s verdict for the topic before the write.
    verdict: Verdict,
    /// The pages it found.
    paths: Vec<String>,
}

/// What `commit_wiki_page` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Committed {
    /// Always true (a refusal is an error, and nothing changed).
    committed: bool,
    /// The page.
    page: PageDone,
    /// The patches, in the order given.
    patches: Vec<PatchDone>,
    /// Schema and link findings (they do not block): a missing required property, an
    /// unknown type, a value outside the vocabulary, an unresolved link, a schema warning.
    problems: Vec<String>,
    /// The duplicate check.
    dedupe: Dedupe,
    /// The wiki's generated files written with the page.
    generated: Vec<String>,
    /// What to do next.
    next: String,
}

/// The `commit_wiki_page` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "commit_wiki_page",
            "Commit wiki page",
            "Write a wiki page changeset from draft_wiki_page, all or nothing: create the \
             wiki page (or overwrite it with prev_hash and a person's confirmation) and add \
             its backreferences on other wiki pages, each checked by prev_hash; then rebuild \
             the wiki's index and append to its log. Refuses a page outside the wiki \
             folder, a stale hash, prompt injection, or a topic that has a wiki page already \
             (unless allow_duplicate). Schema findings come back as problems.",
        ),
        "knowledge",
        (input_schema::<CommitPage>(), output_schema::<Committed>()),
        commit_wiki_page,
    )
    .keywords(&["save wiki page changeset", "write wiki page"])
    .scopes(&["read:notes", "write:notes"])
}

/// A patch planned: the note read, its new text (`None`: it links to the page already).
struct Planned {
    original: NoteFile,
    new_bytes: Option<Vec<u8>>,
    operation: Operation,
}

fn commit_wiki_page(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: CommitPage = parse(args)?;
    let place = WikiPlace::of(ctx);
    let folder = place.required_folder()?.to_owned();
    let path = args.page.path.trim_start_matches('/').to_owned();
    if !inside(&path, Some(&folder)) || !is_note_path(&path) || place.is_own_file(&path) {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!("the page must be a .md note inside the wiki folder '{folder}' (not its SCHEMA.md, index.md or log.md)"),
        )
        .with_details(json!({"path": path, "wiki_folder": folder})));
    }
    let text = page_text(&frontmatter(&args), &args.page.body);
    refuse_rejected(&text)?;
    let existing = existing_page(ctx, &args.page, &path)?;
    let patches = plan_patches(ctx, &args.patches, &path)?;
    let dedupe = dedupe(ctx, &args, &path)?;
    let problems = problems(ctx, &place, &path, &text)?;
    let page_bytes = match &existing {
        Some(file) => {
            let old = TextFile::decode(&file.bytes, &file.path)
                .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
            TextFile {
                text: text.clone(),
                ..old
            }
            .encode()
        }
        None => text.clone().into_bytes(),
    };
    if let Some(file) = &existing {
        confirm_overwrite(ctx, file, &text)?;
    }
    let mut plan = RelinkPlan::default();
    for planned in &patches {
        if let Some(bytes) = &planned.new_bytes {
            plan.changes.push(change(&planned.original, bytes.clone()));
        }
    }
    match &existing {
        Some(file) => plan.changes.push(change(file, page_bytes.clone())),
        None => plan.created.push((path.clone(), page_bytes.clone())),
    }
    let generated = generated_files(
        ctx,
        &place,
        &path,
        &text,
        &args,
        existing.is_some(),
        &mut plan,
    )?;
    commit(ctx, &plan, &[])?;
    structured(&Committed {
        committed: true,
        page: PageDone {
            path: path.clone(),
            created: existing.is_none(),
            content_hash: sha256_hex(&page_bytes),
            prev_hash: existing.map(|file| file.sha256),
        },
        patches: patches
            .into_iter()
            .map(|planned| PatchDone {
                path: planned.original.path.clone(),
                operation: planned.operation,
                applied: planned.new_bytes.is_some(),
                reason: planned
                    .new_bytes
                    .is_none()
                    .then(|| "the note links to the page already".to_owned()),
                content_hash: planned
                    .new_bytes
                    .as_deref()
                    .map_or_else(|| planned.original.sha256.clone(), sha256_hex),
                prev_hash: planned.original.sha256,
            })
            .collect(),
        problems,
        dedupe,
        generated,
        next: format!(
            "run lint_wiki to review the wiki; {} links to the page",
            wikilink(&path)
        ),
    })
}

/// The page's frontmatter: the given properties, with `type` and `sources` from the
/// arguments when given.
fn frontmatter(args: &CommitPage) -> Map<String, Value> {
    let mut properties = args.page.frontmatter.clone();
    if let Some(kind) = &args.kind {
        properties.insert("type".to_owned(), Value::String(kind.clone()));
    }
    if !args.sources.is_empty() {
        properties.insert("sources".to_owned(), json!(args.sources));
    }
    properties
}

/// Refuses a text with a high-risk prompt-injection shape.
fn refuse_rejected(text: &str) -> Result<(), ToolError> {
    let findings = ContentFindings::of([text]);
    if findings.flags.content_risk == Some(Risk::High) {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "the page's text is shaped like prompt injection (instruction override or data \
             exfiltration) and was not written; remove that text",
        )
        .with_details(json!({"content_flags": findings.flags.content_flags})));
    }
    Ok(())
}

/// Reads a note the call changes: a note the caller may not read is `not_found`, one it may
/// not write is refused by the ACL.
fn read_for_change(ctx: &ToolContext<'_>, path: &str) -> Result<Option<NoteFile>, ToolError> {
    if !ctx.may(path, AclOp::Read) {
        return Err(
            ToolError::new(ErrorCode::NotFound, format!("there is no note at '{path}'"))
                .with_details(json!({"path": path})),
        );
    }
    ctx.check_path(path, AclOp::Write)?;
    read_if_exists(ctx, path, AclOp::Write)
}

/// The page now: `None` for `create` (an existing note is `already_exists`); for
/// `overwrite`, the note, which must exist and have `prev_hash`.
fn existing_page(
    ctx: &ToolContext<'_>,
    page: &PageArg,
    path: &str,
) -> Result<Option<NoteFile>, ToolError> {
    let found = read_for_change(ctx, path)?;
    match (page.mode, found) {
        (PageMode::Create, None) => Ok(None),
        (PageMode::Create, Some(file)) => Err(tool_error_from_vault(
            &crate::vault::VaultError::AlreadyExists { path: file.path },
            AclOp::Write,
        )),
        (PageMode::Overwrite, None) => Err(ToolError::new(
            ErrorCode::NotFound,
            format!("there is no page at '{path}' to overwrite; use mode create"),
        )
        .with_details(json!({"path": path}))),
        (PageMode::Overwrite, Some(file)) => {
            let Some(expected) = page.prev_hash.as_deref() else {
                return Err(ToolError::new(
                    ErrorCode::InvalidInput,
                    "overwriting a page needs its prev_hash (its content_hash from read_note)",
                ));
            };
            check_expected(&file.path, Some(&file.sha256), Some(expected))?;
            Ok(Some(file))
        }
    }
}

/// Reads every patched note and checks its `prev_hash`; plans its bullet.
fn plan_patches(
    ctx: &ToolContext<'_>,
    patches: &[PatchArg],
    page: &str,
) -> Result<Vec<Planned>, ToolError> {
    let mut planned: Vec<Planned> = Vec::with_capacity(patches.len());
    for patch in patches {
        let Some(original) = read_for_change(ctx, &patch.path)? else {
            return Err(ToolError::new(
                ErrorCode::NotFound,
                format!("there is no note at '{}' to link from", patch.path),
            )
            .with_details(json!({"path": patch.path})));
        };
        if original.path == page || planned.iter().any(|p| p.original.path == original.path) {
            return Err(ToolError::new(
                ErrorCode::InvalidInput,
                format!(
                    "'{}' is patched twice, or is the page itself",
                    original.path
                ),
            ));
        }
        check_expected(
            &original.path,
            Some(&original.sha256),
            Some(&patch.prev_hash),
        )?;
        let decoded = TextFile::decode(&original.bytes, &original.path)
            .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
        let new_bytes = (!links_to(&decoded.text, page)).then(|| {
            let heading = patch.heading.as_deref().unwrap_or(DEFAULT_HEADING);
            TextFile {
                text: add_link_bullet(&decoded.text, heading, page),
                ..decoded
            }
            .encode()
        });
        planned.push(Planned {
            original,
            new_bytes,
            operation: patch.operation,
        });
    }
    Ok(planned)
}

/// The duplicate check: a topic with a page (other than the one overwritten) is refused
/// unless `allow_duplicate`.
fn dedupe(ctx: &ToolContext<'_>, args: &CommitPage, path: &str) -> Result<Dedupe, ToolError> {
    let stem = path.rsplit('/').next().unwrap_or(path);
    let topic = args
        .topic
        .clone()
        .unwrap_or_else(|| stem.strip_suffix(".md").unwrap_or(stem).to_owned());
    let found = find(
        ctx,
        &FindPage {
            topic,
            folder: None,
            limit: 8,
            min_similarity: None,
            judge: args.judge,
        },
    )?;
    let others: Vec<String> = found
        .candidates
        .iter()
        .filter(|candidate| candidate.path != path)
        .map(|candidate| candidate.path.clone())
        .collect();
    let taken = found.verdict == Verdict::Exists
        && found.candidates.iter().any(|candidate| {
            candidate.path != path
                && (candidate.strength == super::identity::Strength::Strong
                    || has(candidate, EvidenceKind::JudgedBy))
        });
    if taken && !args.allow_duplicate {
        return Err(ToolError::new(
            ErrorCode::AlreadyExists,
            format!(
                "the topic has a page already ({}): update it, or pass allow_duplicate",
                others.join(", ")
            ),
        )
        .with_details(json!({"verdict": found.verdict, "paths": others})));
    }
    Ok(Dedupe {
        verdict: found.verdict,
        paths: others,
    })
}

/// The page's schema findings, its unresolved links, and the schema's own warnings.
fn problems(
    ctx: &ToolContext<'_>,
    place: &WikiPlace,
    path: &str,
    text: &str,
) -> Result<Vec<String>, ToolError> {
    let mut problems = Vec::new();
    let written = page(path.to_owned(), text.to_owned(), String::new(), 0, false);
    match place.schema(ctx) {
        Some(schema) => {
            problems.extend(schema.problems(written.kind(), &written.properties));
            problems.extend(
                schema
                    .warnings
                    .iter()
                    .map(|warning| format!("SCHEMA.md {warning}")),
            );
        }
        None => problems.push("the wiki has no SCHEMA.md: page types are not checked".to_owned()),
    }
    let table = link_table(ctx)?;
    for link in engine_core::markdown::extract(text).links {
        if link.path.is_empty() {
            continue;
        }
        let target = table.resolver().resolve(&link.path, path).first();
        if target.is_none_or(|target| !ctx.may(target, AclOp::Read)) {
            problems.push(format!("the link {} leads to no note", link.original));
        }
    }
    Ok(problems)
}

/// Asks for a person's confirmation before replacing a non-empty page with other content.
fn confirm_overwrite(ctx: &ToolContext<'_>, file: &NoteFile, text: &str) -> Result<(), ToolError> {
    let old = TextFile::decode(&file.bytes, &file.path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
    if old.text.is_empty() || old.text == text {
        return Ok(());
    }
    ctx.confirm(json!({
        "tool": "commit_wiki_page",
        "vault": ctx.vault_id(),
        "path": file.path,
        "reason": "overwrites an existing wiki page",
        "sha256_before": file.sha256,
        "preview": preview(&old.text, text),
    }))
}

/// A planned rewrite of `original` to `bytes`.
fn change(original: &NoteFile, new_bytes: Vec<u8>) -> NoteChange {
    NoteChange {
        path: original.path.clone(),
        original: original.clone(),
        new_bytes,
        links: 1,
    }
}

/// Adds `index.md` (every page by type, the new one included) and `log.md` (a line for this
/// commit) to `plan`; returns their paths.
fn generated_files(
    ctx: &ToolContext<'_>,
    place: &WikiPlace,
    path: &str,
    text: &str,
    args: &CommitPage,
    overwrite: bool,
    plan: &mut RelinkPlan,
) -> Result<Vec<String>, ToolError> {
    let mut pages = read_pages(ctx, place, place.folder.as_deref())?;
    pages.retain(|page| page.path != path);
    pages.push(page(
        path.to_owned(),
        text.to_owned(),
        String::new(),
        0,
        false,
    ));
    let index = index_text(pages.iter().map(|page| (page.path.as_str(), page.kind())));
    let when = rfc3339_utc(ctx.clock().now_seconds());
    let mut what = format!(
        "{} {}",
        if overwrite { "updated" } else { "created" },
        wikilink(path)
    );
    if let Some(topic) = &args.topic {
        what.push_str(&format!(" (topic: {topic})"));
    }
    let linked: Vec<String> = plan
        .changes
        .iter()
        .filter(|change| change.path != path)
        .map(|change| wikilink(&change.path))
        .collect();
    if !linked.is_empty() {
        what.push_str(&format!("; linked from {}", linked.join(", ")));
    }
    let mut generated = Vec::new();
    for (name, make) in [
        (
            INDEX_FILE,
            &(|_: Option<&str>| index.clone()) as &dyn Fn(Option<&str>) -> String,
        ),
        (LOG_FILE, &|old: Option<&str>| log_text(old, &when, &what)),
    ] {
        let file_path = place.file(name);
        let existing = read_for_change(ctx, &file_path)?;
        match existing {
            Some(file) => {
                let old = TextFile::decode(&file.bytes, &file.path)
                    .map_err(|error| tool_error_from_vault(&error, AclOp::Write))?;
                let bytes = TextFile {
                    text: make(Some(&old.text)),
                    ..old
                }
                .encode();
                if bytes != file.bytes {
                    plan.changes.push(change(&file, bytes));
                }
            }
            None => plan
                .created
                .push((file_path.clone(), make(None).into_bytes())),
        }
        generated.push(file_path);
    }
    Ok(generated)
}

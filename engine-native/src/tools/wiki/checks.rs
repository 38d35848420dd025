//! The checks of `lint_wiki`, one function each over [`Lint`]: `Ok` with its proposals, or
//! `Err` with why its data is not there (the check is then listed in `skipped`). The last
//! three need tools this build does not have (the contradiction detector,
//! `note_quality_report`, `gap_report`): wiring one is replacing its function's body.

use engine_core::acl::AclOp;
use serde_json::json;

use super::catalog::index_text;
use super::judge::{SameTopic, model_judge, opening};
use super::lint::{DEFAULT_DUPLICATE_SIMILARITY, Lint, Proposal};
use super::pages::{INDEX_FILE, Page, body_of, inside, read_pages};
use super::schema::has_value;
use super::similar::{round, vectors};
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::model::may_send;
use crate::tools::common::preload::is_note_path;
use crate::vault::EntryKind;

/// The start of the note saying the near-duplicate pass compared only some notes.
pub const MAX_NOTES_NOTE: &str = "near_duplicates compared only the first";

/// How much later than the page a source must have changed to make it stale (files written
/// together, by a copy or a sync, are not ordered within a second on every file system).
const STALE_GRACE_MS: i64 = 1000;

/// A proposal of `kind` about `subject`.
fn proposal(kind: &'static str, subject: &str, action: &str, tool: &'static str) -> Proposal {
    Proposal {
        kind,
        subject: subject.to_owned(),
        related: Vec::new(),
        detail: None,
        suggested_action: action.to_owned(),
        tool,
        tool_args: None,
        evidence: None,
        judge_verdict: None,
    }
}

/// `index.md` missing or not listing the wiki's pages by type as the next commit would.
pub fn generated_page(lint: &Lint<'_, '_>) -> Result<Vec<Proposal>, String> {
    let folder = lint
        .place
        .folder
        .as_deref()
        .ok_or("no wiki folder is configured (vaults[].wiki.folder)")?;
    if !lint.ctx.reads_everything() {
        return Err("the index lists every page, and the caller may not read them all".to_owned());
    }
    let pages = read_pages(lint.ctx, &lint.place, Some(folder)).map_err(|error| error.message)?;
    let wanted = index_text(pages.iter().map(|page| (page.path.as_str(), page.kind())));
    let path = lint.place.file(INDEX_FILE);
    let now = read_text(lint.ctx.vault(), &path)
        .ok()
        .map(|note| note.text);
    if now.as_deref() == Some(wanted.as_str()) {
        return Ok(Vec::new());
    }
    let mut found = proposal(
        "generated_page",
        &path,
        "index.md does not list the wiki's pages by type: the next commit_wiki_page regenerates it",
        "commit_wiki_page",
    );
    found.detail = Some(
        if now.is_some() {
            "out of date"
        } else {
            "missing"
        }
        .to_owned(),
    );
    Ok(vec![found])
}

/// Pages no other readable note links to (the generated index does not count).
pub fn orphans(lint: &Lint<'_, '_>) -> Result<Vec<Proposal>, String> {
    let index = lint.place.file(INDEX_FILE);
    Ok(lint
        .pages
        .iter()
        .filter(|page| {
            !lint.table.incoming(&page.path).any(|link| {
                link.source != page.path && link.source != index && lint.ctx.may_list(&link.source)
            })
        })
        .map(|page| {
            let mut found = proposal(
                "orphan",
                &page.path,
                "no note links to this page: link it from a related page",
                "suggest_links",
            );
            found.tool_args = Some(json!({"path": page.path}));
            found
        })
        .collect())
}

/// Links in the pages that lead to no readable note.
pub fn unresolved_links(lint: &Lint<'_, '_>) -> Result<Vec<Proposal>, String> {
    let mut found = Vec::new();
    for page in &lint.pages {
        for link in lint.table.outgoing(&page.path) {
            let readable = link
                .resolved
                .as_deref()
                .is_some_and(|target| lint.ctx.may(target, AclOp::Read));
            if readable || link.target.is_empty() {
                continue;
            }
            let mut one = proposal(
                "unresolved_link",
                &page.path,
                "the link leads to no note: draft the page it names, or fix the link",
                "draft_wiki_page",
            );
            one.related = vec![link.target.clone()];
            one.detail = Some(format!("line {}", link.line));
            one.tool_args = Some(json!({"topic": link.target}));
            found.push(one);
        }
    }
    Ok(found)
}

/// Pages one of whose `sources` changed after the page did (by more than a second).
pub fn stale(lint: &Lint<'_, '_>) -> Result<Vec<Proposal>, String> {
    let mut found = Vec::new();
    for page in &lint.pages {
        let newer: Vec<String> = page
            .list("sources")
            .iter()
            .filter_map(|source| source_path(lint, page, source))
            .filter(|source| {
                lint.ctx
                    .vault()
                    .read(source)
                    .is_ok_and(|file| file.modified_ms > page.modified_ms + STALE_GRACE_MS)
            })
            .collect();
        if newer.is_empty() {
            continue;
        }
        let mut one = proposal(
            "stale",
            &page.path,
            "a source changed after the page: re-read it and update the page",
            "read_note",
        );
        one.tool_args = Some(json!({"path": newer[0]}));
        one.related = newer;
        found.push(one);
    }
    Ok(found)
}

/// The readable note a `sources` entry (`[[link]]` or path) of `page` names.
fn source_path(lint: &Lint<'_, '_>, page: &Page, source: &str) -> Option<String> {
    let inner = source
        .trim()
        .trim_start_matches("[[")
        .trim_end_matches("]]");
    let target = inner.split(['|', '#']).next().unwrap_or(inner).trim();
    let resolved = lint.table.resolver().resolve(target, &page.path).first()?;
    lint.ctx
        .may(resolved, AclOp::Read)
        .then(|| resolved.to_owned())
}

/// Pages without a `sources` property (what `audit_provenance` counts).
pub fn missing_sources(lint: &Lint<'_, '_>) -> Result<Vec<Proposal>, String> {
    Ok(lint
        .pages
        .iter()
        .filter(|page| !has_value(page.properties.get("sources")))
        .map(|page| {
            let mut one = proposal(
                "missing_sources",
                &page.path,
                "the page names no sources: add a sources property with the notes it rests on",
                "update_frontmatter",
            );
            one.tool_args = Some(json!({"path": page.path}));
            one
        })
        .collect())
}

/// Pairs of pages whose note vectors (the mean of their chunks') are at least
/// `min_similarity` close: at most `max_notes` notes, every pair compared.
pub fn near_duplicates(lint: &Lint<'_, '_>) -> Result<Vec<Proposal>, String> {
    let semantic = vectors(lint.ctx)?;
    let candidates: std::collections::HashSet<&str> = lint
        .pages
        .iter()
        .filter(|page| !page.excluded)
        .map(|page| page.path.as_str())
        .collect();
    let mut notes = semantic.note_vectors(lint.ctx.vault_id(), &|path| {
        candidates.contains(path) && lint.ctx.may_list(path)
    });
    if notes.len() > lint.args.max_notes {
        lint.notes.borrow_mut().push(format!(
            "{MAX_NOTES_NOTE} {} of {} embedded pages (max_notes)",
            lint.args.max_notes,
            notes.len()
        ));
        notes.truncate(lint.args.max_notes);
    }
    let min = lint
        .args
        .min_similarity
        .unwrap_or(DEFAULT_DUPLICATE_SIMILARITY);
    let mut pairs = Vec::new();
    for (at, (a, va)) in notes.iter().enumerate() {
        for (b, vb) in &notes[at + 1..] {
            let cosine: f32 = va.iter().zip(vb).map(|(x, y)| x * y).sum();
            if cosine >= min {
                pairs.push((a.clone(), b.clone(), cosine));
            }
        }
    }
    pairs.sort_by(|x, y| y.2.total_cmp(&x.2));
    let mut found: Vec<Proposal> = pairs
        .into_iter()
        .map(|(a, b, cosine)| {
            let mut one = proposal(
                "near_duplicate",
                &a,
                "the two pages say nearly the same: merge them, or make their difference clear",
                "read_note",
            );
            one.tool_args = Some(json!({"path": b}));
            one.related = vec![b];
            one.evidence = Some(json!({"cosine": round(cosine)}));
            one
        })
        .collect();
    judge_pairs(lint, &mut found);
    Ok(found)
}

/// Asks the model judge about the first `max_judge_calls` near-duplicate pairs.
fn judge_pairs(lint: &Lint<'_, '_>, found: &mut [Proposal]) {
    if found.is_empty() {
        return;
    }
    if !lint.args.judge {
        *lint.judge.borrow_mut() = super::judge::JudgeReport::unused("not asked (judge: false)");
        return;
    }
    let judge = match model_judge(lint.ctx) {
        Ok(judge) => judge,
        Err(reason) => {
            *lint.judge.borrow_mut() = super::judge::JudgeReport::unused(reason);
            return;
        }
    };
    let text = |path: &str| {
        read_text(lint.ctx.vault(), path)
            .map(|note| opening(body_of(&note.text)))
            .unwrap_or_default()
    };
    let mut report = lint.judge.borrow_mut();
    report.used = true;
    report.reason = None;
    report.model = Some(judge.model());
    let sendable = |one: &Proposal| {
        may_send(lint.ctx, &one.subject) && one.related.iter().all(|path| may_send(lint.ctx, path))
    };
    for one in found
        .iter_mut()
        .filter(|one| sendable(one))
        .take(lint.args.max_judge_calls)
    {
        report.calls += 1;
        match judge.same_topic(&text(&one.subject), &text(&one.related[0])) {
            Ok(verdict) => one.judge_verdict = Some(verdict),
            Err(error) => {
                one.judge_verdict = Some(SameTopic::Unsure);
                report.reason = Some(format!("the judge failed: {error}"));
            }
        }
    }
}

/// Raw sources no page of the wiki links to or cites.
pub fn coverage(lint: &Lint<'_, '_>) -> Result<Vec<Proposal>, String> {
    let raw = lint
        .place
        .raw_folder
        .as_deref()
        .ok_or("no wiki folder is configured (vaults[].wiki.folder), so no raw folder")?;
    let entries = match lint.ctx.vault().list(Some(raw)) {
        Ok(entries) => entries,
        Err(_) => return Err(format!("the raw folder '{raw}' cannot be listed")),
    };
    let mut found = Vec::new();
    for entry in entries {
        if entry.kind != EntryKind::File
            || !is_note_path(&entry.path)
            || !lint.ctx.may_list(&entry.path)
        {
            continue;
        }
        let cited = lint.table.incoming(&entry.path).any(|link| {
            inside(&link.source, lint.place.folder.as_deref()) && lint.ctx.may_list(&link.source)
        });
        if cited {
            continue;
        }
        let stem = entry.path.rsplit('/').next().unwrap_or(&entry.path);
        let mut one = proposal(
            "coverage_gap",
            &entry.path,
            "no wiki page cites this raw source: draft a page from it",
            "draft_wiki_page",
        );
        one.tool_args = Some(json!({
            "topic": stem.strip_suffix(".md").unwrap_or(stem),
            "source": entry.path
        }));
        found.push(one);
    }
    Ok(found)
}

/// Contradictions between pages: needs the contradiction detector.
pub fn contradictions(_: &Lint<'_, '_>) -> Result<Vec<Proposal>, String> {
    Err(
        "needs list_contradictions (the contradiction detector), which this build does not have"
            .to_owned(),
    )
}

/// Note quality (duplicate chunks, thin pages): needs `note_quality_report`.
pub fn note_quality(_: &Lint<'_, '_>) -> Result<Vec<Proposal>, String> {
    Err("needs note_quality_report, which this build does not have".to_owned())
}

/// Coverage gaps of the retrieval log: needs `gap_report`.
pub fn gaps(_: &Lint<'_, '_>) -> Result<Vec<Proposal>, String> {
    Err("needs gap_report, which this build does not have".to_owned())
}

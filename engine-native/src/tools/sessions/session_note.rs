//! The session note `end_session` can leave in the memory folder,
//! `<memory>/sessions/<start date>-<first 8 hex of the id>.md`: when the session ran, what
//! was done (calls by tool, failures), the notes it changed as wikilinks (only those the
//! caller may read; one no longer in the vault is named, not linked), and the last verdict
//! recorded in the session's trace ([`crate::sessions::VerdictRecord`]), when there is one. It is written like any tool's new note (write ACL on its path, the
//! write queue, a snapshot, the index refresh); when it cannot be, the session still ends
//! and the answer says why.

use std::collections::BTreeMap;

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Serialize;

use crate::runtime::ToolContext;
use crate::sessions::{Record, SessionInfo, TraceOutcome, read_session};
use crate::tools::common::memory_folder::memory_folder;
use crate::tools::common::write_back::write_back;

/// The characters that end or split a wikilink's target.
const LINK_BREAKERS: &[char] = &['[', ']', '|', '#', '^'];

/// What became of the session note.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct NoteOutcome {
    /// Where the note is (or would be).
    path: String,
    /// Whether this call wrote it.
    written: bool,
    /// Why it was not written.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
}

/// Writes the session note of the ended session `info`.
pub(super) fn write(ctx: &ToolContext<'_>, info: &SessionInfo) -> NoteOutcome {
    let start = &info.start;
    let date = start.ts.get(..10).unwrap_or(&start.ts);
    let id8 = start.session.get(..8).unwrap_or(&start.session);
    let path = format!("{}/sessions/{date}-{id8}.md", memory_folder(ctx));
    let not_written = |reason: String| NoteOutcome {
        path: path.clone(),
        written: false,
        reason: Some(reason),
    };
    if ctx.check_path(&path, AclOp::Write).is_err() {
        return not_written(format!(
            "you may not write {path}: the session ended without its note"
        ));
    }
    let log = match read_session(
        &ctx.runtime().sessions().vault_dir(&start.vault),
        &start.session,
    ) {
        Ok(log) => log,
        Err(error) => return not_written(format!("the session trace could not be read ({error})")),
    };
    let text = render(ctx, info, &log.records);
    match write_back(ctx, &path, text.as_bytes(), None) {
        Ok(_) => NoteOutcome {
            path,
            written: true,
            reason: None,
        },
        Err(error) => not_written(error.message),
    }
}

/// The calls of one tool.
#[derive(Default)]
struct Tally {
    calls: usize,
    failed: usize,
}

/// The note's text.
fn render(ctx: &ToolContext<'_>, info: &SessionInfo, records: &[Record]) -> String {
    let start = &info.start;
    let mut by_tool: BTreeMap<&str, Tally> = BTreeMap::new();
    let mut changed: Vec<&str> = Vec::new();
    for record in records {
        let Record::Call(call) = record else { continue };
        let tally = by_tool.entry(&call.tool).or_default();
        tally.calls += 1;
        if call.outcome == TraceOutcome::Error {
            tally.failed += 1;
        }
        for path in &call.changed_files {
            if !changed.contains(&path.as_str()) && ctx.may(path, AclOp::Read) {
                changed.push(path);
            }
        }
    }
    let verdict = records.iter().rev().find_map(|record| match record {
        Record::Verdict(verdict) => Some(verdict),
        _ => None,
    });
    let calls: usize = by_tool.values().map(|tally| tally.calls).sum();
    let failed: usize = by_tool.values().map(|tally| tally.failed).sum();
    let quoted = |text: &str| serde_json::to_string(text).unwrap_or_default();
    let mut out = String::from("---\ntype: session\n");
    out.push_str(&format!("session: {}\n", start.session));
    out.push_str(&format!("started: {}\n", start.ts));
    if let Some(ended) = &info.ended_at {
        out.push_str(&format!("ended: {ended}\n"));
    }
    if let Some(label) = &start.label {
        out.push_str(&format!("label: {}\n", quoted(label)));
    }
    if let Some(goal) = &start.goal {
        out.push_str(&format!("goal: {}\n", quoted(goal)));
    }
    out.push_str(&format!("calls: {calls}\nfailed: {failed}\n"));
    if let Some(verdict) = verdict {
        out.push_str(&format!("verdict: {}\n", verdict.verdict));
    }
    out.push_str("---\n");
    let title = start.label.as_deref().unwrap_or(&start.session[..8]);
    out.push_str(&format!("# Session {title}\n\n"));
    out.push_str(&format!(
        "From {} to {}.\n",
        start.ts,
        info.ended_at.as_deref().unwrap_or("(open)")
    ));
    if let Some(goal) = &start.goal {
        out.push_str(&format!("\nGoal: {goal}\n"));
    }
    out.push_str("\n## What was done\n\n");
    if by_tool.is_empty() {
        out.push_str("- no tool calls\n");
    }
    for (tool, tally) in &by_tool {
        let plural = if tally.calls == 1 { "" } else { "s" };
        out.push_str(&format!("- `{tool}`: {} call{plural}", tally.calls));
        if tally.failed > 0 {
            out.push_str(&format!(" ({} failed)", tally.failed));
        }
        out.push('\n');
    }
    out.push_str("\n## Notes changed\n\n");
    if changed.is_empty() {
        out.push_str("- none\n");
    }
    for path in changed {
        out.push_str(&format!("- {}\n", link(ctx, path)));
    }
    if let Some(verdict) = verdict {
        let score = match verdict.verdict {
            score if score > 0 => format!("+{score}"),
            score => score.to_string(),
        };
        out.push_str(&format!("\n## Verdict\n\n{score}"));
        if let Some(comment) = &verdict.comment {
            out.push_str(&format!(": {comment}"));
        }
        out.push('\n');
    }
    out
}

/// `path` as a wikilink Obsidian resolves (`[[Folder/note]]`, other files with their
/// extension); as code when it is no longer in the vault or a link could not hold it.
fn link(ctx: &ToolContext<'_>, path: &str) -> String {
    let exists = ctx
        .vault()
        .resolve(path)
        .is_ok_and(|resolved| resolved.exists());
    if !exists {
        return format!("`{path}` (no longer in the vault)");
    }
    if path.contains(LINK_BREAKERS) {
        return format!("`{path}`");
    }
    let target = path
        .strip_suffix(".md")
        .filter(|stem| !stem.is_empty())
        .unwrap_or(path);
    format!("[[{target}]]")
}

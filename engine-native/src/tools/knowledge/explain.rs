//! `explain_answer`: the lineage of what a caller's searches returned. From the retrieval
//! log ([`crate::store::Retrievals`]) of one session, or of a time window of at most 24
//! hours: each search, each chunk it returned with its rank and score, the note it is in now
//! (`current`, `changed` since, or `gone`: no longer exists), the feedback the caller gave it
//! (`record_retrieval_feedback`), and the caller's later calls (work-memory episodes of the
//! same session) that changed that note. Only the caller's own searches are read; a result
//! or a change whose note the caller may not read now is left out, silently.

use std::collections::HashMap;
use std::sync::PoisonError;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::calendar::rfc3339_utc;
use crate::errors::{ErrorCode, ToolError};
use crate::index::lexical::LexicalView;
use crate::runtime::{ToolContext, ToolDef};
use crate::store::{EpisodeQuery, EpisodeRow, LoggedRetrieval, RetrievalWindow, store_fault};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::index::{chunk_text, index_fault};
use crate::tools::common::retrieval_log::chunk_key;
use crate::tools::common::structured::{output_schema, structured};

/// The widest time window, milliseconds (24 hours).
const MAX_WINDOW_MS: i64 = 24 * 3600 * 1000;

/// The most episodes read to find what changed after the searches.
const MAX_EPISODES: u32 = 1000;

/// The arguments of `explain_answer`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct Explain {
    /// Only this session's searches (its whole life, unless `since`/`until` narrow it).
    #[serde(default)]
    #[schemars(length(min = 1, max = 128))]
    session_id: Option<String>,
    /// From this time, Unix milliseconds (default: `until` minus 24 hours).
    #[serde(default)]
    #[schemars(range(min = 0))]
    since: Option<i64>,
    /// To this time, Unix milliseconds (default: now). At most 24 hours after `since`.
    #[serde(default)]
    #[schemars(range(min = 0))]
    until: Option<i64>,
    /// The most searches shown, newest first (default 50).
    #[serde(default = "fifty")]
    #[schemars(range(min = 1, max = 200))]
    limit: u32,
}

fn fifty() -> u32 {
    50
}

/// What `explain_answer` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct Lineage {
    /// False when the retrieval log is off (`retrievalLog.enabled`): nothing is logged.
    available: bool,
    /// `session` (a `session_id` was given) or `time_window`.
    scope: &'static str,
    /// The window's start, Unix milliseconds.
    since: i64,
    /// The window's end, Unix milliseconds.
    until: i64,
    /// The searches, newest first.
    retrievals: Vec<Traced>,
    /// Whether more searches fall in the window than `limit`.
    truncated: bool,
}

/// One logged search.
#[derive(Debug, Serialize, JsonSchema)]
struct Traced {
    /// When, RFC 3339 UTC.
    time: String,
    /// The tool that searched.
    surface: String,
    /// The query.
    query: String,
    /// The session it ran in, if one was open.
    #[serde(skip_serializing_if = "Option::is_none")]
    session_id: Option<String>,
    /// What it returned that the caller may read now, in rank order.
    hits: Vec<TracedHit>,
}

/// One returned chunk, followed to now.
#[derive(Debug, Serialize, JsonSchema)]
struct TracedHit {
    /// Its rank in the search (1 = best).
    rank: usize,
    /// The chunk's key, as the search showed it (absent for a note reached by links only).
    #[serde(skip_serializing_if = "Option::is_none")]
    chunk_id: Option<String>,
    /// The score it was ranked by.
    score: f64,
    /// The note's path.
    path: String,
    /// `current` (the chunk is indexed as it was returned), `changed` (the note is there, the
    /// chunk's text or place is not), `gone` (no longer exists: the note is not indexed).
    now: &'static str,
    /// The caller's feedback: `never judged`, `helpful` (+1), `neutral` (0), `not helpful`
    /// (-1).
    verdict: &'static str,
    /// The caller's later calls in the same session (or window, outside one) that changed
    /// the note, oldest first.
    changed_by: Vec<Change>,
}

/// A later call that changed a returned note.
#[derive(Debug, Clone, Serialize, JsonSchema)]
struct Change {
    /// The episode (`work_episodes` shows it).
    episode_id: String,
    /// The tool.
    tool: String,
    /// When, RFC 3339 UTC.
    time: String,
}

/// The `explain_answer` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
        (
            "explain_answer",
            "Explain an answer's sources",
            "The lineage of your searches in a session or a time window (24 h at most): each \
             search's returned chunks, the note each is in now (current, changed, or gone), \
             the feedback you gave, and your later calls that changed those notes.",
        ),
        "knowledge",
        (input_schema::<Explain>(), output_schema::<Lineage>()),
        explain_answer,
    )
    .keywords(&[
        "lineage",
        "provenance of an answer",
        "which sources",
        "citations",
        "what did I retrieve",
        "retrieval history",
    ])
    .scopes(&["read:notes"])
}

fn explain_answer(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: Explain = parse(args)?;
    let now_ms = ctx.clock().now_seconds() * 1000;
    let (since, until) = window(&args, now_ms)?;
    let scope = if args.session_id.is_some() {
        "session"
    } else {
        "time_window"
    };
    if !ctx.served().config().config.retrieval_log.enabled {
        return structured(&Lineage {
            available: false,
            scope,
            since,
            until,
            retrievals: Vec::new(),
            truncated: false,
        });
    }
    let caller = ctx.caller().id.as_str();
    let (since_s, until_s) = (since.div_euclid(1000), until.div_euclid(1000));
    let mut logged = ctx
        .store()
        .retrievals()
        .window(&RetrievalWindow {
            vault: ctx.vault_id(),
            caller,
            session_id: args.session_id.as_deref(),
            since: since_s,
            until: until_s,
            limit: args.limit + 1,
        })
        .map_err(store_fault)?;
    let truncated = logged.len() > args.limit as usize;
    logged.truncate(args.limit as usize);
    let mut later = EpisodeQuery::newest(
        ctx.vault_id(),
        Some(caller),
        ctx.runtime().episode_cutoff(),
        MAX_EPISODES,
    );
    later.session_id = args.session_id.as_deref();
    later.since = logged.iter().map(|search| search.ts).min();
    let mut episodes = ctx.store().episodes().query(&later).map_err(store_fault)?;
    episodes.retain(|episode| !episode.paths.is_empty());
    episodes.reverse();
    let index = ctx
        .runtime()
        .indexes()
        .vault(ctx.store(), ctx.vault_id())
        .map_err(index_fault)?;
    let view = index.view.read().unwrap_or_else(PoisonError::into_inner);
    let retrievals = logged
        .into_iter()
        .map(|search| traced(ctx, &view, search, &episodes))
        .collect();
    structured(&Lineage {
        available: true,
        scope,
        since,
        until,
        retrievals,
        truncated,
    })
}

/// The window asked for, in milliseconds: at most 24 hours, `until` defaulting to now and
/// `since` to 24 hours before it; a session without bounds is read whole.
fn window(args: &Explain, now_ms: i64) -> Result<(i64, i64), ToolError> {
    if args.session_id.is_some() && args.since.is_none() && args.until.is_none() {
        return Ok((0, now_ms));
    }
    let until = args.until.unwrap_or(now_ms);
    let since = args.since.unwrap_or(until - MAX_WINDOW_MS);
    if since > until || until - since > MAX_WINDOW_MS {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            format!(
                "the window from {since} to {until} ms is not 0 to 24 hours long ({MAX_WINDOW_MS} ms)"
            ),
        )
        .with_recovery("narrow since/until to at most 24 hours, or name a session_id"));
    }
    Ok((since, until))
}

/// One search followed to now: its readable hits, each with its note's state, the feedback
/// and the later changes of its note.
fn traced(
    ctx: &ToolContext<'_>,
    view: &LexicalView,
    search: LoggedRetrieval,
    episodes: &[EpisodeRow],
) -> Traced {
    let later: Vec<&EpisodeRow> = episodes
        .iter()
        .filter(|episode| {
            episode.ts >= search.ts
                && (search.session_id.is_none() || episode.session_id == search.session_id)
        })
        .collect();
    let mut changes: HashMap<&str, Vec<Change>> = HashMap::new();
    for episode in &later {
        for path in &episode.paths {
            changes.entry(path.as_str()).or_default().push(Change {
                episode_id: episode.id.clone(),
                tool: episode.tool.clone(),
                time: rfc3339_utc(episode.ts),
            });
        }
    }
    let hits = search
        .retrieval
        .hits
        .into_iter()
        .zip(search.feedback)
        .enumerate()
        .filter(|(_, (hit, _))| ctx.may_list(&hit.path))
        .map(|(at, (hit, feedback))| TracedHit {
            rank: at + 1,
            now: state_now(ctx, view, &hit.path, hit.ordinal, hit.chunk_key.as_deref()),
            verdict: match feedback {
                None => "never judged",
                Some(1) => "helpful",
                Some(-1) => "not helpful",
                Some(_) => "neutral",
            },
            changed_by: changes.get(hit.path.as_str()).cloned().unwrap_or_default(),
            chunk_id: hit.chunk_key,
            score: hit.score,
            path: hit.path,
        })
        .collect();
    Traced {
        time: rfc3339_utc(search.ts),
        surface: search.surface,
        query: search.retrieval.query,
        session_id: search.session_id,
        hits,
    }
}

/// Whether the returned chunk is indexed as it was (`current`), its note is but the chunk
/// is not (`changed`), or the note is not indexed any more (`gone`).
fn state_now(
    ctx: &ToolContext<'_>,
    view: &LexicalView,
    path: &str,
    ordinal: Option<u32>,
    key: Option<&str>,
) -> &'static str {
    if view.chunk_at(path, 0).is_none() {
        return "gone";
    }
    let (Some(ordinal), Some(key)) = (ordinal, key) else {
        return "current";
    };
    match view.chunk_at(path, ordinal) {
        Some(row) if chunk_key(path, ordinal, &chunk_text(ctx, row)) == key => "current",
        _ => "changed",
    }
}

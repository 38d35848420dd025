//! The retrieval log as the ranked search tools feed it: each reports, once per call, its
//! query and the results it returned ([`report`]); dispatch logs them after the call answered
//! (`dispatch/retrieval_log.rs`). A result's chunk is shown to the caller as `chunk_id`: its
//! [`chunk_key`], what `record_retrieval_feedback` takes back.

use crate::index::lexical::LexicalView;
use crate::runtime::ToolContext;
use crate::store::{Retrieval, RetrievedHit};
use crate::tools::common::index::chunk_text;

/// A chunk's key, as results show it (`chunk_id`).
pub(crate) use crate::store::chunk_key;

/// The logged result of chunk `row` of `view`, whose text is `text`, ranked by `score`;
/// `None` when the chunk has left the view (its note changed meanwhile).
pub(crate) fn chunk_hit(
    view: &LexicalView,
    row: i64,
    text: &str,
    score: f64,
) -> Option<RetrievedHit> {
    let place = view.place(row)?;
    Some(RetrievedHit {
        chunk_key: Some(chunk_key(&place.path, place.ordinal, text)),
        path: place.path.clone(),
        ordinal: Some(place.ordinal),
        chunk_row: Some(row),
        score,
    })
}

/// The logged result of a note returned without a chunk of its own (reached through links).
pub(crate) fn note_hit(path: &str, score: f64) -> RetrievedHit {
    RetrievedHit {
        path: path.to_owned(),
        chunk_key: None,
        ordinal: None,
        chunk_row: None,
        score,
    }
}

/// The logged result of the note at `path`, ranked by `score`, whose best chunk is `row`
/// when the query ranked it: that chunk's hit (its text read from the index), else the
/// note's.
pub(crate) fn ranked_hit(
    ctx: &ToolContext<'_>,
    view: &LexicalView,
    path: &str,
    row: Option<i64>,
    score: f64,
) -> RetrievedHit {
    row.and_then(|row| chunk_hit(view, row, &chunk_text(ctx, row), score))
        .unwrap_or_else(|| note_hit(path, score))
}

/// Reports that the call's ranked search for `query` returned `hits`, best first.
pub(crate) fn report(ctx: &ToolContext<'_>, query: &str, hits: Vec<RetrievedHit>) {
    ctx.report_retrieval(Retrieval {
        query: query.to_owned(),
        hits,
    });
}

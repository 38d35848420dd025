//! Similarity from the search index's vectors: the topic's nearest chunks (each page's best
//! cosine at or above a floor is `semantic` evidence) and one vector per note for
//! near-duplicate pairs. An embedding outage (no provider, nothing embedded, a provider
//! failure) is reported as `checked: false` with the reason, never as an error.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Serialize;

use super::identity::{Candidates, Evidence, EvidenceKind};
use crate::index::semantic::SemanticIndex;
use crate::runtime::ToolContext;

/// Whether similarity was looked at.
#[derive(Debug, Clone, Serialize, JsonSchema)]
pub struct SemanticCheck {
    /// Whether the vectors were searched.
    pub checked: bool,
    /// The cosine floor a chunk had to reach.
    pub min: f32,
    /// Why they were not (absent when they were).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// The vectors of the configured provider with something of the call's vault embedded, or
/// why there are none.
pub(super) fn vectors(ctx: &ToolContext<'_>) -> Result<Arc<SemanticIndex>, String> {
    let indexes = ctx.runtime().indexes();
    let semantic = indexes
        .semantic(ctx.store(), &ctx.served().config().config.embeddings)
        .map_err(|error| format!("the embedding vectors could not be opened: {error}"))?
        .ok_or_else(|| {
            "no embedding provider is configured (or its model is still loading)".to_owned()
        })?;
    if semantic.embedded_readable(ctx.vault_id(), &|path| ctx.may_list(path)) == 0 {
        return Err("no note is embedded yet: run index_vault".to_owned());
    }
    Ok(semantic)
}

/// Adds `semantic` evidence for the pages `allowed` admits whose best chunk is at least
/// `min` close to `text` (searching `depth` chunks deep).
pub(super) fn semantic_evidence(
    ctx: &ToolContext<'_>,
    text: &str,
    (min, depth): (f32, usize),
    allowed: &dyn Fn(&str) -> bool,
    candidates: &mut Candidates,
) -> SemanticCheck {
    let unchecked = |reason: String| SemanticCheck {
        checked: false,
        min,
        reason: Some(reason),
    };
    let semantic = match vectors(ctx) {
        Ok(semantic) => semantic,
        Err(reason) => return unchecked(reason),
    };
    let query = match semantic.query_vector(text) {
        Ok(query) => query,
        Err(error) => return unchecked(format!("the topic could not be embedded: {error}")),
    };
    let hits = match semantic.search(ctx.vault_id(), &query, depth, allowed) {
        Ok(hits) => hits,
        Err(error) => return unchecked(format!("the vectors could not be searched: {error}")),
    };
    let mut seen = std::collections::HashSet::new();
    for (chunk_id, cosine) in hits {
        if cosine < min {
            break;
        }
        let Some(path) = semantic.note_of_chunk(chunk_id) else {
            continue;
        };
        if seen.insert(path.clone()) {
            candidates.add(
                &path,
                false,
                Evidence {
                    kind: EvidenceKind::Semantic,
                    value: None,
                    source: None,
                    score: Some(round(cosine)),
                },
            );
        }
    }
    SemanticCheck {
        checked: true,
        min,
        reason: None,
    }
}

/// A cosine to three decimals.
pub(super) fn round(cosine: f32) -> f64 {
    (f64::from(cosine) * 1000.0).round() / 1000.0
}

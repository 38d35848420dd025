//! Reranking (`search.rerank`, off by default): a cross-encoder reads the query with the best
//! passage of each of the first notes of a lexical, semantic or hybrid ranking and reorders
//! them by its score; notes past the depth keep their order after them. The model is loaded
//! once, on the first search that needs it; when it cannot be loaded or run, search answers
//! in its own order and says why.

use std::sync::{Arc, Mutex, PoisonError};

use crate::config::RerankConfig;
use crate::embed::EmbedError;

/// A model that scores passages for a query (higher is better).
pub trait Reranker: Send + Sync {
    /// Which model this is (its name and the start of its weights' SHA-256).
    fn model_id(&self) -> &str;

    /// The score of each of `passages` for `query`, in order.
    fn score(&self, query: &str, passages: &[&str]) -> Result<Vec<f32>, EmbedError>;
}

#[cfg(feature = "onnx-runtime")]
impl Reranker for crate::embed::local::CrossEncoder {
    fn model_id(&self) -> &str {
        crate::embed::local::CrossEncoder::model_id(self)
    }

    fn score(&self, query: &str, passages: &[&str]) -> Result<Vec<f32>, EmbedError> {
        crate::embed::local::CrossEncoder::score(self, query, passages)
    }
}

/// The loaded reranker of the config, kept while the config names it.
#[derive(Default)]
pub struct Rerankers {
    slot: Mutex<Option<Loaded>>,
}

/// A load of one `search.rerank` setting: the model, or why it could not be loaded.
struct Loaded {
    config: RerankConfig,
    model: Result<Arc<dyn Reranker>, String>,
}

impl std::fmt::Debug for Rerankers {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let slot = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("Rerankers")
            .field("model", &slot.as_ref().map(|loaded| &loaded.config.model))
            .finish()
    }
}

impl Rerankers {
    /// The reranker `config` names, loaded on first use; a failure to load is kept (and
    /// returned again, not retried) until the config names another model.
    pub fn get(&self, config: &RerankConfig) -> Result<Arc<dyn Reranker>, String> {
        let mut slot = self.slot.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(loaded) = slot.as_ref().filter(|loaded| loaded.config == *config) {
            return loaded.model.clone();
        }
        let model = load(config);
        if let Err(error) = &model {
            tracing::warn!("search.rerank: {error}; search answers without reranking");
        }
        *slot = Some(Loaded {
            config: config.clone(),
            model: model.clone(),
        });
        model
    }
}

#[cfg(feature = "onnx-runtime")]
fn load(config: &RerankConfig) -> Result<Arc<dyn Reranker>, String> {
    let env = |name: &str| std::env::var(name).ok();
    let threads = config.threads.map(|t| t as usize);
    crate::embed::local::CrossEncoder::load(&config.model, &env, threads)
        .map(|model| Arc::new(model) as Arc<dyn Reranker>)
        .map_err(|e| format!("the reranker {} cannot be loaded: {e}", config.model))
}

#[cfg(not(feature = "onnx-runtime"))]
fn load(config: &RerankConfig) -> Result<Arc<dyn Reranker>, String> {
    Err(format!(
        "the reranker {} needs the ONNX Runtime engine, and this obsidian-tc was built \
         without it (cargo feature onnx-runtime)",
        config.model
    ))
}

/// The order of the first `scores.len()` items of a ranking after reranking: their indices,
/// highest score first (NaN last), ties in their old order.
pub fn reranked_order(scores: &[f32]) -> Vec<usize> {
    let key = |i: usize| {
        let score = scores[i];
        if score.is_nan() {
            f32::NEG_INFINITY
        } else {
            score
        }
    };
    let mut order: Vec<usize> = (0..scores.len()).collect();
    order.sort_by(|&a, &b| key(b).total_cmp(&key(a)));
    order
}

#[cfg(test)]
mod tests {
    use super::reranked_order;

    #[test]
    fn the_highest_score_goes_first_and_ties_keep_their_order() {
        assert_eq!(reranked_order(&[0.1, 2.0, -1.0, 2.0]), vec![1, 3, 0, 2]);
        assert_eq!(reranked_order(&[f32::NAN, -5.0, 1.0]), vec![2, 1, 0]);
        assert_eq!(reranked_order(&[]), Vec::<usize>::new());
    }
}

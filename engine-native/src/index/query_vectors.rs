//! [`QueryVectors`]: the embeddings of the most recent queries, so that a query is embedded
//! once however many rankings, deeper reads and pages (`cursor`) it takes. Embedding a query
//! costs milliseconds to tens of milliseconds with a local model and a round trip with a
//! hosted one; looking it up costs a string comparison per entry.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex, PoisonError};

/// How many recent queries keep their vector.
pub const QUERY_CACHE_SIZE: usize = 64;

/// Recent query texts with their vectors, the most recent last.
#[derive(Debug, Default)]
pub struct QueryVectors {
    recent: Mutex<VecDeque<(String, Arc<[f32]>)>>,
}

impl QueryVectors {
    /// The vector of `query`, from the cache or made by `embed` (and then kept, the least
    /// recently used entry making room). A failure of `embed` is returned and nothing kept.
    pub fn get_or_embed<E>(
        &self,
        query: &str,
        embed: impl FnOnce() -> Result<Vec<f32>, E>,
    ) -> Result<Arc<[f32]>, E> {
        if let Some(vector) = self.take(query) {
            self.keep(query, Arc::clone(&vector));
            return Ok(vector);
        }
        let vector: Arc<[f32]> = embed()?.into();
        self.keep(query, Arc::clone(&vector));
        Ok(vector)
    }

    /// Removes and returns the entry of `query`.
    fn take(&self, query: &str) -> Option<Arc<[f32]>> {
        let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        let at = recent.iter().position(|(text, _)| text == query)?;
        recent.remove(at).map(|(_, vector)| vector)
    }

    /// Adds `query` as the most recent entry.
    fn keep(&self, query: &str, vector: Arc<[f32]>) {
        let mut recent = self.recent.lock().unwrap_or_else(PoisonError::into_inner);
        if recent.len() == QUERY_CACHE_SIZE {
            recent.pop_front();
        }
        recent.push_back((query.to_owned(), vector));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embeds_each_query_once_and_forgets_the_least_recent() {
        let cache = QueryVectors::default();
        let calls = std::cell::Cell::new(0);
        let get = |query: &str| {
            cache
                .get_or_embed(query, || {
                    calls.set(calls.get() + 1);
                    Ok::<_, ()>(vec![query.len() as f32])
                })
                .expect("embedded")
        };
        assert_eq!(&*get("alpha"), &[5.0]);
        assert_eq!(&*get("alpha"), &[5.0]);
        for i in 0..QUERY_CACHE_SIZE - 1 {
            get(&format!("q{i}"));
        }
        // "alpha" was used before all of them but is still one of the 64 most recent.
        get("alpha");
        get("one more");
        get("alpha");
        assert_eq!(calls.get(), 1 + (QUERY_CACHE_SIZE - 1) + 1);
    }

    #[test]
    fn a_failure_is_not_kept() {
        let cache = QueryVectors::default();
        assert_eq!(
            cache.get_or_embed("q", || Err::<Vec<f32>, _>("down")),
            Err("down")
        );
        let vector = cache.get_or_embed("q", || Ok::<_, &str>(vec![1.0]));
        assert_eq!(vector.as_deref(), Ok(&[1.0][..]));
    }
}

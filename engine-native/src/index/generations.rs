//! Values derived from one vault's stored index rows (its resolved link table, its parsed
//! tasks), kept in memory until the vault's index generation moves on (every change to the
//! stored rows bumps it), then rebuilt on next use. Two calls racing on a stale value may
//! both rebuild it; either result is right.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::store::{Store, StoreError};

/// One kept `T` per vault, each with the index generation it was built at.
#[derive(Debug)]
pub struct PerGeneration<T> {
    kept: Mutex<HashMap<String, (i64, Arc<T>)>>,
}

impl<T> Default for PerGeneration<T> {
    fn default() -> Self {
        PerGeneration {
            kept: Mutex::new(HashMap::new()),
        }
    }
}

impl<T> PerGeneration<T> {
    /// The value of vault `id`: the kept one while the vault's index generation has not
    /// moved on, else `build()`'s, kept for next time.
    pub fn get<E: From<StoreError>>(
        &self,
        store: &Store,
        id: &str,
        build: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        let generation = store.note_index().generation(id)?;
        if let Some((built_at, value)) = self.lock().get(id)
            && *built_at == generation
        {
            return Ok(Arc::clone(value));
        }
        let value = Arc::new(build()?);
        self.lock()
            .insert(id.to_owned(), (generation, Arc::clone(&value)));
        Ok(value)
    }

    /// Forgets the kept value of vault `id`.
    pub fn forget(&self, id: &str) {
        self.lock().remove(id);
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, (i64, Arc<T>)>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

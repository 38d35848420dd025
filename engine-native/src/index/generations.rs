//! Values derived from one vault's stored index rows (its resolved link table, its parsed
//! tasks), kept in memory until the vault's index generation moves on (every change to the
//! stored rows bumps it), then rebuilt on next use. A change this process made can instead be
//! noted against the kept value ([`PerGeneration::advance`]: the notes it rewrote), and a
//! value that knows how brings itself up to date from those notes alone on next use
//! ([`PerGeneration::get_updated`]), so a write costs nothing and a read after it pays for
//! the notes that changed, not for the vault. A value nobody else holds is updated in place. Two calls racing on a stale value may both
//! rebuild it; either result is right.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::store::{Store, StoreError};

/// One kept value: the generation it stands for, and the notes rewritten since it was made
/// (their new rows are stored; the value has not read them yet).
#[derive(Debug)]
struct Kept<T> {
    generation: i64,
    value: Arc<T>,
    rewritten: Vec<String>,
}

/// One kept `T` per vault, each with the index generation it stands for.
#[derive(Debug)]
pub struct PerGeneration<T> {
    kept: Mutex<HashMap<String, Kept<T>>>,
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
    /// moved on (and no note was rewritten since), else `build()`'s, kept for next time.
    pub fn get<E: From<StoreError>>(
        &self,
        store: &Store,
        id: &str,
        build: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        let generation = store.note_index().generation(id)?;
        if let Some(entry) = self.lock().get(id)
            && entry.generation == generation
            && entry.rewritten.is_empty()
        {
            return Ok(Arc::clone(&entry.value));
        }
        self.rebuilt(id, generation, build)
    }

    /// Like [`PerGeneration::get`], but a kept value whose only change since is notes
    /// rewritten is brought up to date in place by `update(value, notes)` (under the lock,
    /// so once; on a copy when a caller still holds the value).
    pub fn get_updated<E: From<StoreError>>(
        &self,
        store: &Store,
        id: &str,
        build: impl FnOnce() -> Result<T, E>,
        update: impl FnOnce(&mut T, &[String]) -> Result<(), E>,
    ) -> Result<Arc<T>, E>
    where
        T: Clone,
    {
        let generation = store.note_index().generation(id)?;
        {
            let mut kept = self.lock();
            if let Some(entry) = kept.get_mut(id)
                && entry.generation == generation
            {
                if !entry.rewritten.is_empty() {
                    let rewritten = std::mem::take(&mut entry.rewritten);
                    if let Err(error) = update(Arc::make_mut(&mut entry.value), &rewritten) {
                        kept.remove(id);
                        return Err(error);
                    }
                }
                return Ok(Arc::clone(&entry.value));
            }
        }
        self.rebuilt(id, generation, build)
    }

    /// `build()`'s value, kept as vault `id`'s at `generation`.
    fn rebuilt<E>(
        &self,
        id: &str,
        generation: i64,
        build: impl FnOnce() -> Result<T, E>,
    ) -> Result<Arc<T>, E> {
        let value = Arc::new(build()?);
        self.lock().insert(
            id.to_owned(),
            Kept {
                generation,
                value: Arc::clone(&value),
                rewritten: Vec::new(),
            },
        );
        Ok(value)
    }

    /// Notes that this process's change moved vault `id`'s rows from generation `to - 1` to
    /// `to`, rewriting the rows of the notes `rewritten` (no other row changed). A value
    /// kept at any other generation is left alone: another process changed the rows too,
    /// and the next use rebuilds it.
    pub fn advance(&self, id: &str, to: i64, rewritten: &[&str]) {
        if let Some(entry) = self.lock().get_mut(id)
            && entry.generation == to - 1
        {
            entry.generation = to;
            entry
                .rewritten
                .extend(rewritten.iter().map(|&path| path.to_owned()));
        }
    }

    /// Forgets the kept value of vault `id` if `stale` says so of it.
    pub fn forget_if(&self, id: &str, stale: impl FnOnce(&T) -> bool) {
        let mut kept = self.lock();
        if kept.get(id).is_some_and(|entry| stale(&entry.value)) {
            kept.remove(id);
        }
    }

    /// Forgets the kept value of vault `id`.
    pub fn forget(&self, id: &str) {
        self.lock().remove(id);
    }

    fn lock(&self) -> MutexGuard<'_, HashMap<String, Kept<T>>> {
        self.kept.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept_at(kept: &PerGeneration<u32>, id: &str) -> Option<(i64, u32, Vec<String>)> {
        kept.lock()
            .get(id)
            .map(|entry| (entry.generation, *entry.value, entry.rewritten.clone()))
    }

    fn keep(kept: &PerGeneration<u32>, id: &str, generation: i64, value: u32) {
        kept.lock().insert(
            id.to_owned(),
            Kept {
                generation,
                value: Arc::new(value),
                rewritten: Vec::new(),
            },
        );
    }

    #[test]
    fn advance_notes_only_a_change_made_from_the_kept_generation() {
        let kept = PerGeneration::<u32>::default();
        keep(&kept, "v", 4, 1);
        kept.advance("v", 5, &["a.md"]);
        kept.advance("v", 6, &["b.md", "a.md"]);
        assert_eq!(
            kept_at(&kept, "v"),
            Some((6, 1, vec!["a.md".into(), "b.md".into(), "a.md".into()]))
        );
        kept.advance("v", 8, &["c.md"]);
        assert_eq!(
            kept_at(&kept, "v").map(|(generation, ..)| generation),
            Some(6),
            "another process's change in between: left for the next use to rebuild"
        );
        kept.advance("absent", 1, &["a.md"]);
        assert_eq!(kept_at(&kept, "absent"), None);
        kept.forget_if("v", |&value| value == 2);
        assert!(kept_at(&kept, "v").is_some(), "not stale");
        kept.forget_if("v", |&value| value == 1);
        assert_eq!(kept_at(&kept, "v"), None);
    }
}

//! The egress guard: what vault text may go to a model. Every chunk a tool puts in a prompt
//! passes [`guard`] first; [`holds_credential`] is the last check of the whole prompt.

use engine_core::acl::{CaseMode, Glob};
use serde::Serialize;

use crate::content::secrets::find_secrets;

/// A piece of vault text a tool would send, with where it comes from.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    /// The note's vault path.
    pub path: String,
    /// The chunk's key (what the retrieval log and `record_retrieval_feedback` name).
    pub chunk_id: Option<String>,
    /// Its text.
    pub text: String,
    /// Its rank score.
    pub score: f64,
}

/// How many chunks the guard withheld, by reason (counts, never contents).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct Withheld {
    /// The caller may not read the note.
    pub unreadable: usize,
    /// `inference.excludePaths` names the note.
    pub excluded: usize,
    /// The chunk holds a credential (an API key, a token, a private key...).
    pub credential: usize,
}

impl Withheld {
    /// Every withheld chunk.
    pub fn total(&self) -> usize {
        self.unreadable + self.excluded + self.credential
    }
}

/// What may be sent, and what was withheld.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Guarded {
    /// The chunks that may go to a model, in the order given.
    pub sendable: Vec<Chunk>,
    /// What was kept back.
    pub withheld: Withheld,
}

/// The globs of `inference.excludePaths` (the config checks refused any that does not
/// compile).
pub fn exclude_globs(globs: &[String]) -> Vec<Glob> {
    globs
        .iter()
        .filter_map(|glob| Glob::compile(glob, CaseMode::Sensitive).ok())
        .collect()
}

/// Keeps of `chunks` those whose note `may_read` admits, that no glob of `excluded` names,
/// and whose text holds no credential; counts the others by reason (the first that applies).
pub fn guard(chunks: Vec<Chunk>, may_read: &dyn Fn(&str) -> bool, excluded: &[Glob]) -> Guarded {
    let mut guarded = Guarded::default();
    for chunk in chunks {
        if !may_read(&chunk.path) {
            guarded.withheld.unreadable += 1;
        } else if is_excluded(excluded, &chunk.path) {
            guarded.withheld.excluded += 1;
        } else if holds_credential(&chunk.text) {
            guarded.withheld.credential += 1;
        } else {
            guarded.sendable.push(chunk);
        }
    }
    guarded
}

/// Whether a glob of `excluded` (`inference.excludePaths`) names `path` or a folder holding it.
pub fn is_excluded(excluded: &[Glob], path: &str) -> bool {
    excluded.iter().any(|glob| in_glob(glob, path))
}

/// Whether `glob` names `path` or a folder holding it.
fn in_glob(glob: &Glob, path: &str) -> bool {
    glob.matches(path)
        || path
            .match_indices('/')
            .any(|(at, _)| glob.matches(&path[..at]))
}

/// Whether `text` holds a credential the scanner knows (`content::secrets`).
pub fn holds_credential(text: &str) -> bool {
    !find_secrets(text).is_empty()
}

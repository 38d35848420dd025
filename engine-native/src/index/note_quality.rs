//! The `note-quality` pass: each note's measures from the index, the link table, the
//! retrieval log and the open contradictions, its flags and a score, written to the
//! `note_quality` rollup (`crate::store::NoteQuality`). Nothing ranks by it.
//!
//! Measures: `chunk_count`; `dup_chunk_count` and `dup_ratio` (chunks of at least
//! [`DUP_MIN_CHARS`] characters whose text, whitespace folded, another note also has);
//! `age_days` since the last modification; `retrievals` and `last_retrieved_at` from the
//! retrieval log; `in_degree` (other notes linking to it) and `out_degree` (other notes it
//! links to); `contradictions_open`. Flags: `duplicate` (`dup_ratio` ≥ 0.5), `orphan` (no
//! incoming link), `stale_edit` (unmodified for [`STALE_EDIT_DAYS`]), `stale_access` (the
//! vault's notes are retrieved, this one not for [`STALE_ACCESS_DAYS`]), `contradicted`. The
//! score is 1 less a weight per flag (the duplicate weight times `dup_ratio`), at least 0.
//!
//! [`Measures`] counts only the notes a `readable` filter admits, so what one note shows
//! never depends on notes a caller may not read; the pass itself admits every note.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;

use engine_core::hash::sha256_hex;
use serde::Serialize;

use super::links::LinkTable;
use crate::store::{NoteQualityRow, QualityFacts, Store, StoreError};

/// The shortest chunk text that counts as a duplicate.
pub const DUP_MIN_CHARS: usize = 40;
/// Days without a change after which a note is `stale_edit`.
pub const STALE_EDIT_DAYS: i64 = 365;
/// Days without a retrieval after which a note is `stale_access`.
pub const STALE_ACCESS_DAYS: i64 = 90;
/// The flags, in the order they are listed.
pub const FLAGS: [&str; 5] = [
    "duplicate",
    "orphan",
    "stale_edit",
    "stale_access",
    "contradicted",
];
/// What each flag takes off the score (`duplicate`'s is scaled by `dup_ratio`).
const WEIGHTS: [f64; 5] = [0.25, 0.2, 0.15, 0.1, 0.3];
const DAY_SECONDS: i64 = 86_400;

/// Each note's measures over the notes `readable` admits.
pub struct Measures<'a> {
    facts: &'a QualityFacts,
    links: &'a LinkTable,
    readable: &'a dyn Fn(&str) -> bool,
    /// For each duplicate-sized text hash, the notes holding it.
    texts: HashMap<String, HashSet<&'a str>>,
    any_retrieval: bool,
    now: i64,
}

fn text_hash(text: &str) -> Option<String> {
    let folded = text.split_whitespace().collect::<Vec<_>>().join(" ");
    (folded.chars().count() >= DUP_MIN_CHARS).then(|| sha256_hex(folded.as_bytes()))
}

impl<'a> Measures<'a> {
    /// The measures of `facts` and `links` at `now` (Unix seconds), counting only what
    /// `readable` admits.
    pub fn new(
        facts: &'a QualityFacts,
        links: &'a LinkTable,
        readable: &'a dyn Fn(&str) -> bool,
        now: i64,
    ) -> Measures<'a> {
        let mut texts: HashMap<String, HashSet<&'a str>> = HashMap::new();
        for (path, chunks) in facts.chunks.iter().filter(|(path, _)| readable(path)) {
            for hash in chunks.iter().filter_map(|text| text_hash(text)) {
                texts.entry(hash).or_default().insert(path.as_str());
            }
        }
        let any_retrieval = facts.retrieved.keys().any(|path| readable(path));
        Measures {
            facts,
            links,
            readable,
            texts,
            any_retrieval,
            now,
        }
    }

    /// The notes measured: every indexed note `readable` admits, by path.
    pub fn notes(&self) -> Vec<&'a str> {
        let mut notes: Vec<&str> = self
            .facts
            .mtimes
            .keys()
            .map(String::as_str)
            .filter(|path| (self.readable)(path))
            .collect();
        notes.sort_unstable();
        notes
    }

    /// The row of note `path`.
    pub fn of(&self, path: &str) -> NoteQualityRow {
        let chunks = self.facts.chunks.get(path).map_or(&[][..], Vec::as_slice);
        let chunk_count = chunks.len() as u32;
        let dup_chunk_count = chunks
            .iter()
            .filter_map(|text| text_hash(text))
            .filter(|hash| {
                self.texts
                    .get(hash)
                    .is_some_and(|notes| notes.iter().any(|other| *other != path))
            })
            .count() as u32;
        let dup_ratio = if chunk_count == 0 {
            0.0
        } else {
            f64::from(dup_chunk_count) / f64::from(chunk_count)
        };
        let mtime_s = self.facts.mtimes.get(path).copied().unwrap_or(0) / 1000;
        let age_days = ((self.now - mtime_s) / DAY_SECONDS).max(0);
        let retrieved = self.facts.retrieved.get(path).copied().unwrap_or_default();
        let in_degree = self.distinct(self.links.incoming(path).map(|l| l.source.as_str()), path);
        let out_degree = self.distinct(
            self.links
                .outgoing(path)
                .filter_map(|l| l.resolved.as_deref())
                .filter(|target| self.facts.mtimes.contains_key(*target)),
            path,
        );
        let contradictions_open = self
            .facts
            .contradictions
            .iter()
            .filter(|(a, b)| (a == path && (self.readable)(b)) || (b == path && (self.readable)(a)))
            .count() as u32;
        let stale_access = self.any_retrieval
            && retrieved
                .last
                .is_none_or(|last| self.now - last > STALE_ACCESS_DAYS * DAY_SECONDS);
        let raised = [
            dup_ratio >= 0.5,
            in_degree == 0,
            age_days > STALE_EDIT_DAYS,
            stale_access,
            contradictions_open > 0,
        ];
        let mut score = 1.0 - WEIGHTS[0] * dup_ratio;
        for (raised, weight) in raised.iter().zip(WEIGHTS).skip(1) {
            if *raised {
                score -= weight;
            }
        }
        NoteQualityRow {
            path: path.to_owned(),
            chunk_count,
            dup_chunk_count,
            dup_ratio: round3(dup_ratio),
            age_days,
            last_retrieved_at: retrieved.last,
            retrievals: retrieved.count,
            in_degree,
            out_degree,
            contradictions_open,
            flags: FLAGS
                .iter()
                .zip(raised)
                .filter(|(_, raised)| *raised)
                .map(|(flag, _)| (*flag).to_owned())
                .collect(),
            quality_score: round3(score.max(0.0)),
            computed_at: self.now,
        }
    }

    /// How many distinct readable notes other than `path` are in `notes`.
    fn distinct<'p>(&self, notes: impl Iterator<Item = &'p str>, path: &str) -> u32 {
        notes
            .filter(|other| *other != path && (self.readable)(other))
            .collect::<HashSet<_>>()
            .len() as u32
    }
}

fn round3(value: f64) -> f64 {
    (value * 1000.0).round() / 1000.0
}

/// What one pass did.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct PassReport {
    /// Indexed notes in the vault.
    pub notes: u64,
    /// Notes measured by this pass.
    pub measured: u64,
    /// Every note was measured (else the next pass starts with the least recent).
    pub complete: bool,
    /// How many measured notes carry each flag.
    pub flagged: BTreeMap<String, u64>,
}

/// Runs the pass over `vault`: the notes never measured first, then the least recently
/// measured, until `deadline`; writes their rows (and, when every note was measured, drops
/// the rows of notes gone) in one transaction. `progress(done, total)` after each note.
pub fn run_pass(
    store: &Store,
    vault: &str,
    links: &LinkTable,
    now: i64,
    deadline: Instant,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<PassReport, StoreError> {
    let repo = store.note_quality();
    let facts = repo.facts(vault)?;
    let everything = |_: &str| true;
    let measures = Measures::new(&facts, links, &everything, now);
    let mut notes = measures.notes();
    notes.sort_by_key(|path| facts.computed_at.get(*path).copied().unwrap_or(i64::MIN));
    let total = notes.len() as u64;
    let mut rows = Vec::with_capacity(notes.len());
    for path in notes {
        if Instant::now() >= deadline {
            break;
        }
        rows.push(measures.of(path));
        progress(rows.len() as u64, total);
    }
    let complete = rows.len() as u64 == total;
    repo.save(vault, &rows, complete.then_some(&facts.mtimes))?;
    let mut flagged = BTreeMap::new();
    for flag in rows.iter().flat_map(|row| &row.flags) {
        *flagged.entry(flag.clone()).or_insert(0) += 1;
    }
    Ok(PassReport {
        notes: total,
        measured: rows.len() as u64,
        complete,
        flagged,
    })
}

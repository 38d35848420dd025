//! The contradiction detector: each chunk of a vault not looked at yet is compared with its
//! semantic neighbours (the [`NEIGHBOURS`] nearest, cosine in [[`MIN_COSINE`],
//! [`MAX_COSINE`]): close enough to speak of the same thing, not the same text), and each
//! pair is put to a [`ContradictionJudge`], a language model answering one line of JSON. A
//! `contradiction` or a `tension` is stored (`crate::store::Contradictions`); `no_conflict`,
//! an answer that does not parse and a failed call store nothing.
//!
//! The detector walks a vault's chunks by row id and remembers the last one it finished:
//! row ids only grow, so the chunks of a note edited since are new to it and are judged on
//! the next run. Before walking, [`retire_stale`] marks stale every open pair a side of which
//! no longer holds the text it was judged on. A run is bounded by a [`Budget`] (pairs judged
//! and a deadline) and stops at the first chunk without a vector, to go on from there next
//! time.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::semantic::{SemanticError, SemanticIndex};
use crate::store::{
    ContradictionRow, PairSide, Store, StoreError, StoredChunk, chunk_key, content_sha256, pair_id,
};

/// How many neighbours of a chunk are judged against it.
pub const NEIGHBOURS: usize = 5;
/// The lowest cosine of a pair worth judging.
pub const MIN_COSINE: f32 = 0.85;
/// The cosine from which two chunks are taken for the same text (not judged).
pub const MAX_COSINE: f32 = 0.99;
/// The most characters of a chunk put in a prompt.
const PASSAGE_CHARS: usize = 1800;
/// The most characters of a rationale kept.
const RATIONALE_CHARS: usize = 500;
/// How many chunks are read from the store at a time.
const BATCH: usize = 64;

/// The instructions the judge gets with every pair.
pub const JUDGE_INSTRUCTIONS: &str = "You compare two passages from the same person's notes. \
Answer with exactly one line of JSON and nothing else: {\"verdict\": \"contradiction\" | \
\"tension\" | \"no_conflict\", \"rationale\": \"one short sentence\"}. contradiction: both \
cannot be true at once. tension: they pull in different directions without excluding each \
other. no_conflict: anything else, including passages about different things.";

/// What the judge is asked about one pair: [`JUDGE_INSTRUCTIONS`] as the system message and
/// the two passages as the user's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JudgePrompt {
    /// The system message.
    pub system: &'static str,
    /// The user message: both passages with their notes' paths.
    pub user: String,
    /// The two notes the passages come from (what the egress guard checks).
    pub paths: [String; 2],
}

/// A language model that judges pairs of passages: the model layer implements it (a chat
/// endpoint, MCP sampling) and the detector calls it once per pair.
pub trait ContradictionJudge: Send + Sync {
    /// The model's name, stored with each verdict.
    fn model(&self) -> String;
    /// The model's raw answer to `prompt`, or why there is none (the pair then counts as
    /// `no_conflict` and nothing is stored).
    fn answer(&self, prompt: &JudgePrompt) -> Result<String, String>;
}

/// A judge's verdict on a pair.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Both cannot be true.
    Contradiction,
    /// They pull in different directions.
    Tension,
    /// Anything else (and every answer that does not parse).
    NoConflict,
}

/// A parsed answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judgement {
    /// The verdict.
    pub verdict: Verdict,
    /// The one-line reason (empty for `no_conflict`).
    pub rationale: String,
}

impl Judgement {
    fn no_conflict() -> Judgement {
        Judgement {
            verdict: Verdict::NoConflict,
            rationale: String::new(),
        }
    }
}

#[derive(Deserialize)]
struct Answer {
    verdict: String,
    rationale: String,
}

/// Reads a judge's answer: the JSON object in it (text around it is ignored) with a known
/// `verdict` and a string `rationale`; anything else is `no_conflict`.
pub fn parse_judgement(answer: &str) -> Judgement {
    let (Some(start), Some(end)) = (answer.find('{'), answer.rfind('}')) else {
        return Judgement::no_conflict();
    };
    let Some(Ok(parsed)) = answer.get(start..=end).map(serde_json::from_str::<Answer>) else {
        return Judgement::no_conflict();
    };
    let verdict = match parsed.verdict.trim().to_ascii_lowercase().as_str() {
        "contradiction" => Verdict::Contradiction,
        "tension" => Verdict::Tension,
        _ => return Judgement::no_conflict(),
    };
    Judgement {
        verdict,
        rationale: clip(parsed.rationale.trim(), RATIONALE_CHARS),
    }
}

/// The prompt for the pair `a`, `b`.
pub fn judge_prompt(a: &StoredChunk, b: &StoredChunk) -> JudgePrompt {
    JudgePrompt {
        system: JUDGE_INSTRUCTIONS,
        paths: [a.path.clone(), b.path.clone()],
        user: format!(
            "Passage A (from {}):\n{}\n\nPassage B (from {}):\n{}",
            a.path,
            clip(&a.text, PASSAGE_CHARS),
            b.path,
            clip(&b.text, PASSAGE_CHARS)
        ),
    }
}

fn clip(text: &str, chars: usize) -> String {
    text.chars().take(chars).collect()
}

/// The bounds of one run.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    /// The most pairs put to the judge (at least [`NEIGHBOURS`]: a chunk is judged whole).
    pub max_pairs: usize,
    /// When to stop (after the chunk being judged).
    pub deadline: Instant,
}

/// What one run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct DetectReport {
    /// Chunks whose neighbours were judged.
    pub chunks_done: u64,
    /// Chunks still to look at.
    pub chunks_left: u64,
    /// Pairs put to the judge.
    pub pairs_judged: u64,
    /// Calls that failed (counted as `no_conflict`).
    pub judge_failures: u64,
    /// Pairs stored as `contradiction`.
    pub contradictions: u64,
    /// Pairs stored as `tension`.
    pub tensions: u64,
    /// Open pairs marked stale because a side changed.
    pub stale: u64,
    /// Stopped at a chunk without a vector (its embedding is still to come; a chunk withheld
    /// for a credential is passed over instead).
    pub waiting_for_vectors: bool,
}

/// Whether both sides of `row` still hold the text they were judged on, given the content
/// hashes each note holds now (`crate::store::Contradictions::current_hashes`).
pub fn still_holds(row: &ContradictionRow, current: &HashMap<String, HashSet<String>>) -> bool {
    let holds = |side: &PairSide| {
        current
            .get(&side.path)
            .is_some_and(|hashes| hashes.contains(&side.sha256))
    };
    holds(&row.source) && holds(&row.conflict)
}

/// Marks stale every open pair of `vault` a side of which no longer holds the text it was
/// judged on (the note was edited, moved or deleted); returns how many.
pub fn retire_stale(store: &Store, vault: &str) -> Result<usize, StoreError> {
    let repo = store.contradictions();
    let open = repo.open(vault, None)?;
    let current = repo.current_hashes(
        vault,
        open.iter()
            .flat_map(|row| [row.source.path.as_str(), row.conflict.path.as_str()]),
    )?;
    let stale: Vec<String> = open
        .iter()
        .filter(|row| !still_holds(row, &current))
        .map(|row| row.id.clone())
        .collect();
    repo.mark_stale(&stale)
}

/// One run over `vault`: stale pairs retired, then the chunks after the detector's place
/// judged against their neighbours by `judge` until `budget` or the chunks run out;
/// `progress(done, total)` after each chunk. `now` (Unix seconds) stamps what is stored.
pub fn detect(
    store: &Store,
    semantic: &SemanticIndex,
    vault: &str,
    judge: &dyn ContradictionJudge,
    budget: Budget,
    now: i64,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<DetectReport, SemanticError> {
    let repo = store.contradictions();
    let mut report = DetectReport {
        stale: retire_stale(store, vault)? as u64,
        ..DetectReport::default()
    };
    let mut cursor = repo.cursor(vault)?;
    let total = repo.count_after(vault, cursor)?;
    let model = judge.model();
    let mut seen = HashSet::new();
    'walk: loop {
        let batch = repo.chunks_after(vault, cursor, BATCH)?;
        if batch.is_empty() {
            break;
        }
        for chunk in batch {
            if Instant::now() >= budget.deadline {
                break 'walk;
            }
            let neighbours = match semantic.neighbours(vault, chunk.chunk_id, NEIGHBOURS)? {
                Some(neighbours) => neighbours,
                // Withheld for a credential: never embedded, never judged; passed over.
                None if semantic.withheld(store, chunk.chunk_id)? => Vec::new(),
                None => {
                    report.waiting_for_vectors = true;
                    break 'walk;
                }
            };
            let close: Vec<(i64, f32)> = neighbours
                .into_iter()
                .filter(|(_, cosine)| (MIN_COSINE..MAX_COSINE).contains(cosine))
                .collect();
            if report.pairs_judged + close.len() as u64 > budget.max_pairs as u64 {
                break 'walk;
            }
            for (other, cosine) in close {
                let Some(other) = repo.chunk(vault, other)? else {
                    continue;
                };
                let pair = Pair::of(vault, &chunk, &other, f64::from(cosine));
                if !seen.insert(pair.id.clone())
                    || repo.status(&pair.id)?.as_deref() == Some("open")
                {
                    continue;
                }
                report.pairs_judged += 1;
                let judgement = match judge.answer(&judge_prompt(&chunk, &other)) {
                    Ok(answer) => parse_judgement(&answer),
                    Err(_) => {
                        report.judge_failures += 1;
                        Judgement::no_conflict()
                    }
                };
                let verdict = match judgement.verdict {
                    Verdict::NoConflict => continue,
                    Verdict::Contradiction => {
                        report.contradictions += 1;
                        "contradiction"
                    }
                    Verdict::Tension => {
                        report.tensions += 1;
                        "tension"
                    }
                };
                repo.upsert(&pair.row(verdict, judgement.rationale, &model, now))?;
            }
            cursor = chunk.chunk_id;
            repo.set_cursor(vault, cursor, now)?;
            report.chunks_done += 1;
            progress(report.chunks_done, total);
        }
    }
    report.chunks_left = total - report.chunks_done;
    Ok(report)
}

/// A candidate pair with its id.
struct Pair {
    id: String,
    vault: String,
    source: PairSide,
    conflict: PairSide,
    cosine: f64,
}

impl Pair {
    fn of(vault: &str, source: &StoredChunk, conflict: &StoredChunk, cosine: f64) -> Pair {
        let side = |chunk: &StoredChunk| PairSide {
            chunk_key: chunk_key(&chunk.path, chunk.ordinal, &chunk.text),
            chunk_row: chunk.chunk_id,
            path: chunk.path.clone(),
            sha256: content_sha256(&chunk.text),
        };
        let (source, conflict) = (side(source), side(conflict));
        Pair {
            id: pair_id(vault, &source.sha256, &conflict.sha256),
            vault: vault.to_owned(),
            source,
            conflict,
            cosine,
        }
    }

    fn row(self, verdict: &str, rationale: String, model: &str, now: i64) -> ContradictionRow {
        ContradictionRow {
            id: self.id,
            vault_id: self.vault,
            source: self.source,
            conflict: self.conflict,
            cosine: self.cosine,
            verdict: verdict.to_owned(),
            rationale,
            judge_model: model.to_owned(),
            status: "open".to_owned(),
            detected_at: now,
        }
    }
}

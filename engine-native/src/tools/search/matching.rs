//! Finding a pattern in note text, line by line, within a compute budget: the engine of
//! `search_text`, `search_regex` and `search_vault`'s `text` and `regex` modes.
//!
//! Literal text is searched as an escaped regular expression, so both tools share one
//! linear-time engine (the `regex` crate: no backtracking, no catastrophic pattern) with
//! correct Unicode case folding and byte offsets into the original text. The compiled
//! program has a size limit, and a scan stops with `compute_budget_exceeded` once it has
//! read more than its byte budget or run past its time budget.

use std::ops::Range;
use std::sync::Arc;
use std::time::{Duration, Instant};

use regex::{Regex, RegexBuilder};

use super::corpus::NoteText;
use crate::errors::{ErrorCode, ToolError};
use crate::index::snippet::{SNIPPET_CHARS, Snippet};

/// The largest compiled program a pattern may have, bytes.
const PROGRAM_LIMIT: usize = 1 << 20;

/// The largest lazy-DFA cache a pattern may use, bytes.
const DFA_LIMIT: usize = 8 << 20;

/// The deepest nesting of groups and repetitions a pattern may have.
const NEST_LIMIT: u32 = 64;

/// The most bytes one scan reads unless the caller asks for fewer.
pub(super) const MAX_SCAN_BYTES: u64 = 256 << 20;

/// The longest one scan may run.
pub(super) const TIME_BUDGET: Duration = Duration::from_secs(2);

/// A compiled search pattern.
#[derive(Debug, Clone)]
pub(super) struct Pattern {
    regex: Regex,
}

impl Pattern {
    /// Literal `text`, case-insensitive unless `case_sensitive`; with `whole_word`, only where
    /// it is not part of a longer word.
    pub fn literal(
        text: &str,
        case_sensitive: bool,
        whole_word: bool,
    ) -> Result<Pattern, ToolError> {
        if text.is_empty() {
            return Err(
                ToolError::new(ErrorCode::InvalidInput, "the text to find is empty")
                    .with_recovery("give at least one character to find"),
            );
        }
        let mut pattern = regex::escape(text);
        if whole_word {
            let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
            if word(text.chars().next()) {
                pattern.insert_str(0, r"\b");
            }
            if word(text.chars().next_back()) {
                pattern.push_str(r"\b");
            }
        }
        Pattern::compile(&pattern, case_sensitive)
    }

    /// The regular expression `pattern` (Rust `regex` syntax; `^` and `$` match at line
    /// ends), case-insensitive unless `case_sensitive`.
    pub fn regex(pattern: &str, case_sensitive: bool) -> Result<Pattern, ToolError> {
        Pattern::compile(pattern, case_sensitive)
    }

    fn compile(pattern: &str, case_sensitive: bool) -> Result<Pattern, ToolError> {
        let regex = RegexBuilder::new(pattern)
            .case_insensitive(!case_sensitive)
            .multi_line(true)
            .size_limit(PROGRAM_LIMIT)
            .dfa_size_limit(DFA_LIMIT)
            .nest_limit(NEST_LIMIT)
            .build()
            .map_err(|error| match error {
                regex::Error::CompiledTooBig(limit) => ToolError::new(
                    ErrorCode::ComputeBudgetExceeded,
                    format!("the pattern compiles to more than {limit} bytes"),
                )
                .with_recovery(
                    "use a simpler pattern: fewer or smaller bounded repetitions ({n,m}) and \
                     alternations",
                ),
                other => ToolError::new(
                    ErrorCode::InvalidInput,
                    format!("the pattern is not a valid regular expression: {other}"),
                )
                .with_recovery(
                    "fix the pattern (Rust regex syntax: no look-around or backreferences; \
                     escape special characters with \\), or use search_text for literal text",
                ),
            })?;
        if regex.is_match("") {
            return Err(ToolError::new(
                ErrorCode::InvalidInput,
                "the pattern matches the empty string, so it would match every line",
            )
            .with_recovery("give a pattern that needs at least one character to match"));
        }
        Ok(Pattern { regex })
    }
}

/// How much one scan may do.
#[derive(Debug, Clone, Copy)]
pub(super) struct Budget {
    /// The most bytes of note text to read.
    pub max_bytes: u64,
    /// The longest to run.
    pub time: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_bytes: MAX_SCAN_BYTES,
            time: TIME_BUDGET,
        }
    }
}

/// The matches of one line.
#[derive(Debug, Clone)]
pub(super) struct LineMatch {
    /// The 1-based line number.
    pub line: usize,
    /// The line's byte range in the note.
    pub span: Range<usize>,
    /// The matches' byte ranges in the note (clipped to the line).
    pub matches: Vec<Range<usize>>,
}

/// The matches in one note.
#[derive(Debug, Clone)]
pub(super) struct NoteMatches {
    /// The note.
    pub note: Arc<NoteText>,
    /// How many matches it has.
    pub count: usize,
    /// Its matching lines in order (only as many as the scan was asked to keep).
    pub lines: Vec<LineMatch>,
}

/// What a scan found.
#[derive(Debug, Default)]
pub(super) struct Scan {
    /// The matching notes, in corpus (path) order.
    pub notes: Vec<NoteMatches>,
    /// Matching lines over all notes.
    pub lines: usize,
    /// Matches over all notes.
    pub matches: usize,
    /// Notes searched (after the filter).
    pub searched: usize,
}

/// Finds `pattern` in the `notes` that `allowed` admits (nothing else is read or counted),
/// keeping the line details of the first `keep_lines` matching lines overall (every note is
/// counted). Fails with `compute_budget_exceeded` past the `budget`.
pub(super) fn scan(
    notes: &[Arc<NoteText>],
    allowed: &dyn Fn(&str) -> bool,
    pattern: &Pattern,
    budget: Budget,
    keep_lines: usize,
) -> Result<Scan, ToolError> {
    let started = Instant::now();
    let mut out = Scan::default();
    let mut read: u64 = 0;
    for note in notes.iter().filter(|n| allowed(&n.path)) {
        out.searched += 1;
        read = read.saturating_add(note.text.len() as u64);
        if read > budget.max_bytes {
            return Err(over_budget(format!(
                "the search would read more than {} bytes of notes",
                budget.max_bytes
            )));
        }
        let keep = keep_lines.saturating_sub(out.lines);
        let (count, lines, line_count) = find_in(&note.text, pattern, keep);
        if started.elapsed() > budget.time {
            return Err(over_budget(format!(
                "the search ran longer than {} ms",
                budget.time.as_millis()
            )));
        }
        if count == 0 {
            continue;
        }
        out.matches += count;
        out.lines += line_count;
        out.notes.push(NoteMatches {
            note: Arc::clone(note),
            count,
            lines,
        });
    }
    Ok(out)
}

/// The matches of `pattern` in `text`: their count, the first `keep` matching lines, and
/// how many lines match.
fn find_in(text: &str, pattern: &Pattern, keep: usize) -> (usize, Vec<LineMatch>, usize) {
    let mut count = 0;
    let mut lines: Vec<LineMatch> = Vec::new();
    let mut line_count = 0;
    // The line the previous match started on: its number and where it ends.
    let mut current: Option<(usize, usize)> = None;
    let mut counted_to = 0;
    let mut line_no = 1;
    for found in pattern.regex.find_iter(text).filter(|m| !m.is_empty()) {
        count += 1;
        let start = found.start();
        if let Some((no, end)) = current.filter(|(_, end)| start <= *end) {
            if let Some(last) = lines.last_mut().filter(|l| l.line == no) {
                last.matches.push(start..found.end().min(end));
            }
            continue;
        }
        line_no += text.as_bytes()[counted_to..start]
            .iter()
            .filter(|b| **b == b'\n')
            .count();
        counted_to = start;
        let line_start = text[..start].rfind('\n').map_or(0, |at| at + 1);
        let line_end = text[start..].find('\n').map_or(text.len(), |at| start + at);
        line_count += 1;
        if lines.len() < keep {
            lines.push(LineMatch {
                line: line_no,
                span: line_start..line_end,
                matches: std::iter::once(start..found.end().min(line_end)).collect(),
            });
        }
        current = Some((line_no, line_end));
    }
    (count, lines, line_count)
}

/// `compute_budget_exceeded` with what to do about it.
fn over_budget(message: String) -> ToolError {
    ToolError::new(ErrorCode::ComputeBudgetExceeded, message).with_recovery(
        "narrow the search with folder, or use a simpler or more specific pattern, then call again",
    )
}

/// The line's text around its first match (at most `SNIPPET_CHARS` characters), with the
/// matches highlighted.
pub(super) fn line_snippet(text: &str, line: &LineMatch) -> Snippet {
    let first = line.matches.first().map_or(line.span.start, |m| m.start);
    let back = SNIPPET_CHARS / 4;
    let start = text[line.span.start..first]
        .char_indices()
        .rev()
        .take(back)
        .last()
        .map_or(first, |(at, _)| line.span.start + at);
    let end = text[start..line.span.end]
        .char_indices()
        .nth(SNIPPET_CHARS)
        .map_or(line.span.end, |(at, _)| start + at);
    let highlights = line
        .matches
        .iter()
        .filter(|m| m.start < end && m.end > start)
        .map(|m| [m.start.max(start) - start, m.end.min(end) - start])
        .filter(|[a, b]| a < b)
        .collect();
    Snippet {
        text: text[start..end].to_owned(),
        highlights,
    }
}

/// The first `keep` matching lines of `text`.
pub(super) fn lines_in(text: &str, pattern: &Pattern, keep: usize) -> Vec<LineMatch> {
    find_in(text, pattern, keep).1
}

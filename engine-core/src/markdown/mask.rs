//! Masking of the inline spans nothing is extracted from: code spans (backtick runs of any
//! length, matched within one line), comments `%%...%%` and `<!--...-->`, display math
//! `$$...$$` and inline math `$...$` (an opening `$` followed by a non-space, a closing `$`
//! preceded by a non-space and not followed by a digit, within one line).
//!
//! The multi-line ones (`%%`, `<!--`, `$$`) may stay open at the end of a line; the block
//! parser then masks the following lines until the closer. An unclosed `%%` runs to the end
//! of the note (as in Obsidian's editor); an unclosed `<!--` or `$$` is plain text.
//! Whichever construct starts first wins (a wikilink is read whole, so `` [[a|`b`]] `` is a
//! link); a backslash escapes the ASCII punctuation after it.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use super::lines::find;
use super::links::wikilink;

/// A construct that can span lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Multiline {
    /// `%% ... %%`.
    Comment,
    /// `<!-- ... -->`.
    HtmlComment,
    /// `$$ ... $$`.
    Math,
}

impl Multiline {
    fn opener(self) -> &'static [u8] {
        match self {
            Self::Comment => b"%%",
            Self::HtmlComment => b"<!--",
            Self::Math => b"$$",
        }
    }

    fn closer(self) -> &'static [u8] {
        match self {
            Self::Comment => b"%%",
            Self::HtmlComment => b"-->",
            Self::Math => b"$$",
        }
    }

    /// The end of the closer in `bytes[from..to]`, if it is there.
    pub(crate) fn close_in(self, bytes: &[u8], from: usize, to: usize) -> Option<usize> {
        let closer = self.closer();
        find(&bytes[..to], from, closer).map(|at| at + closer.len())
    }
}

/// Remembers, for each kind of multi-line construct, where its next closer is, so a note
/// with many openers costs one forward scan per closer kind in total.
#[derive(Debug, Default)]
pub(crate) struct Masker {
    next_closers: [NextCloser; 3],
}

/// The result of the last search for a closer: where it started and what it found.
#[derive(Debug, Default, Clone, Copy)]
struct NextCloser {
    searched: Option<(usize, Option<usize>)>,
}

impl NextCloser {
    /// The start of the first closer of `kind` at or after `from`. Reuses the last search
    /// when it started no later and found nothing before `from`.
    fn at_or_after(&mut self, kind: Multiline, bytes: &[u8], from: usize) -> Option<usize> {
        match self.searched {
            Some((start, found)) if start <= from && found.is_none_or(|f| f >= from) => found,
            _ => {
                let found = find(bytes, from, kind.closer());
                self.searched = Some((from, found));
                found
            }
        }
    }
}

impl Masker {
    /// Appends the masked spans of `bytes[from..to]` to `out`, in order. Returns the
    /// construct left open at `to` (its span then reaches `to`).
    pub(crate) fn mask_segment(
        &mut self,
        bytes: &[u8],
        from: usize,
        to: usize,
        out: &mut Vec<(usize, usize)>,
    ) -> Option<Multiline> {
        let mut ticks = BacktickRuns::collect(bytes, from, to);
        let mut dollars = MathClosers::collect(bytes, from, to);
        let mut at = from;
        while at < to {
            let rest = &bytes[at..to];
            match rest[0] {
                b'\\' => {
                    at += if rest.get(1).is_some_and(u8::is_ascii_punctuation) {
                        2
                    } else {
                        1
                    }
                }
                b'[' if rest.starts_with(b"[[") => {
                    at = wikilink(bytes, at, to).map_or(at + 1, |(_, end)| end)
                }
                b'`' => {
                    let len = rest.iter().take_while(|&&b| b == b'`').count();
                    match ticks.closer(len, at + len) {
                        Some(close) => {
                            out.push((at, close + len));
                            at = close + len;
                        }
                        None => at += len,
                    }
                }
                b'%' if rest.starts_with(Multiline::Comment.opener()) => {
                    match self.open_or_close(Multiline::Comment, bytes, at, to, out) {
                        Step::Closed(end) => at = end,
                        Step::Open => return Some(Multiline::Comment),
                        Step::Literal => at += Multiline::Comment.opener().len(),
                    }
                }
                b'<' if rest.starts_with(Multiline::HtmlComment.opener()) => {
                    match self.open_or_close(Multiline::HtmlComment, bytes, at, to, out) {
                        Step::Closed(end) => at = end,
                        Step::Open => return Some(Multiline::HtmlComment),
                        Step::Literal => at += Multiline::HtmlComment.opener().len(),
                    }
                }
                b'$' if rest.starts_with(Multiline::Math.opener()) => {
                    match self.open_or_close(Multiline::Math, bytes, at, to, out) {
                        Step::Closed(end) => at = end,
                        Step::Open => return Some(Multiline::Math),
                        Step::Literal => at += Multiline::Math.opener().len(),
                    }
                }
                b'$' if rest.get(1).is_some_and(|&b| !b.is_ascii_whitespace()) => {
                    match dollars.after(at + 1) {
                        Some(close) => {
                            out.push((at, close + 1));
                            at = close + 1;
                        }
                        None => at += 1,
                    }
                }
                _ => at += 1,
            }
        }
        None
    }

    /// Handles an opener of `kind` at `at`: closed on this line, left open (a closer
    /// exists later in the note, or it is a `%%` comment), or plain text.
    fn open_or_close(
        &mut self,
        kind: Multiline,
        bytes: &[u8],
        at: usize,
        to: usize,
        out: &mut Vec<(usize, usize)>,
    ) -> Step {
        let slot = match kind {
            Multiline::Comment => 0,
            Multiline::HtmlComment => 1,
            Multiline::Math => 2,
        };
        let closer = self.next_closers[slot].at_or_after(kind, bytes, at + kind.opener().len());
        match closer {
            Some(close) if close + kind.closer().len() <= to => {
                let end = close + kind.closer().len();
                out.push((at, end));
                Step::Closed(end)
            }
            None if kind != Multiline::Comment => Step::Literal,
            _ => {
                out.push((at, to));
                Step::Open
            }
        }
    }
}

enum Step {
    Closed(usize),
    Open,
    Literal,
}

/// The maximal backtick runs of a line, by length, each list read front to back once.
struct BacktickRuns {
    by_len: BTreeMap<usize, (Vec<usize>, usize)>,
}

impl BacktickRuns {
    fn collect(bytes: &[u8], from: usize, to: usize) -> Self {
        let mut by_len: BTreeMap<usize, (Vec<usize>, usize)> = BTreeMap::new();
        let mut at = from;
        while at < to {
            if bytes[at] == b'`' {
                let len = bytes[at..to].iter().take_while(|&&b| b == b'`').count();
                by_len.entry(len).or_default().0.push(at);
                at += len;
            } else {
                at += 1;
            }
        }
        Self { by_len }
    }

    /// The first run of exactly `len` backticks starting at or after `after`. Calls must
    /// come with non-decreasing `after` for each length.
    fn closer(&mut self, len: usize, after: usize) -> Option<usize> {
        let (starts, cursor) = self.by_len.get_mut(&len)?;
        while starts.get(*cursor).is_some_and(|&s| s < after) {
            *cursor += 1;
        }
        starts.get(*cursor).copied()
    }
}

/// The `$` of a line that can close inline math: not escaped, not after whitespace, not
/// before a digit, not part of `$$`.
struct MathClosers {
    positions: Vec<usize>,
    cursor: usize,
}

impl MathClosers {
    fn collect(bytes: &[u8], from: usize, to: usize) -> Self {
        let positions = (from + 1..to)
            .filter(|&i| {
                bytes[i] == b'$'
                    && !bytes[i - 1].is_ascii_whitespace()
                    && bytes[i - 1] != b'\\'
                    && bytes[i - 1] != b'$'
                    && (i + 1 >= to || bytes[i + 1] != b'$' && !bytes[i + 1].is_ascii_digit())
            })
            .collect();
        Self {
            positions,
            cursor: 0,
        }
    }

    /// The first closer strictly after `after`; calls come with non-decreasing `after`.
    fn after(&mut self, after: usize) -> Option<usize> {
        while self.positions.get(self.cursor).is_some_and(|&p| p <= after) {
            self.cursor += 1;
        }
        self.positions.get(self.cursor).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn masks(text: &str) -> (Vec<&str>, Option<Multiline>) {
        let mut out = Vec::new();
        let open = Masker::default().mask_segment(text.as_bytes(), 0, text.len(), &mut out);
        (out.iter().map(|&(s, e)| &text[s..e]).collect(), open)
    }

    #[test]
    fn code_spans_match_runs_of_equal_length() {
        assert_eq!(masks("a `b` c").0, ["`b`"]);
        assert_eq!(masks("``a ` b`` c").0, ["``a ` b``"]);
        assert_eq!(masks("`a`` b").0, Vec::<&str>::new());
        assert_eq!(masks("\\`a` `b`").0, ["` `"]);
        assert_eq!(masks("[[a|`b`]] `[[c]]`").0, ["`[[c]]`"]);
    }

    #[test]
    fn comments_close_on_the_line_or_stay_open() {
        assert_eq!(
            masks("a %%b%% c %%d"),
            (vec!["%%b%%", "%%d"], Some(Multiline::Comment))
        );
        assert_eq!(masks("`%%` x").0, ["`%%`"]);
        assert_eq!(masks("a <!-- b --> c").0, ["<!-- b -->"]);
        assert_eq!(masks("a <!-- b"), (vec![], None));
    }

    #[test]
    fn math_rules() {
        assert_eq!(masks("$x$ and $$y$$").0, ["$x$", "$$y$$"]);
        assert_eq!(masks("costs $5 and $6").0, Vec::<&str>::new());
        assert_eq!(masks("$5-$10").0, Vec::<&str>::new());
        assert_eq!(masks("$ a$").0, Vec::<&str>::new());
        assert_eq!(masks("\\$a$").0, Vec::<&str>::new());
    }

    #[test]
    fn display_math_opens_only_when_a_closer_follows_somewhere() {
        let text = "a $$ b\nc $$";
        let mut out = Vec::new();
        let open = Masker::default().mask_segment(text.as_bytes(), 0, 6, &mut out);
        assert_eq!((out, open), (vec![(2, 6)], Some(Multiline::Math)));
        assert_eq!(
            Multiline::Math.close_in(text.as_bytes(), 7, text.len()),
            Some(text.len())
        );
    }
}

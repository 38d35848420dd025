//! Rewriting every link of one note for a set of moves (a rename, a move, a bulk move, or
//! the note itself moving), given where its links are.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::error::{PathError, RewriteError};
use super::parse::{parse_destination, parse_link};
use super::path::validate_vault_path;
use super::resolver::LinkResolver;
use super::rewrite::{LinkMove, points_at, respell};
use crate::markdown::LinkSyntax;
use crate::markdown::{self, NoteMetadata};

/// Where one link sits in a note: a byte range and the syntax found there.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkSpan {
    /// Byte offset of the first byte of the link (`[` or `!`, or of a lone destination).
    pub start: usize,
    /// Byte offset one past the last byte of the link.
    pub end: usize,
    /// The syntax of the link.
    pub syntax: LinkSyntax,
}

/// One replaced link.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LinkEdit {
    /// Byte offset of the link in the original text.
    pub start: usize,
    /// Byte offset one past the link in the original text.
    pub end: usize,
    /// The link as it was.
    pub old: String,
    /// The link as it is now.
    pub new: String,
}

/// A link that pointed at a moved file but could not be rewritten; it is left as it was.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedLink {
    /// Byte offset of the link.
    pub start: usize,
    /// Byte offset one past the link.
    pub end: usize,
    /// Why it was left alone.
    pub reason: RewriteError,
}

/// The outcome of rewriting a note's links.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoteRewrite {
    /// The note's text with its links rewritten.
    pub text: String,
    /// The links that changed, in text order.
    pub edits: Vec<LinkEdit>,
    /// The links that needed a change but could not get one, or did not parse.
    pub skipped: Vec<SkippedLink>,
}

/// A set of file moves: old vault path → new vault path.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Moves {
    /// Old path → new path.
    map: BTreeMap<String, String>,
}

impl Moves {
    /// Collects `(from, to)` pairs; a later pair for the same `from` wins.
    pub fn new<I, S>(pairs: I) -> Result<Self, PathError>
    where
        I: IntoIterator<Item = (S, S)>,
        S: AsRef<str>,
    {
        let mut map = BTreeMap::new();
        for (from, to) in pairs {
            let (from, to) = (from.as_ref(), to.as_ref());
            validate_vault_path(from)?;
            validate_vault_path(to)?;
            map.insert(String::from(from), String::from(to));
        }
        Ok(Moves { map })
    }

    /// Where the file at `path` ends up (`path` itself if it does not move).
    pub fn destination<'a>(&'a self, path: &'a str) -> &'a str {
        self.map.get(path).map_or(path, String::as_str)
    }

    /// The vault's paths after the moves, given its paths before them.
    pub fn apply<I, S>(&self, paths: I) -> Vec<String>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        paths
            .into_iter()
            .map(|p| String::from(self.destination(p.as_ref())))
            .collect()
    }
}

/// The vault before and after a set of moves.
#[derive(Debug, Clone, Copy)]
pub struct VaultChange<'a> {
    /// The vault before the moves.
    pub before: &'a LinkResolver,
    /// The vault after the moves.
    pub after: &'a LinkResolver,
    /// The moves.
    pub moves: &'a Moves,
}

/// Rewrites the links at `spans` of the note `text`, which lived at `note` before the moves
/// of `change` (and lives at `change.moves.destination(note)` after them).
///
/// Each link is resolved as it was before the moves; a link is rewritten when, read in the
/// moved vault from the note's new place, it would no longer point alone at where its target
/// went. Unresolved links, external URLs and same-note links stay as they are. Links that do
/// not parse or cannot be rewritten are reported in [`NoteRewrite::skipped`]. Spans must be
/// sorted, non-overlapping and on character boundaries of `text`.
pub fn rewrite_links(
    text: &str,
    spans: &[LinkSpan],
    note: &str,
    change: &VaultChange<'_>,
) -> Result<NoteRewrite, RewriteError> {
    validate_vault_path(note)?;
    let note_after = change.moves.destination(note);
    let mut out = NoteRewrite {
        text: String::with_capacity(text.len()),
        edits: Vec::new(),
        skipped: Vec::new(),
    };
    let mut copied = 0;
    let mut previous_end = 0;
    for span in spans {
        let link = span_text(text, span, previous_end)?;
        previous_end = span.end;
        match rewrite_one(link, span.syntax, note, note_after, change) {
            Ok(Some(new)) => {
                out.text.push_str(&text[copied..span.start]);
                out.text.push_str(&new);
                copied = span.end;
                out.edits.push(LinkEdit {
                    start: span.start,
                    end: span.end,
                    old: String::from(link),
                    new,
                });
            }
            Ok(None) => {}
            Err(reason) => out.skipped.push(SkippedLink {
                start: span.start,
                end: span.end,
                reason,
            }),
        }
    }
    out.text.push_str(&text[copied..]);
    Ok(out)
}

/// [`rewrite_links`] over every link and embed that [`markdown::extract`] finds in `text`
/// (wikilinks and markdown links outside code, comments and math).
pub fn rewrite_links_in_note(
    text: &str,
    note: &str,
    change: &VaultChange<'_>,
) -> Result<NoteRewrite, RewriteError> {
    rewrite_links(text, &link_spans(&markdown::extract(text)), note, change)
}

/// The spans of the links and embeds of extracted note metadata, in text order.
pub fn link_spans(meta: &NoteMetadata) -> Vec<LinkSpan> {
    let mut spans: Vec<LinkSpan> = meta
        .links
        .iter()
        .chain(&meta.embeds)
        .map(|l| LinkSpan {
            start: l.position.start.offset,
            end: l.position.end.offset,
            syntax: l.syntax,
        })
        .collect();
    spans.sort_by_key(|s| s.start);
    spans
}

/// The text of `span`, checked to lie in `text` on character boundaries at or after `from`.
fn span_text<'t>(text: &'t str, span: &LinkSpan, from: usize) -> Result<&'t str, RewriteError> {
    let bad = || RewriteError::BadSpan {
        start: span.start,
        end: span.end,
    };
    if span.start < from || span.end < span.start {
        return Err(bad());
    }
    text.get(span.start..span.end).ok_or_else(bad)
}

/// The new text of one link, or `None` when it can stay as it is.
fn rewrite_one(
    link: &str,
    syntax: LinkSyntax,
    note: &str,
    note_after: &str,
    change: &VaultChange<'_>,
) -> Result<Option<String>, RewriteError> {
    let parsed = match syntax {
        LinkSyntax::Destination => parse_destination(link)?,
        LinkSyntax::Wikilink | LinkSyntax::Markdown => parse_link(link)?,
    };
    if parsed.external || parsed.linkpath.is_empty() {
        return Ok(None);
    }
    let Some(target_before) = change.before.resolve(&parsed.linkpath, note).first() else {
        return Ok(None);
    };
    let moved_to = change.moves.destination(target_before);
    let target_after = change
        .after
        .find(moved_to)
        .ok_or_else(|| RewriteError::Unreachable {
            path: String::from(moved_to),
        })?;
    let untouched = target_after == target_before && note_after == note;
    if points_at(
        &parsed.linkpath,
        note_after,
        target_after,
        change.after,
        untouched,
    ) {
        return Ok(None);
    }
    let mv = LinkMove {
        source_before: note,
        source_after: note_after,
        target_before,
        target_after,
    };
    let rewritten = respell(link, &parsed, &mv, change.after)?;
    Ok(rewritten.changed.then_some(rewritten.text))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans_of(text: &str) -> Vec<LinkSpan> {
        // A tiny span finder for tests: wikilinks and inline markdown links on their own.
        let mut spans = Vec::new();
        let mut i = 0;
        while let Some(off) = text[i..].find('[') {
            let start = i + off;
            let start = if start > 0 && text.as_bytes()[start - 1] == b'!' {
                start - 1
            } else {
                start
            };
            let (end, syntax) = if text[start..].trim_start_matches('!').starts_with("[[") {
                (
                    start + text[start..].find("]]").unwrap() + 2,
                    LinkSyntax::Wikilink,
                )
            } else {
                (
                    start + text[start..].find(')').unwrap() + 1,
                    LinkSyntax::Markdown,
                )
            };
            spans.push(LinkSpan { start, end, syntax });
            i = end;
        }
        spans
    }

    #[test]
    fn rewrites_links_to_a_moved_note_only() {
        let text = "See [[Note]], [[Other]], [x](Note.md#H) and [[Gone]].\n";
        let before = LinkResolver::new(["src.md", "Note.md", "Other.md"]).unwrap();
        let moves = Moves::new([("Note.md", "archive/Renamed.md")]).unwrap();
        let after = LinkResolver::new(moves.apply(["src.md", "Note.md", "Other.md"])).unwrap();
        let change = VaultChange {
            before: &before,
            after: &after,
            moves: &moves,
        };
        let out = rewrite_links(text, &spans_of(text), "src.md", &change).unwrap();
        assert_eq!(
            out.text,
            "See [[Renamed]], [[Other]], [x](Renamed.md#H) and [[Gone]].\n"
        );
        assert_eq!(out.edits.len(), 2);
        assert!(out.skipped.is_empty());
    }

    #[test]
    fn moving_the_note_itself_recomputes_relative_links() {
        let text = "[a](../N.md) [[./M]] [[N]]";
        let paths = ["d/e/src.md", "d/N.md", "d/e/M.md"];
        let before = LinkResolver::new(paths).unwrap();
        let moves = Moves::new([("d/e/src.md", "src.md")]).unwrap();
        let after = LinkResolver::new(moves.apply(paths)).unwrap();
        let change = VaultChange {
            before: &before,
            after: &after,
            moves: &moves,
        };
        let out = rewrite_links(text, &spans_of(text), "d/e/src.md", &change).unwrap();
        assert_eq!(out.text, "[a](./d/N.md) [[./d/e/M]] [[N]]");
    }

    #[test]
    fn whole_note_rewrite_uses_the_markdown_extractor() {
        let text = "---\nup: x\n---\n# [[Note]]\n\n![[Note#^b|x]] [a](Note.md) `[[Note]]` %%[[Note]]%%\n| [[Note\\|n]] |\n|---|\n";
        let before = LinkResolver::new(["src.md", "Note.md"]).unwrap();
        let moves = Moves::new([("Note.md", "b/New.md")]).unwrap();
        let after = LinkResolver::new(moves.apply(["src.md", "Note.md"])).unwrap();
        let change = VaultChange {
            before: &before,
            after: &after,
            moves: &moves,
        };
        let out = rewrite_links_in_note(text, "src.md", &change).unwrap();
        assert_eq!(
            out.text,
            "---\nup: x\n---\n# [[New]]\n\n![[New#^b|x]] [a](New.md) `[[Note]]` %%[[Note]]%%\n| [[New\\|n]] |\n|---|\n"
        );
        assert_eq!(out.edits.len(), 4);
    }

    #[test]
    fn bad_spans_are_errors() {
        let r = LinkResolver::new(["a.md"]).unwrap();
        let moves = Moves::default();
        let change = VaultChange {
            before: &r,
            after: &r,
            moves: &moves,
        };
        let span = |start, end| LinkSpan {
            start,
            end,
            syntax: LinkSyntax::Wikilink,
        };
        let err = rewrite_links("[[a]]", &[span(0, 9)], "a.md", &change).unwrap_err();
        assert_eq!(err, RewriteError::BadSpan { start: 0, end: 9 });
        let err = rewrite_links("é[[a]]", &[span(1, 7)], "a.md", &change).unwrap_err();
        assert_eq!(err, RewriteError::BadSpan { start: 1, end: 7 });
        let err =
            rewrite_links("[[a]][[a]]", &[span(5, 10), span(0, 5)], "a.md", &change).unwrap_err();
        assert_eq!(err, RewriteError::BadSpan { start: 0, end: 5 });
    }

    #[test]
    fn unparseable_spans_are_skipped() {
        let r = LinkResolver::new(["a.md"]).unwrap();
        let moves = Moves::default();
        let change = VaultChange {
            before: &r,
            after: &r,
            moves: &moves,
        };
        let spans = [LinkSpan {
            start: 0,
            end: 4,
            syntax: LinkSyntax::Wikilink,
        }];
        let out = rewrite_links("[[]]", &spans, "a.md", &change).unwrap();
        assert_eq!(out.text, "[[]]");
        assert_eq!(
            out.skipped[0].reason,
            RewriteError::Syntax(super::super::error::SyntaxError::EmptyTarget)
        );
    }
}

//! The text a link must become when its target (or the note holding it) moves.
//!
//! The new link keeps the style it was written in:
//!
//! - a bare name (`[[Note]]`) stays a bare name while that name still resolves to the target
//!   alone, and becomes the full vault path once it does not (Obsidian's "shortest path when
//!   possible": a name is written bare only if it resolves to exactly that file);
//! - a full vault path (`[[Folder/Note]]`, `[[/Folder/Note]]`) stays a full path, with or
//!   without its leading `/`;
//! - a relative link (`./Note`, `../Folder/Note`) is recomputed from the source note's
//!   (possibly new) folder, written with `./` when it does not climb;
//! - a markdown path relative to the source folder without `./` (Obsidian's "relative path"
//!   format) stays relative to the source folder;
//! - a partial path (`[[b/Note]]` for `a/b/Note.md`) keeps as many trailing segments.
//!
//! `.md` stays omitted if it was omitted; the subpath, alias, embed `!`, markdown link text,
//! title, angle brackets and percent-encoding style are kept byte for byte or re-applied.
//! Every candidate spelling is checked by parsing the new link back and resolving it in the
//! vault after the move; the first spelling that reaches the target is used, falling back to
//! the explicit extension and then the full vault path.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::RewriteError;
use super::fold::fold;
use super::parse::{ParsedLink, parse_destination, parse_link};
use super::path::{file_name, parent, relative_path, strip_md, validate_vault_path};
use super::percent::{encode_angle_destination, encode_destination, encodes_non_ascii};
use super::resolver::{LinkResolver, Resolution, join_relative};
use crate::markdown::LinkSyntax;

/// Where the note holding a link and the link's target are before and after a move.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LinkMove<'a> {
    /// The note holding the link, before the move.
    pub source_before: &'a str,
    /// The note holding the link, after the move (the same path if it did not move).
    pub source_after: &'a str,
    /// The file the link pointed to before the move.
    pub target_before: &'a str,
    /// That file's path after the move (the same path if it did not move).
    pub target_after: &'a str,
}

/// The result of rewriting one link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RewrittenLink {
    /// The link text to write.
    pub text: String,
    /// Whether `text` differs from the link as it was.
    pub changed: bool,
}

/// The text the wikilink or markdown link `text`, which pointed at `mv.target_before` from
/// `mv.source_before`, must become so that it points at `mv.target_after` from
/// `mv.source_after` in the vault `after` (indexed after the move). A link that still
/// resolves to the target alone is returned unchanged.
pub fn link_text_after_move(
    text: &str,
    mv: &LinkMove<'_>,
    after: &LinkResolver,
) -> Result<RewrittenLink, RewriteError> {
    let parsed = parse_link(text)?;
    for path in [
        mv.source_before,
        mv.source_after,
        mv.target_before,
        mv.target_after,
    ] {
        validate_vault_path(path)?;
    }
    let target = after
        .find(mv.target_after)
        .ok_or_else(|| RewriteError::Unreachable {
            path: String::from(mv.target_after),
        })?;
    if parsed.external
        || parsed.linkpath.is_empty()
        || points_at(&parsed.linkpath, mv.source_after, target, after, false)
    {
        return Ok(RewrittenLink {
            text: String::from(text),
            changed: false,
        });
    }
    respell(
        text,
        &parsed,
        &LinkMove {
            target_after: target,
            ..*mv
        },
        after,
    )
}

/// Whether `linkpath`, written in the note at `source`, points at `target` in the vault
/// `after`: it resolves to `target` alone (or, with `ambiguous_ok`, first among several), and
/// a `./` or `../` link names it by its relative path, not merely by Obsidian's suffix
/// fallback.
pub(crate) fn points_at(
    linkpath: &str,
    source: &str,
    target: &str,
    after: &LinkResolver,
    ambiguous_ok: bool,
) -> bool {
    let resolves = match after.resolve(linkpath, source) {
        Resolution::Resolved(p) => p == target,
        Resolution::Ambiguous(all) => ambiguous_ok && all[0] == target,
        Resolution::Unresolved => false,
    };
    resolves && (Style::of_relative(linkpath).is_none() || names_relative(linkpath, source, target))
}

/// Whether the `./` or `../` `linkpath`, joined to the folder of `source`, is `target`'s
/// path (with or without its `.md`).
fn names_relative(linkpath: &str, source: &str, target: &str) -> bool {
    let folder = fold(parent(source));
    let target = fold(target);
    [fold(linkpath), fold(&[linkpath, ".md"].concat())]
        .iter()
        .any(|wanted| join_relative(wanted, &folder).is_some_and(|(joined, _)| joined == target))
}

/// Whether `linkpath` spells out the whole vault path `path`, with or without its `.md`.
fn names(linkpath: &str, path: &str) -> bool {
    let path = fold(path);
    path == fold(linkpath) || path == fold(&[linkpath, ".md"].concat())
}

/// Writes the target of `parsed` (taken from `text`) anew for `mv`, trying the spellings of
/// its style in order. `mv.target_after` must be a path of `after`.
pub(crate) fn respell(
    text: &str,
    parsed: &ParsedLink,
    mv: &LinkMove<'_>,
    after: &LinkResolver,
) -> Result<RewrittenLink, RewriteError> {
    let style = Style::of(
        &parsed.linkpath,
        parsed.syntax,
        mv.source_before,
        mv.target_before,
    );
    let omit_md = fold(file_name(&parsed.linkpath)) != fold(file_name(mv.target_before));
    let raw_path = &text[parsed.path_span.clone()];
    let mut unrepresentable = false;
    for spelling in spellings(style, omit_md, mv) {
        let new_text = splice(text, parsed, raw_path, &spelling);
        let reparsed = match parsed.syntax {
            LinkSyntax::Destination => parse_destination(&new_text),
            LinkSyntax::Wikilink | LinkSyntax::Markdown => parse_link(&new_text),
        };
        let reaches =
            after.resolve(&spelling, mv.source_after) == Resolution::Resolved(mv.target_after);
        match reparsed {
            Ok(p) if p.linkpath == spelling && p.subpath == parsed.subpath => {
                if reaches {
                    let changed = new_text != text;
                    return Ok(RewrittenLink {
                        text: new_text,
                        changed,
                    });
                }
            }
            _ => unrepresentable |= reaches,
        }
    }
    let path = String::from(mv.target_after);
    Err(if unrepresentable {
        RewriteError::Unrepresentable { path }
    } else {
        RewriteError::Unreachable { path }
    })
}

/// How a link names its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Style {
    /// Just the file name: `[[Note]]`.
    Bare,
    /// The whole vault path, optionally with a leading `/`.
    Absolute {
        /// Whether the path is written with a leading `/`.
        slash: bool,
    },
    /// `./` or `../` relative to the source note's folder.
    Relative,
    /// Relative to the source note's folder without a leading `./`, in a markdown link:
    /// `[a](sub/Note.md)` in `x/src.md` for `x/sub/Note.md`.
    FromSourceFolder,
    /// The last `segments` segments of the vault path: `[[b/Note]]` for `a/b/Note.md`.
    Suffix {
        /// How many trailing segments the link spells out.
        segments: usize,
    },
}

impl Style {
    /// The style of `linkpath`, written in `syntax`, which resolved to `target` from the
    /// note at `source`. Only markdown destinations are read as relative to the source
    /// folder without `./` (Obsidian writes them so in its "relative path" format; it never
    /// writes wikilinks so).
    fn of(linkpath: &str, syntax: LinkSyntax, source: &str, target: &str) -> Style {
        if let Some(relative) = Style::of_relative(linkpath) {
            return relative;
        }
        if linkpath.starts_with('/') {
            return Style::Absolute { slash: true };
        }
        if !linkpath.contains('/') {
            return Style::Bare;
        }
        if names(linkpath, target) {
            return Style::Absolute { slash: false };
        }
        let folder = parent(source);
        if syntax != LinkSyntax::Wikilink
            && !folder.is_empty()
            && names(&[folder, "/", linkpath].concat(), target)
        {
            return Style::FromSourceFolder;
        }
        Style::Suffix {
            segments: linkpath.split('/').count(),
        }
    }

    /// [`Style::Relative`] if `linkpath` starts with `./` or `../`.
    fn of_relative(linkpath: &str) -> Option<Style> {
        (linkpath.starts_with("./") || linkpath.starts_with("../")).then_some(Style::Relative)
    }
}

/// The spellings to try for `mv.target_after`, best first, without repeats.
fn spellings(style: Style, omit_md: bool, mv: &LinkMove<'_>) -> Vec<String> {
    let target = mv.target_after;
    let shown = |omit: bool| if omit { strip_md(target) } else { target };
    let styled = |omit: bool| -> String {
        let path = shown(omit);
        match style {
            Style::Bare => String::from(file_name(path)),
            Style::Absolute { slash: true } => ["/", path].concat(),
            Style::Absolute { slash: false } => String::from(path),
            Style::Relative => match relative_path(parent(mv.source_after), path) {
                (0, rel) => ["./", &rel].concat(),
                (_, rel) => rel,
            },
            Style::FromSourceFolder => relative_path(parent(mv.source_after), path).1,
            Style::Suffix { segments } => {
                let parts: Vec<&str> = path.split('/').collect();
                parts[parts.len().saturating_sub(segments)..].join("/")
            }
        }
    };
    let mut out: Vec<String> = Vec::with_capacity(4);
    for s in [
        styled(omit_md),
        styled(false),
        String::from(shown(omit_md)),
        String::from(target),
    ] {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// `text` with the written target path replaced by `spelling`, encoded for the link's
/// syntax (and, for markdown, in the encoding style of `raw_path`).
fn splice(text: &str, parsed: &ParsedLink, raw_path: &str, spelling: &str) -> String {
    let written = match parsed.syntax {
        LinkSyntax::Wikilink => String::from(spelling),
        _ if parsed.angle_brackets => encode_angle_destination(spelling),
        _ => encode_destination(spelling, encodes_non_ascii(raw_path)),
    };
    let span = parsed.path_span.clone();
    [&text[..span.start], &written, &text[span.end..]].concat()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn after(paths: &[&str]) -> LinkResolver {
        LinkResolver::new(paths.iter().copied()).unwrap()
    }

    fn mv<'a>(source: &'a str, from: &'a str, to: &'a str) -> LinkMove<'a> {
        LinkMove {
            source_before: source,
            source_after: source,
            target_before: from,
            target_after: to,
        }
    }

    fn rewrite(text: &str, m: LinkMove<'_>, paths: &[&str]) -> String {
        link_text_after_move(text, &m, &after(paths)).unwrap().text
    }

    #[test]
    fn bare_name_stays_bare_while_unique() {
        let t = rewrite(
            "[[Note#H|Alias]]",
            mv("src.md", "a/Note.md", "a/Renamed.md"),
            &["src.md", "a/Renamed.md"],
        );
        assert_eq!(t, "[[Renamed#H|Alias]]");
    }

    #[test]
    fn bare_name_becomes_full_path_when_ambiguous() {
        let paths = ["src.md", "x/Renamed.md", "b/Renamed.md"];
        let t = rewrite(
            "![[Note]]",
            mv("src.md", "a/Note.md", "b/Renamed.md"),
            &paths,
        );
        assert_eq!(t, "![[b/Renamed]]");
    }

    #[test]
    fn unchanged_when_still_resolving() {
        let m = mv("src.md", "a/Note.md", "b/Note.md");
        let out = link_text_after_move("[[Note]]", &m, &after(&["src.md", "b/Note.md"])).unwrap();
        assert_eq!(
            out,
            RewrittenLink {
                text: String::from("[[Note]]"),
                changed: false
            }
        );
    }

    #[test]
    fn absolute_and_relative_styles() {
        let paths = ["f/src.md", "c/d/Note.md"];
        assert_eq!(
            rewrite(
                "[[a/Note]]",
                mv("f/src.md", "a/Note.md", "c/d/Note.md"),
                &paths
            ),
            "[[c/d/Note]]"
        );
        assert_eq!(
            rewrite(
                "[[/a/Note.md]]",
                mv("f/src.md", "a/Note.md", "c/d/Note.md"),
                &paths
            ),
            "[[/c/d/Note.md]]"
        );
        assert_eq!(
            rewrite(
                "[[../a/Note]]",
                mv("f/src.md", "a/Note.md", "c/d/Note.md"),
                &paths
            ),
            "[[../c/d/Note]]"
        );
        let paths = ["f/src.md", "f/g/Note.md"];
        assert_eq!(
            rewrite(
                "[[../a/Note]]",
                mv("f/src.md", "a/Note.md", "f/g/Note.md"),
                &paths
            ),
            "[[./g/Note]]"
        );
    }

    #[test]
    fn markdown_keeps_encoding_and_brackets() {
        let paths = ["src.md", "New Folder/My Note.md"];
        let m = mv("src.md", "Old.md", "New Folder/My Note.md");
        assert_eq!(rewrite("[t](Old.md#H)", m, &paths), "[t](My%20Note.md#H)");
        assert_eq!(rewrite("[t](<Old.md>)", m, &paths), "[t](<My Note.md>)");
        assert_eq!(
            rewrite("[t](./Old.md)", m, &paths),
            "[t](./New%20Folder/My%20Note.md)"
        );
        assert_eq!(
            rewrite("[t](<./Old.md> 'x')", m, &paths),
            "[t](<./New Folder/My Note.md> 'x')"
        );
        let m = mv("src.md", "Old.md", "Café.md");
        assert_eq!(
            rewrite("[t](Ol%64.md)", m, &["src.md", "Café.md"]),
            "[t](Café.md)"
        );
        let m = mv("src.md", "été.md", "Café.md");
        assert_eq!(
            rewrite("[t](%C3%A9t%C3%A9.md)", m, &["src.md", "Café.md"]),
            "[t](Caf%C3%A9.md)"
        );
    }

    #[test]
    fn source_move_recomputes_relative_links() {
        let m = LinkMove {
            source_before: "a/src.md",
            source_after: "b/c/src.md",
            target_before: "a/N.md",
            target_after: "a/N.md",
        };
        assert_eq!(
            rewrite("[x](./N.md)", m, &["b/c/src.md", "a/N.md"]),
            "[x](../../a/N.md)"
        );
    }

    #[test]
    fn unrepresentable_wikilink_target() {
        let m = mv("src.md", "Note.md", "A|B.md");
        let err = link_text_after_move("[[Note]]", &m, &after(&["src.md", "A|B.md"])).unwrap_err();
        assert_eq!(
            err,
            RewriteError::Unrepresentable {
                path: String::from("A|B.md")
            }
        );
    }
}

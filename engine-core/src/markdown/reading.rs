//! [`reading_text`]: a note's text with its links as a reader sees them.
//!
//! An embedding model reads words; a link's destination and title are not the note's words.
//! On pf2e-srd, whose notes link every trait and rule as `[trait](rules/traits/x.md "X
//! Trait")`, the destinations were 27% of multilingual-e5-small's word pieces, and 15% of the
//! chunks ran past its 512-piece window (their tails unseen); with the links read as shown,
//! 6% do. Built on [`extract`](super::extract)'s positions, so a link inside code or a
//! comment is never rewritten.

use alloc::string::String;
use alloc::vec::Vec;

use super::types::{Link, LinkSyntax, SectionType, Subpath};

/// `text` with each link, embed and external link replaced by the text Obsidian shows for
/// it, and each comment block (`%% ... %%` opening a paragraph) left out:
///
/// - `[[target|alias]]` → `alias`; `[[target#Heading]]` → `target > Heading`;
///   `[[target#^block]]` → `target`; `[[target]]` → `target`;
/// - `[text](destination "title")` → `text`; `![alt](image.png)` → `alt`;
/// - an autolink `<https://...>` and a reference definition stay as written.
///
/// Everything else, code included, is kept byte for byte.
pub fn reading_text(text: &str) -> String {
    let meta = super::extract(text);
    let mut spans: Vec<(usize, usize, String)> = Vec::new();
    for link in meta.links.iter().chain(&meta.embeds) {
        if let Some(shown) = shown_text(link) {
            spans.push((link.position.start.offset, link.position.end.offset, shown));
        }
    }
    for link in &meta.external_links {
        if let Some(shown) = &link.display_text {
            spans.push((
                link.position.start.offset,
                link.position.end.offset,
                shown.clone(),
            ));
        }
    }
    for section in &meta.sections {
        if section.section_type == SectionType::Comment {
            spans.push((
                section.position.start.offset,
                section.position.end.offset,
                String::new(),
            ));
        }
    }
    spans.sort_by_key(|&(start, end, _)| (start, core::cmp::Reverse(end)));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, shown) in spans {
        let in_bounds =
            end <= text.len() && text.is_char_boundary(start) && text.is_char_boundary(end);
        if start < at || !in_bounds {
            continue;
        }
        out.push_str(&text[at..start]);
        out.push_str(&shown);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// What Obsidian shows for a vault link or embed; `None` for a reference definition's bare
/// destination, which reading view does not show as a link.
fn shown_text(link: &Link) -> Option<String> {
    match link.syntax {
        LinkSyntax::Destination => None,
        LinkSyntax::Markdown => Some(link.display_text.clone().unwrap_or_default()),
        LinkSyntax::Wikilink => Some(match &link.display_text {
            Some(alias) => alias.clone(),
            None => match &link.subpath {
                Some(Subpath::Heading { headings }) if !headings.is_empty() => {
                    let mut shown = link.path.clone();
                    for heading in headings {
                        if !shown.is_empty() {
                            shown.push_str(" > ");
                        }
                        shown.push_str(heading);
                    }
                    shown
                }
                _ => link.path.clone(),
            },
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_read_as_shown_and_comment_blocks_go() {
        let note = "# Daywalker *Feat 6*\n\
            [abjuration](rules/traits/abjuration.md \"Abjuration School Trait\")  \
            [[Vampire Dedication|vampire]] and [[Sun#Light]], [[Sun#^b1]], [[Sun]].\n\
            ![a map](maps/sun.png) [site](https://example.com) <https://example.org>\n\n\
            %% #trait/abjuration %%\n\nThe end.";
        assert_eq!(
            reading_text(note),
            "# Daywalker *Feat 6*\nabjuration  vampire and Sun > Light, Sun, Sun.\n\
             a map site <https://example.org>\n\n\n\nThe end."
        );
    }

    #[test]
    fn code_and_inline_comments_keep_their_links_as_written() {
        let note = "`[[a|b]]` and\n\n```\n[x](y.md)\n```\ntext %% [[c|d]] %% [[e|f]]";
        assert_eq!(
            reading_text(note),
            "`[[a|b]]` and\n\n```\n[x](y.md)\n```\ntext %% [[c|d]] %% f"
        );
    }

    #[test]
    fn text_without_links_is_unchanged() {
        for note in [
            "",
            "plain words",
            "---\ntitle: x\n---\nbody",
            "# H\n\n- [ ] task",
        ] {
            assert_eq!(reading_text(note), note);
        }
    }
}

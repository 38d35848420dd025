//! Links as extraction records them: wikilinks, the parts of wikilinks and markdown link
//! destinations, and autolinks, read with the shared [`syntax`](super::syntax) primitives.
//! Links never span lines.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::lines::is_space_or_tab;
use super::syntax::{decode_destination, js_trim, scheme_len, subpath_start, wikilink_alias_split};
use super::types::Subpath;

/// The wikilink opened by `[[` at `at`: the end of its inner text and of its `]]`. The inner
/// text runs to the first `]]`; it may not contain `[[` (the inner one is the link) and may
/// not be blank.
pub(crate) fn wikilink(bytes: &[u8], at: usize, limit: usize) -> Option<(usize, usize)> {
    let inner = at + 2;
    let mut close = inner;
    while close + 1 < limit {
        match (bytes[close], bytes[close + 1]) {
            (b']', b']') => {
                let blank = bytes[inner..close].iter().all(|&b| is_space_or_tab(b));
                return (!blank).then_some((close, close + 2));
            }
            (b'[', b'[') => return None,
            _ => close += 1,
        }
    }
    None
}

/// Splits a wikilink's inner text into its destination and display text (see
/// [`wikilink_alias_split`]). `None` when the destination is blank.
pub(crate) fn split_wikilink(inner: &str) -> Option<(String, Option<String>)> {
    let (target_end, display_start) = wikilink_alias_split(inner);
    let target = js_trim(&inner[..target_end]);
    let display = display_start
        .map(|at| js_trim(&inner[at..]))
        .filter(|d| !d.is_empty())
        .map(ToString::to_string);
    (!target.is_empty()).then(|| (target.to_string(), display))
}

/// Splits a wikilink destination at its first `#` into the file path and the subpath.
pub(crate) fn split_subpath(link: &str) -> (String, Option<Subpath>) {
    match link.split_once('#') {
        Some((path, sub)) => (js_trim(path).to_string(), subpath(sub)),
        None => (js_trim(link).to_string(), None),
    }
}

/// Splits a markdown link destination as written (`raw`, inside any `<>`) into the file
/// path and the subpath, each decoded (see [`subpath_start`] and [`decode_destination`]).
pub(crate) fn split_destination(raw: &str) -> (String, Option<Subpath>) {
    let at = subpath_start(raw);
    let path = js_trim(&decode_destination(&raw[..at])).to_string();
    let sub = decode_destination(&raw[at..]);
    (path, sub.strip_prefix('#').and_then(subpath))
}

/// The subpath written after a `#`: a block reference `^id`, or a chain of headings
/// separated by `#`. `None` when nothing but whitespace (and `#` or `^`) is written.
fn subpath(sub: &str) -> Option<Subpath> {
    match js_trim(sub).strip_prefix('^') {
        Some(id) => Some(js_trim(id))
            .filter(|id| !id.is_empty())
            .map(|id| Subpath::Block { id: id.to_string() }),
        None => {
            let headings: Vec<String> = sub
                .split('#')
                .map(js_trim)
                .filter(|h| !h.is_empty())
                .map(ToString::to_string)
                .collect();
            (!headings.is_empty()).then_some(Subpath::Heading { headings })
        }
    }
}

/// An autolink `<scheme:...>` at `at`: the URL's range and the end of the `>`.
pub(crate) fn autolink(bytes: &[u8], at: usize, limit: usize) -> Option<(usize, usize, usize)> {
    let start = at + 1;
    let scheme_len = scheme_len(&bytes[start..limit])?;
    let mut end = start + scheme_len + 1;
    while end < limit && bytes[end] != b'>' {
        if bytes[end] <= b' ' || bytes[end] == b'<' {
            return None;
        }
        end += 1;
    }
    (end < limit).then_some((start, end, end + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wikilinks_end_at_the_first_close_and_not_across_an_inner_open() {
        assert_eq!(wikilink(b"[[a|b]] x", 0, 9), Some((5, 7)));
        assert_eq!(wikilink(b"[[a [[b]]", 0, 9), None);
        assert_eq!(wikilink(b"[[a [[b]]", 4, 9), Some((7, 9)));
        assert_eq!(wikilink(b"[[ ]]", 0, 5), None);
        assert_eq!(wikilink(b"[[a]", 0, 4), None);
        assert_eq!(wikilink(b"[[a]]", 0, 4), None);
    }

    #[test]
    fn wikilink_parts() {
        assert_eq!(
            split_wikilink("a#b|c|d"),
            Some(("a#b".into(), Some("c|d".into())))
        );
        assert_eq!(
            split_wikilink("a\\|b"),
            Some(("a".into(), Some("b".into())))
        );
        assert_eq!(split_wikilink(" a |"), Some(("a".into(), None)));
        assert_eq!(split_wikilink("|b"), None);
    }

    #[test]
    fn subpaths() {
        assert_eq!(split_subpath("a"), ("a".into(), None));
        assert_eq!(
            split_subpath("a#b#c"),
            (
                "a".into(),
                Some(Subpath::Heading {
                    headings: ["b".into(), "c".into()].into()
                })
            )
        );
        assert_eq!(
            split_subpath("#^x1"),
            ("".into(), Some(Subpath::Block { id: "x1".into() }))
        );
        assert_eq!(split_subpath("a#"), ("a".into(), None));
        assert_eq!(split_subpath("a#^"), ("a".into(), None));
    }

    #[test]
    fn destination_parts_split_before_decoding() {
        let heading = |h: &str| {
            Some(Subpath::Heading {
                headings: [h.into()].into(),
            })
        };
        assert_eq!(
            split_destination("A%20B.md#Head%20One"),
            ("A B.md".into(), heading("Head One"))
        );
        assert_eq!(split_destination("C%23.md"), ("C#.md".into(), None));
        assert_eq!(split_destination(r"a\#b"), ("a".into(), heading("b")));
        assert_eq!(split_destination("\u{feff}a"), ("a".into(), None));
    }

    #[test]
    fn autolinks() {
        let s = b"<https://x.y/#z> ";
        assert_eq!(autolink(s, 0, s.len()), Some((1, 15, 16)));
        assert_eq!(autolink(b"<a b:c>", 0, 7), None);
        assert_eq!(autolink(b"<x:y>", 0, 5), None);
    }
}

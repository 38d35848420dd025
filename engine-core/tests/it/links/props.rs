//! Property tests for engine_core::links: resolution stays inside the vault and finds what a
//! full path names, parsing never panics and reports spans on character boundaries, and a
//! link rewritten for a move resolves to the moved file.

use engine_core::links::{
    LinkMove, LinkResolver, LinkSpan, LinkSyntax, Moves, Resolution, RewriteError, VaultChange,
    link_text_after_move, parse_destination, parse_link, rewrite_links,
};
use proptest::prelude::*;

/// Folder and name pieces that exercise case, scripts, emoji, spaces, dots and combining marks.
const PIECES: &[&str] = &[
    "a",
    "B",
    "note",
    "Note",
    "é",
    "e\u{301}",
    "日本",
    "😀",
    "x y",
    "v1.2",
    "ΟΔΟΣ",
    "ملاحظة",
    "(1)",
    "%20",
    "n.md",
];

fn segment() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 1..3).prop_map(|p| p.concat())
}

fn vault_path() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(segment(), 0..3),
        segment(),
        prop::sample::select(&[".md", ".md", ".png", ".canvas", ".md.md"][..]),
    )
        .prop_map(|(dirs, name, ext)| {
            let mut parts = dirs;
            parts.push([name.as_str(), ext].concat());
            parts.join("/")
        })
}

fn vault() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(vault_path(), 1..24)
}

/// Whether two paths differ only by case or normalization (the resolver cannot tell them apart).
fn same_key(a: &str, b: &str) -> bool {
    use unicode_normalization::UnicodeNormalization;
    let k = |s: &str| {
        s.nfc()
            .collect::<String>()
            .to_lowercase()
            .nfc()
            .collect::<String>()
    };
    k(a) == k(b)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn resolution_stays_in_the_vault(paths in vault(), linkpath in ".{0,40}", source in vault_path()) {
        let r = LinkResolver::new(&paths).unwrap();
        match r.resolve(&linkpath, &source) {
            Resolution::Resolved(p) => prop_assert!(paths.iter().any(|q| q == p)),
            Resolution::Ambiguous(all) => {
                prop_assert!(all.len() >= 2);
                prop_assert!(all.iter().all(|p| paths.iter().any(|q| q == p)));
            }
            Resolution::Unresolved => {}
        }
    }

    #[test]
    fn relative_links_never_escape(paths in vault(), ups in 1usize..6, rest in segment(), source in vault_path()) {
        let r = LinkResolver::new(&paths).unwrap();
        let depth = source.matches('/').count();
        let link = ["../".repeat(ups), rest].concat();
        if ups > depth {
            prop_assert_eq!(r.resolve(&link, &source), Resolution::Unresolved);
        }
    }

    #[test]
    fn a_full_path_names_its_file(paths in vault(), pick in any::<prop::sample::Index>(), source in vault_path()) {
        let target = pick.get(&paths).clone();
        let r = LinkResolver::new(&paths).unwrap();
        let unique_key = paths.iter().filter(|p| same_key(p, &target)).count() == 1;
        if unique_key {
            prop_assert_eq!(r.resolve(&target, &source), Resolution::Resolved(target.as_str()));
            prop_assert_eq!(r.resolve(&["/", target.as_str()].concat(), &source), Resolution::Resolved(target.as_str()));
        }
    }

    #[test]
    fn a_unique_name_resolves_from_anywhere(paths in vault(), pick in any::<prop::sample::Index>(), source in vault_path()) {
        let target = pick.get(&paths).clone();
        let name = target.rsplit('/').next().unwrap();
        let r = LinkResolver::new(&paths).unwrap();
        let same_name = paths.iter().filter(|p| same_key(p.rsplit('/').next().unwrap(), name)).count();
        if same_name == 1 {
            prop_assert_eq!(r.resolve(name, &source), Resolution::Resolved(target.as_str()));
        }
    }

    #[test]
    fn parsing_never_panics_and_spans_are_on_boundaries(text in "\\PC{0,60}", prefix in prop::sample::select(&["[[", "![[", "[", "![", "<", ""][..])) {
        let text = [prefix, text.as_str()].concat();
        for parsed in [parse_link(&text), parse_destination(&text)].into_iter().flatten() {
            prop_assert!(text.get(parsed.path_span.clone()).is_some());
        }
    }

    #[test]
    fn a_rewritten_link_resolves_to_the_moved_file(
        paths in vault(),
        pick in any::<prop::sample::Index>(),
        new_path in vault_path(),
        source in vault_path(),
        form in 0usize..6,
    ) {
        let target = pick.get(&paths).clone();
        prop_assume!(!same_key(&source, &target) && !same_key(&source, &new_path) && new_path != target);
        let mut before = paths.clone();
        before.push(source.clone());
        let before_r = LinkResolver::new(&before).unwrap();
        let stem = target.strip_suffix(".md").unwrap_or(&target);
        let name = stem.rsplit('/').next().unwrap();
        let encoded = |s: &str| s.replace('%', "%25").replace(' ', "%20").replace('#', "%23");
        let link = match form {
            0 => format!("[[{name}]]"),
            1 => format!("[[{stem}#H|alias]]"),
            2 => format!("![[/{target}]]"),
            3 => format!("[t]({})", encoded(&target)),
            4 => format!("[t](<{target}> \"title\")"),
            _ => format!("[t]({}#x)", encoded(name)),
        };
        let Ok(parsed) = parse_link(&link) else { return Ok(()) };
        // Only links that pointed at the target before the move are rewritten for it.
        prop_assume!(before_r.resolve(&parsed.linkpath, &source).first() == Some(target.as_str()));
        let moves = Moves::new([(target.as_str(), new_path.as_str())]).unwrap();
        let after_paths = moves.apply(&before);
        let after_r = LinkResolver::new(&after_paths).unwrap();
        let Some(moved) = after_r.find(&new_path) else { return Ok(()) };
        let mv = LinkMove {
            source_before: &source,
            source_after: &source,
            target_before: &target,
            target_after: &new_path,
        };
        let single = link_text_after_move(&link, &mv, &after_r);
        match &single {
            Ok(out) => {
                let reparsed = parse_link(&out.text).unwrap();
                prop_assert_eq!(&reparsed.subpath, &parsed.subpath);
                let now = after_r.resolve(&reparsed.linkpath, &source);
                prop_assert_eq!(now, Resolution::Resolved(moved), "{} -> {}", link, out.text);
            }
            Err(RewriteError::Unrepresentable { .. } | RewriteError::Unreachable { .. }) => {}
            Err(e) => prop_assert!(false, "unexpected error {e:?} for {link}"),
        }
        // The same link inside a note, rewritten through its span, agrees.
        let note = format!("x {link} y");
        let spans = [LinkSpan { start: 2, end: 2 + link.len(), syntax: LinkSyntax::Markdown }];
        let change = VaultChange { before: &before_r, after: &after_r, moves: &moves };
        let out = rewrite_links(&note, &spans, &source, &change).unwrap();
        match single {
            Ok(r) if r.changed => {
                prop_assert_eq!(out.edits.len(), 1);
                prop_assert_eq!(&out.edits[0].new, &r.text);
                prop_assert_eq!(out.text, format!("x {} y", r.text));
            }
            Ok(_) => {
                prop_assert!(out.edits.is_empty() && out.skipped.is_empty());
                prop_assert_eq!(out.text, note);
            }
            Err(_) => {
                prop_assert_eq!(out.skipped.len(), 1);
                prop_assert_eq!(out.text, note);
            }
        }
    }

    #[test]
    fn rewriting_never_panics_on_arbitrary_spans(
        text in "\\PC{0,80}",
        raw_spans in prop::collection::vec((0usize..90, 0usize..20, 0u8..3), 0..5),
    ) {
        let r = LinkResolver::new(["src.md", "a/Note.md"]).unwrap();
        let moves = Moves::new([("a/Note.md", "b/Note 2.md")]).unwrap();
        let after = LinkResolver::new(moves.apply(["src.md", "a/Note.md"])).unwrap();
        let change = VaultChange { before: &r, after: &after, moves: &moves };
        let mut spans: Vec<LinkSpan> = raw_spans
            .into_iter()
            .map(|(start, len, k)| LinkSpan {
                start,
                end: start + len,
                syntax: [LinkSyntax::Wikilink, LinkSyntax::Markdown, LinkSyntax::Destination][k as usize],
            })
            .collect();
        spans.sort_by_key(|s| s.start);
        if let Ok(out) = rewrite_links(&text, &spans, "src.md", &change)
            && out.edits.is_empty()
        {
            prop_assert_eq!(out.text, text);
        }
    }
}

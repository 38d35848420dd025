//! Properties over generated notes: nothing panics, slices stay on line and character
//! boundaries, appends land in their section, unique replaces change exactly one place, and
//! the preview is a minimal diff that rebuilds the new text.

use engine_core::markdown::extract;
use obsidian_tc::edits::{
    AppendAt, EditError, PatchTarget, ReadTarget, append, heading_paths, patch, preview, read_range,
};
use proptest::prelude::*;

/// Lines that look like markdown: headings, list items with block ids, fences, plain text,
/// multibyte characters, blank lines.
fn note() -> impl Strategy<Value = String> {
    let line = prop_oneof![
        "#{1,3} [A-Ca-cé ]{0,6}",
        "- [a-cé]{0,4}( \\^[a-c1-]{1,3})?",
        "[a-cé😀 ]{0,8}( \\^[a-c1-]{1,3})?",
        Just(String::new()),
        Just("```".to_owned()),
        Just("---".to_owned()),
        Just("\r".to_owned()),
    ];
    (prop::collection::vec(line, 0..16), any::<bool>()).prop_map(|(lines, final_break)| {
        let mut text = lines.join("\n");
        if final_break {
            text.push('\n');
        }
        text
    })
}

/// A target string that may or may not name something in the note.
fn target() -> impl Strategy<Value = String> {
    "[A-Ca-c#^1é -]{0,6}"
}

fn lcs(a: &[&str], b: &[&str]) -> usize {
    let mut row = vec![0usize; b.len() + 1];
    for x in a {
        let mut diagonal = 0;
        for (j, y) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if x == y {
                diagonal + 1
            } else {
                above.max(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

/// Applies the preview's hunks to `before` (all lines end with `\n`).
fn apply(before: &str, preview: &str) -> String {
    let old: Vec<&str> = before.split_inclusive('\n').collect();
    let mut out = String::new();
    let mut next = 0;
    for line in preview.split_inclusive('\n') {
        if let Some(header) = line.strip_prefix("@@ -") {
            let start: usize = header.split(',').next().unwrap().parse().unwrap();
            let from = start.saturating_sub(1);
            for kept in &old[next..from.max(next)] {
                out.push_str(kept);
            }
            next = from.max(next);
        } else if let Some(added) = line.strip_prefix('+') {
            out.push_str(added);
        } else if let Some(kept) = line.strip_prefix(' ') {
            assert_eq!(kept, old[next]);
            out.push_str(kept);
            next += 1;
        } else if let Some(removed) = line.strip_prefix('-') {
            assert_eq!(removed, old[next]);
            next += 1;
        }
    }
    for kept in &old[next..] {
        out.push_str(kept);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn reads_never_panic_and_slice_on_line_boundaries(
        text in note(), start in 0usize..20, len in 0usize..20, name in target()
    ) {
        let targets = [
            ReadTarget::Lines { start, end: start + len },
            ReadTarget::Heading(name.clone()),
            ReadTarget::Block(name),
        ];
        for target in &targets {
            if let Ok(sel) = read_range(&text, target) {
                prop_assert_eq!(&text[sel.bytes.start..sel.bytes.end], sel.text.as_str());
                prop_assert!(sel.bytes.start == 0 || text.as_bytes()[sel.bytes.start - 1] == b'\n');
                prop_assert!(sel.bytes.end == text.len() || text.as_bytes()[sel.bytes.end - 1] == b'\n');
                prop_assert!(sel.lines.start <= sel.lines.end);
                prop_assert_eq!(sel.text.lines().count(), sel.lines.end - sel.lines.start + 1);
            }
        }
    }

    #[test]
    fn edits_never_panic_and_errors_have_stable_codes(
        text in note(), name in target(), content in "[a-c\n^#]{0,6}", include in any::<bool>()
    ) {
        let appends = [
            AppendAt::End, AppendAt::Prepend,
            AppendAt::Section(name.clone()), AppendAt::AfterBlock(name.clone()),
        ];
        let results = appends.iter().map(|at| append(&text, &content, at)).chain([
            patch(&text, &PatchTarget::Unique(name.clone()), &content),
            patch(&text, &PatchTarget::Section { heading: name.clone(), include_heading: include }, &content),
            patch(&text, &PatchTarget::Block(name.clone()), &content),
        ]);
        for result in results {
            match result {
                Ok(edit) => prop_assert_eq!(edit.changed, edit.text != text),
                Err(err) => prop_assert!(
                    ["not_found", "ambiguous", "invalid_range", "invalid_input"].contains(&err.code())
                ),
            }
        }
    }

    #[test]
    fn appended_lines_are_in_the_section_read_back(text in note(), content in "[a-z]{1,8}") {
        let meta = extract(&text);
        for path in heading_paths(&meta.headings) {
            let at = AppendAt::Section(path.clone());
            let Ok(edit) = append(&text, &content, &at) else { continue };
            prop_assert_eq!(edit.lines_removed, 0);
            let section = read_range(&edit.text, &ReadTarget::Heading(path)).unwrap();
            prop_assert!(section.text.lines().any(|l| l == content), "{:?}", section.text);
        }
    }

    #[test]
    fn a_unique_replace_changes_exactly_that_occurrence(
        text in note(), from in 0usize..200, len in 1usize..6, new in "[x-z\n]{0,4}"
    ) {
        let bounds: Vec<usize> = text.char_indices().map(|(i, _)| i).chain([text.len()]).collect();
        let start = bounds[from % bounds.len()];
        let end = bounds[(bounds.iter().position(|&b| b == start).unwrap() + len).min(bounds.len() - 1)];
        prop_assume!(end > start);
        let old = &text[start..end];
        let count = (0..text.len()).filter(|&i| text.get(i..).is_some_and(|t| t.starts_with(old))).count();
        match patch(&text, &PatchTarget::Unique(old.to_owned()), &new) {
            Ok(edit) => {
                prop_assert_eq!(count, 1);
                prop_assert_eq!(edit.text, format!("{}{new}{}", &text[..start], &text[end..]));
            }
            Err(EditError::Ambiguous { count: reported, candidates, .. }) => {
                prop_assert_eq!(reported, count);
                prop_assert_eq!(candidates.len(), count);
            }
            Err(other) => prop_assert!(false, "{other:?}"),
        }
    }

    #[test]
    fn the_preview_is_a_minimal_diff_that_rebuilds_the_new_text(
        before in prop::collection::vec("[a-c]{0,2}", 0..30),
        after in prop::collection::vec("[a-c]{0,2}", 0..30),
    ) {
        let join = |lines: &[String]| lines.iter().map(|l| format!("{l}\n")).collect::<String>();
        let (old, new) = (join(&before), join(&after));
        let text = preview(&old, &new);
        prop_assert_eq!(text.is_empty(), old == new);
        prop_assert_eq!(apply(&old, &text), new.clone());
        let a: Vec<&str> = before.iter().map(String::as_str).collect();
        let b: Vec<&str> = after.iter().map(String::as_str).collect();
        let removed = text.lines().filter(|l| l.starts_with('-')).count();
        let added = text.lines().filter(|l| l.starts_with('+')).count();
        let common = lcs(&a, &b);
        prop_assert_eq!((removed, added), (a.len() - common, b.len() - common));
    }
}

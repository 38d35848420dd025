//! `patch`: unique strings, sections and blocks, with the line counts and the guard.

use obsidian_tc::edits::{EditError, PatchTarget, patch};

fn section(heading: &str, include_heading: bool) -> PatchTarget {
    PatchTarget::Section {
        heading: heading.into(),
        include_heading,
    }
}

#[test]
fn a_unique_string_is_replaced_in_place() {
    let edit = patch(
        "alpha beta\ngamma\n",
        &PatchTarget::Unique("beta".into()),
        "BETA",
    )
    .unwrap();
    assert_eq!(edit.text, "alpha BETA\ngamma\n");
    assert!(edit.changed);
    assert_eq!((edit.lines_removed, edit.lines_added), (1, 1));
    assert_eq!(edit.body_lines_before, 2);
    assert!(!edit.needs_confirmation);
    let same = patch("a b\n", &PatchTarget::Unique("b".into()), "b").unwrap();
    assert!(!same.changed);
    assert_eq!((same.lines_removed, same.lines_added), (0, 0));
}

#[test]
fn a_missing_string_is_not_found_with_a_hint() {
    let err = patch("abc\n", &PatchTarget::Unique("xyz".into()), "q").unwrap_err();
    assert_eq!(err.code(), "not_found");
    assert!(err.to_string().contains("copy the text exactly"), "{err}");
    let err = patch("abc\n", &PatchTarget::Unique(String::new()), "q").unwrap_err();
    assert_eq!(err.code(), "invalid_input");
}

#[test]
fn a_repeated_string_is_ambiguous_with_count_and_lines() {
    let err = patch(
        "to do\nnothing\nto do\ntodo\n",
        &PatchTarget::Unique("to".into()),
        "x",
    )
    .unwrap_err();
    let EditError::Ambiguous {
        count, candidates, ..
    } = &err
    else {
        panic!("{err:?}");
    };
    assert_eq!(*count, 3);
    let lines: Vec<usize> = candidates.iter().map(|c| c.line).collect();
    assert_eq!(lines, [1, 3, 4]);
    assert_eq!(candidates[2].label, "todo");
    // Overlapping occurrences count too.
    let err = patch("aaa", &PatchTarget::Unique("aa".into()), "b").unwrap_err();
    assert_eq!(err.code(), "ambiguous");
}

#[test]
fn a_section_body_is_replaced_and_its_heading_kept() {
    let note = "# A\nold 1\nold 2\n\n## Sub\ns\n\n# B\nb\n";
    let edit = patch(note, &section("A", false), "new").unwrap();
    assert_eq!(edit.text, "# A\nnew\n\n# B\nb\n");
    assert_eq!((edit.lines_removed, edit.lines_added), (5, 1));
    let edit = patch(note, &section("A", true), "# A2\nnew\n").unwrap();
    assert_eq!(edit.text, "# A2\nnew\n\n# B\nb\n");
    let edit = patch(note, &section("B", false), "").unwrap();
    assert_eq!(edit.text, "# A\nold 1\nold 2\n\n## Sub\ns\n\n# B\n");
    let edit = patch("## A\nNext\n---\n", &section("A", false), "new").unwrap();
    assert_eq!(edit.text, "## A\nnew\n\nNext\n---\n");
    let edit = patch("# A", &section("A", false), "x").unwrap();
    assert_eq!(edit.text, "# A\nx");
}

#[test]
fn a_block_text_is_replaced_and_its_marker_kept() {
    let note = "first line\nsecond ^b1\n\n- item ^li\n";
    let edit = patch(note, &PatchTarget::Block("b1".into()), "replaced\n").unwrap();
    assert_eq!(edit.text, "replaced ^b1\n\n- item ^li\n");
    let edit = patch(note, &PatchTarget::Block("^li".into()), "- other ^li").unwrap();
    assert_eq!(edit.text, "first line\nsecond ^b1\n\n- other ^li\n");
    let table = "| a |\n|---|\n| 1 |\n\n^t\n";
    let edit = patch(table, &PatchTarget::Block("t".into()), "| b |\n|---|\n").unwrap();
    assert_eq!(edit.text, "| b |\n|---|\n\n^t\n");
    let err = patch(note, &PatchTarget::Block("b1".into()), " \n").unwrap_err();
    assert_eq!(err.code(), "invalid_input");
}

/// A note with frontmatter, a short heading and a long section of `long` lines.
fn long_note(long: usize, tail: usize) -> String {
    let mut note = String::from("---\nk: v\n---\n# Keep\nshort\n# Long\n");
    for i in 0..long {
        note.push_str(&format!("line {i}\n"));
    }
    note.push_str("# Tail\n");
    for i in 0..tail {
        note.push_str(&format!("tail {i}\n"));
    }
    note
}

#[test]
fn the_912_line_truncation_needs_confirmation() {
    let note = long_note(900, 5);
    let edit = patch(&note, &section("Long", false), "just this\n").unwrap();
    assert_eq!(edit.lines_removed, 900);
    assert_eq!(edit.lines_added, 1);
    assert_eq!(edit.body_lines_before, 2 + 1 + 900 + 1 + 5);
    assert!(edit.needs_confirmation);
}

#[test]
fn the_guard_counts_body_lines_after_the_frontmatter() {
    // Body: "# Keep", "short", "# Long", 21 lines, "# Tail", tail lines.
    // 21 removed of a 42-line body is exactly 50 %: no confirmation.
    let edit = patch(&long_note(21, 17), &section("Long", false), "").unwrap();
    assert_eq!((edit.lines_removed, edit.body_lines_before), (21, 42));
    assert!(!edit.needs_confirmation);
    // 21 of 41 is 51 %: confirmation.
    let edit = patch(&long_note(21, 16), &section("Long", false), "").unwrap();
    assert_eq!((edit.lines_removed, edit.body_lines_before), (21, 41));
    assert!(edit.needs_confirmation);
    // 20 lines, 100 % of nothing else: no confirmation.
    let edit = patch(&long_note(20, 0), &section("Long", false), "").unwrap();
    assert_eq!((edit.lines_removed, edit.body_lines_before), (20, 24));
    assert!(!edit.needs_confirmation);
}

#[test]
fn rewording_a_long_section_is_not_discarding_it() {
    let note = long_note(100, 0);
    let mut body: String = (0..100).map(|i| format!("line {i}\n")).collect();
    body = body.replace("line 50\n", "line fifty\n");
    let edit = patch(&note, &section("Long", false), &body).unwrap();
    assert_eq!((edit.lines_removed, edit.lines_added), (1, 1));
    assert!(!edit.needs_confirmation);
}

//! `append`: at the end, at the end of a section, after a block, under the frontmatter.

use obsidian_tc::edits::{AppendAt, ReadTarget, append, read_range};

fn appended(text: &str, content: &str, at: AppendAt) -> String {
    let edit = append(text, content, &at).unwrap();
    assert!(edit.changed);
    assert_eq!(edit.lines_removed, 0, "{:?}", edit.text);
    assert!(!edit.needs_confirmation);
    edit.text
}

#[test]
fn at_the_end_lines_are_separated_by_exactly_one_break() {
    assert_eq!(appended("a\n", "b", AppendAt::End), "a\nb\n");
    assert_eq!(appended("a", "b", AppendAt::End), "a\nb");
    assert_eq!(appended("a\n", "b\n", AppendAt::End), "a\nb\n");
    assert_eq!(appended("a\n\n", "b\n", AppendAt::End), "a\n\nb\n");
    assert_eq!(appended("", "b\n", AppendAt::End), "b\n");
    let edit = append("a\n", "b\nc\n", &AppendAt::End).unwrap();
    assert_eq!(edit.lines_added, 2);
}

#[test]
fn at_a_section_end_before_the_blank_lines_and_the_next_heading() {
    let note = "# A\none\n\n## B\ntwo\n\n# C\nthree\n";
    assert_eq!(
        appended(note, "new", AppendAt::Section("a".into())),
        "# A\none\n\n## B\ntwo\nnew\n\n# C\nthree\n"
    );
    assert_eq!(
        appended(note, "new", AppendAt::Section("C".into())),
        "# A\none\n\n## B\ntwo\n\n# C\nthree\nnew\n"
    );
    assert_eq!(
        appended("# A", "x", AppendAt::Section("A".into())),
        "# A\nx"
    );
    assert_eq!(
        appended("# A\n\n# B\n", "x", AppendAt::Section("A".into())),
        "# A\nx\n\n# B\n"
    );
}

#[test]
fn a_blank_line_keeps_added_text_out_of_a_setext_heading_that_follows() {
    // Without it, "new" would become part of the heading "Next".
    assert_eq!(
        appended("## A\nNext\n---\n", "new", AppendAt::Section("A".into())),
        "## A\nnew\n\nNext\n---\n"
    );
    assert_eq!(
        appended("Title\n===\n", "top", AppendAt::Prepend),
        "top\n\nTitle\n===\n"
    );
}

#[test]
fn after_a_block() {
    let note = "para ^p1\nmore\n\n- item ^i\n- next\n";
    assert_eq!(
        appended(note, "after", AppendAt::AfterBlock("^i".into())),
        "para ^p1\nmore\n\n- item ^i\nafter\n- next\n"
    );
    assert_eq!(
        appended("x ^end", "y", AppendAt::AfterBlock("end".into())),
        "x ^end\ny"
    );
}

#[test]
fn prepend_goes_under_the_frontmatter() {
    assert_eq!(
        appended("---\na: 1\n---\nbody\n", "top", AppendAt::Prepend),
        "---\na: 1\n---\ntop\nbody\n"
    );
    assert_eq!(
        appended("---\na: 1\n---", "top", AppendAt::Prepend),
        "---\na: 1\n---\ntop"
    );
    assert_eq!(appended("body\n", "top", AppendAt::Prepend), "top\nbody\n");
}

#[test]
fn appended_text_is_in_the_section_read_back() {
    let note = "# A\none\n\n# B\n";
    let text = appended(note, "fresh line", AppendAt::Section("A".into()));
    let section = read_range(&text, &ReadTarget::Heading("A".into())).unwrap();
    assert!(section.text.contains("fresh line\n"), "{:?}", section.text);
}

#[test]
fn refusals_change_nothing_and_are_typed() {
    let err = append("a\n", "", &AppendAt::End).unwrap_err();
    assert_eq!(err.code(), "invalid_input");
    let err = append("a\n", "x", &AppendAt::Section("missing".into())).unwrap_err();
    assert_eq!(err.code(), "not_found");
    let err = append("a\n", "x", &AppendAt::AfterBlock("^nope".into())).unwrap_err();
    assert_eq!(err.code(), "not_found");
}

//! `preview`: the unified-diff-like text shown by `dry_run`.

use obsidian_tc::edits::preview;

fn numbered(n: usize) -> String {
    (1..=n).map(|i| format!("{i}\n")).collect()
}

#[test]
fn identical_texts_give_an_empty_preview() {
    assert_eq!(preview("", ""), "");
    assert_eq!(preview("a\nb\n", "a\nb\n"), "");
}

#[test]
fn one_changed_line_with_three_lines_of_context() {
    let before = numbered(10);
    let after = before.replace("5\n", "five\n");
    assert_eq!(
        preview(&before, &after),
        "@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"
    );
}

#[test]
fn distant_changes_make_separate_hunks_and_near_ones_merge() {
    let before = numbered(30);
    let after = before.replace("\n3\n", "\nthree\n").replace("\n25\n", "\n");
    assert_eq!(
        preview(&before, &after),
        "@@ -1,6 +1,6 @@\n 1\n 2\n-3\n+three\n 4\n 5\n 6\n@@ -22,7 +22,6 @@\n 22\n 23\n 24\n-25\n 26\n 27\n 28\n"
    );
    let near = before
        .replace("\n3\n", "\nthree\n")
        .replace("\n9\n", "\nnine\n");
    let text = preview(&before, &near);
    assert_eq!(text.matches("@@ -").count(), 1, "{text}");
}

#[test]
fn additions_to_an_empty_note_and_missing_final_newlines() {
    assert_eq!(
        preview("", "a\nb"),
        "@@ -0,0 +1,2 @@\n+a\n+b\n\\ No newline at end of file\n"
    );
    assert_eq!(
        preview("a", "a\n"),
        "@@ -1,1 +1,1 @@\n-a\n\\ No newline at end of file\n+a\n"
    );
}

#[test]
fn a_rewrite_past_the_search_limit_still_lists_every_changed_line() {
    let before: String = (0..3000).map(|i| format!("old {i}\n")).collect();
    let after: String = (0..3000).map(|i| format!("new {i}\n")).collect();
    let text = preview(&before, &after);
    for i in 0..3000 {
        assert!(text.contains(&format!("-old {i}\n")), "line {i}");
        assert!(text.contains(&format!("+new {i}\n")), "line {i}");
    }
}

//! `read_range`: line ranges, heading sections and blocks, with their line and byte ranges.

use obsidian_tc::edits::{EditError, ReadTarget, read_range};

const NOTE: &str = "---\ntags: [a]\n---\n# Guide\nintro\n\n## Install\nsteps\n\n### Linux\napt\n\n## Use\nrun it ^run-1\n\n- one\n- two ^item-2\n  - child\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n^table\n\n# Other\n## Install\nelsewhere\n";

fn heading(path: &str) -> Result<String, EditError> {
    read_range(NOTE, &ReadTarget::Heading(path.into())).map(|s| s.text)
}

#[test]
fn lines_are_one_based_inclusive_and_clamped() {
    let sel = read_range(NOTE, &ReadTarget::Lines { start: 4, end: 5 }).unwrap();
    assert_eq!(sel.text, "# Guide\nintro\n");
    assert_eq!((sel.lines.start, sel.lines.end), (4, 5));
    assert_eq!(&NOTE[sel.bytes.start..sel.bytes.end], sel.text);
    let sel = read_range(
        NOTE,
        &ReadTarget::Lines {
            start: 27,
            end: 999,
        },
    )
    .unwrap();
    assert_eq!(sel.text, "## Install\nelsewhere\n");
    assert_eq!((sel.lines.start, sel.lines.end), (27, 28));
}

#[test]
fn bad_ranges_are_typed_errors() {
    for (start, end) in [(0, 3), (5, 4), (29, 30)] {
        let err = read_range(NOTE, &ReadTarget::Lines { start, end }).unwrap_err();
        assert_eq!(err.code(), "invalid_range", "{start}..={end}");
        assert!(err.to_string().contains("28 lines"), "{err}");
    }
    let err = read_range("", &ReadTarget::Lines { start: 1, end: 1 }).unwrap_err();
    assert_eq!(
        err,
        EditError::InvalidRange {
            start: 1,
            end: 1,
            line_count: 0
        }
    );
}

#[test]
fn a_section_runs_to_the_next_heading_of_the_same_or_higher_level() {
    assert_eq!(
        heading("guide#install").unwrap(),
        "## Install\nsteps\n\n### Linux\napt\n\n"
    );
    assert_eq!(heading("  LINUX ").unwrap(), "### Linux\napt\n\n");
    assert_eq!(
        heading("Other").unwrap(),
        "# Other\n## Install\nelsewhere\n"
    );
    let sel = read_range(NOTE, &ReadTarget::Heading("Other#Install".into())).unwrap();
    assert_eq!((sel.lines.start, sel.lines.end), (27, 28));
    assert_eq!(sel.bytes.end, NOTE.len());
}

#[test]
fn an_ambiguous_heading_lists_the_candidates_with_lines() {
    let err = heading("Install").unwrap_err();
    let EditError::Ambiguous {
        count, candidates, ..
    } = &err
    else {
        panic!("expected ambiguous, got {err:?}");
    };
    assert_eq!(*count, 2);
    let found: Vec<(usize, &str)> = candidates
        .iter()
        .map(|c| (c.line, c.label.as_str()))
        .collect();
    assert_eq!(found, [(7, "Guide#Install"), (27, "Other#Install")]);
    assert!(err.to_string().contains("lines 7, 27"), "{err}");
    assert!(err.to_string().contains("Parent#Child"), "{err}");
}

#[test]
fn paths_may_skip_levels_but_not_reorder() {
    assert_eq!(heading("Guide#Linux").unwrap(), "### Linux\napt\n\n");
    assert_eq!(heading("Linux#Guide").unwrap_err().code(), "not_found");
    assert_eq!(heading("Other#Linux").unwrap_err().code(), "not_found");
    assert_eq!(heading("#").unwrap_err().code(), "invalid_input");
}

#[test]
fn headings_with_hashes_and_setext_headings() {
    let note = "Title\n=====\ntext\n## C#\ncode\n## C\nsee\n";
    let sel = read_range(note, &ReadTarget::Heading("title".into())).unwrap();
    assert_eq!(sel.text, note);
    let err = read_range(note, &ReadTarget::Heading("C#".into())).unwrap_err();
    assert_eq!(err.code(), "ambiguous");
    let sel = read_range(note, &ReadTarget::Lines { start: 2, end: 2 }).unwrap();
    assert_eq!(sel.text, "=====\n");
}

#[test]
fn a_block_is_its_paragraph_list_item_or_the_block_before_a_lone_marker() {
    let read = |id: &str| read_range(NOTE, &ReadTarget::Block(id.into()));
    let sel = read("^run-1").unwrap();
    assert_eq!(sel.text, "run it ^run-1\n");
    assert_eq!((sel.lines.start, sel.lines.end), (14, 14));
    assert_eq!(read("item-2").unwrap().text, "- two ^item-2\n");
    let table = read("table").unwrap();
    assert_eq!(table.text, "| a | b |\n|---|---|\n| 1 | 2 |\n\n^table\n");
    assert_eq!((table.lines.start, table.lines.end), (20, 24));
    assert_eq!(read("^nope").unwrap_err().code(), "not_found");
    assert_eq!(read("^bad id").unwrap_err().code(), "invalid_input");
    assert_eq!(read("").unwrap_err().code(), "invalid_input");
}

#[test]
fn duplicate_block_ids_are_ambiguous() {
    let note = "a ^x\n\nb ^x\n";
    let err = read_range(note, &ReadTarget::Block("x".into())).unwrap_err();
    assert_eq!(err.code(), "ambiguous");
    assert!(err.to_string().contains("lines 1, 3"), "{err}");
}

#[test]
fn multibyte_text_is_sliced_on_line_boundaries() {
    let note = "# Été\nçà ^é1\n😀\n";
    let sel = read_range(note, &ReadTarget::Lines { start: 3, end: 3 }).unwrap();
    assert_eq!(sel.text, "😀\n");
    assert_eq!(
        read_range(note, &ReadTarget::Heading("été".into()))
            .unwrap()
            .text,
        note
    );
}

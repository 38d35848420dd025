//! Block-level behaviour of the parser, through `extract`.

use alloc::string::String;
use alloc::vec::Vec;

use super::super::extract;
use super::SectionType;

fn links(text: &str) -> Vec<String> {
    extract(text).links.into_iter().map(|l| l.link).collect()
}

fn tags(text: &str) -> Vec<String> {
    extract(text).tags.into_iter().map(|t| t.tag).collect()
}

fn blocks(text: &str) -> Vec<String> {
    extract(text).blocks.into_iter().map(|b| b.id).collect()
}

#[test]
fn code_fences_hide_everything_until_their_closer() {
    assert_eq!(links("```\n[[a]]\n```\n[[b]]"), ["b"]);
    assert_eq!(links("~~~~ js\n[[a]]\n~~~\n[[b]]\n~~~~\n[[c]]"), ["c"]);
    assert_eq!(links("```\n[[a]]\n``` x\n[[b]]"), Vec::<String>::new());
    assert_eq!(links("> ```\n> [[a]]\n[[b]]"), ["b"]);
    assert_eq!(links("- item\n  ```\n  [[a]]\n  ```\n- [[b]]"), ["b"]);
}

#[test]
fn indented_code_needs_no_open_paragraph() {
    assert_eq!(tags("    #a\n\npara\n    #b\n\n    #c"), ["#b"]);
    // Four columns past the item's content column: code inside the item.
    assert_eq!(tags("- item\n\n      #d\n\n    #e"), ["#e"]);
    assert_eq!(tags("# H\n    #f"), Vec::<String>::new());
}

#[test]
fn multi_line_comments_and_math() {
    assert_eq!(links("a %% b\n[[x]]\n# h\nc %% [[y]]"), ["y"]);
    assert_eq!(extract("a %% b\n# h\nc %% d").headings.len(), 0);
    assert_eq!(links("%%\n[[x]]"), Vec::<String>::new());
    assert_eq!(tags("$$\n#x\n$$ #y"), ["#y"]);
    assert_eq!(tags("<!--\n#x\n--> #y"), ["#y"]);
    assert_eq!(tags("a $$ #x no closer"), ["#x"]);
}

#[test]
fn html_blocks_hide_their_lines() {
    assert_eq!(tags("<div>\nhello #a\n</div>\n\n#b"), ["#b"]);
    assert_eq!(tags("<pre>\n#a\n\n#b\n</pre>\n#c"), ["#c"]);
    assert_eq!(tags("<span>\n#a"), ["#a"]);
}

#[test]
fn headings_atx_and_setext_at_the_top_level_only() {
    let meta = extract("# A\nText\n===\nMore\n---\n> # Q\n- # L\n#nope");
    let headings: Vec<(u8, &str)> = meta
        .headings
        .iter()
        .map(|h| (h.level, h.heading.as_str()))
        .collect();
    assert_eq!(headings, [(1, "A"), (1, "Text"), (2, "More")]);
    assert_eq!(meta.tags.len(), 1);
    assert_eq!(extract("a\n\n---\n").headings.len(), 0);
    assert_eq!(extract("- a\n  ---").headings.len(), 0);
}

#[test]
fn block_ids_end_blocks() {
    assert_eq!(blocks("a ^one\nb ^two\n\n^three"), ["two", "three"]);
    assert_eq!(blocks("- a ^x\n- b ^y\n  more"), ["x"]);
    assert_eq!(blocks("# H ^no\n`^no`\n^yes"), ["yes"]);
    assert_eq!(blocks("> q\n^lazy\n"), ["lazy"]);
    let meta = extract("- a ^x\n");
    assert_eq!(meta.list_items[0].id.as_deref(), Some("x"));
}

#[test]
fn lists_nest_and_tasks_take_any_status() {
    let meta = extract(
        "- [ ] a\n  - [x] b\n    1. [/] c\n- [-] d\n\t- [>] e\n* f\n\npara\n2. not a list after a paragraph",
    );
    let items: Vec<(Option<char>, Option<usize>, &str)> = meta
        .list_items
        .iter()
        .map(|i| (i.task, i.parent, i.text.as_str()))
        .collect();
    assert_eq!(
        items,
        [
            (Some(' '), None, "a"),
            (Some('x'), Some(0), "b"),
            (Some('/'), Some(1), "c"),
            (Some('-'), None, "d"),
            (Some('>'), Some(3), "e"),
            (None, None, "f"),
        ]
    );
    // `*` after `-` starts a new list; the paragraph is its own section.
    assert_eq!(meta.sections.len(), 3);
}

#[test]
fn callouts_nest_and_end_with_their_blockquote() {
    let meta = extract("> [!Note]+ T\n> > [!tip|wide] U\n>\n> x\nlazy\n\n> plain");
    let callouts: Vec<(&str, usize, usize)> = meta
        .callouts
        .iter()
        .map(|c| (c.callout_type.as_str(), c.depth, c.position.end.line))
        .collect();
    assert_eq!(callouts, [("note", 1, 4), ("tip", 2, 1)]);
    // A deeper paragraph continues lazily (CommonMark): `x` belongs to the tip.
    let lazy = extract("> [!note]\n> > [!tip] U\n> x\n");
    assert_eq!(lazy.callouts[1].position.end.line, 2);
    assert_eq!(meta.callouts[1].metadata.as_deref(), Some("wide"));
    let kinds: Vec<_> = meta.sections.iter().map(|s| s.section_type).collect();
    assert_eq!(kinds, [SectionType::Callout, SectionType::Blockquote]);
}

#[test]
fn crlf_and_bom() {
    let meta = extract("\u{feff}---\r\na: 1\r\n---\r\n# T\r\n[[x]] #y ^z\r\n");
    assert_eq!(
        meta.frontmatter.as_ref().map(|f| f.yaml.as_str()),
        Some("a: 1")
    );
    assert_eq!(meta.headings[0].heading, "T");
    assert_eq!(meta.links[0].position.end.col, 5);
    assert_eq!(meta.tags[0].tag, "#y");
    assert_eq!(meta.blocks[0].id, "z");
}

#[test]
fn tables_make_pipes_tag_boundaries() {
    let meta = extract("|a|b|\n|-|-|\n|#uo|x|\n");
    assert_eq!(meta.tags.len(), 1);
    assert_eq!(meta.sections[0].section_type, SectionType::Table);
}

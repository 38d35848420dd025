//! The lexical view's per-caller views: one kept per ACL view key until the index changes,
//! each scoring with the statistics of its readable chunks.

use std::collections::HashMap;
use std::sync::Arc;

use obsidian_tc::index::lexical::{KEPT_VIEWS, LexicalView};
use obsidian_tc::store::{ChunkRow, NoteFields};

fn chunk(chunk_id: i64, path: &str, text: &str) -> ChunkRow {
    ChunkRow {
        chunk_id,
        path: path.to_owned(),
        ordinal: 0,
        headings: Vec::new(),
        text: text.to_owned(),
    }
}

fn view() -> LexicalView {
    let chunks = vec![
        chunk(1, "Public/a.md", "the merger of two clubs"),
        chunk(2, "Secret/b.md", "merger merger plans"),
        chunk(3, "Secret/c.md", "merger terms"),
    ];
    LexicalView::build(chunks, &HashMap::new())
}

fn public(path: &str) -> bool {
    path.starts_with("Public/")
}

#[test]
fn a_view_is_kept_per_key_and_dropped_when_the_index_changes() {
    let mut view = view();
    let first = view.visible("acl-1", &public);
    assert_eq!(first.len(), 1);
    // The same key gives the kept view (the predicate is not asked again).
    let again = view.visible("acl-1", &|_| panic!("asked again"));
    assert!(Arc::ptr_eq(&first, &again));
    // Another key (another ACL or other scopes) is another view.
    let everything = view.visible("acl-2", &|_| true);
    assert_eq!(everything.len(), 3);
    // A change of the index drops the kept views.
    view.insert(
        chunk(4, "Public/d.md", "another merger"),
        &NoteFields::default(),
    );
    let fresh = view.visible("acl-1", &public);
    assert!(!Arc::ptr_eq(&first, &fresh));
    assert_eq!(fresh.len(), 2);
    view.remove(&[4]);
    assert_eq!(view.visible("acl-1", &public).len(), 1);
}

#[test]
fn hidden_chunks_change_no_score_and_never_show() {
    let view = view();
    let only_public = LexicalView::build(
        vec![chunk(1, "Public/a.md", "the merger of two clubs")],
        &HashMap::new(),
    );
    let restricted = view.search(&view.visible("acl", &public), "merger", 10);
    let alone = only_public.search(&only_public.visible("all", &|_| true), "merger", 10);
    assert_eq!(restricted, alone);
    assert_eq!(restricted[0].score.to_bits(), alone[0].score.to_bits());
    let open = view.search(&view.visible("all", &|_| true), "merger", 10);
    assert_eq!(open.len(), 3);
}

#[test]
fn at_most_kept_views_are_kept_the_oldest_going_first() {
    let view = view();
    let first = view.visible("key-0", &public);
    for i in 1..KEPT_VIEWS {
        view.visible(&format!("key-{i}"), &public);
    }
    assert!(Arc::ptr_eq(
        &first,
        &view.visible("key-0", &|_| panic!("kept"))
    ));
    view.visible("one-more", &public);
    let rebuilt = view.visible("key-0", &public);
    assert!(!Arc::ptr_eq(&first, &rebuilt));
}

#[test]
fn a_snapshot_restores_the_view_of_its_own_chunks_and_hands_other_chunks_back() {
    let saved = view();
    let bytes = saved.snapshot();
    let chunks = || {
        vec![
            chunk(1, "Public/a.md", "the merger of two clubs"),
            chunk(2, "Secret/b.md", "merger merger plans"),
            chunk(3, "Secret/c.md", "merger terms"),
        ]
    };
    let restored = LexicalView::restore(&bytes, chunks()).expect("its own chunks");
    assert_eq!(restored.len(), 3);
    // Another chunk set (one renamed, one missing) and bytes that are no index: the chunks
    // come back whole, in order, for the caller to build the view from.
    let mut renamed = chunks();
    renamed[2].path = "Secret/d.md".to_owned();
    assert_eq!(
        LexicalView::restore(&bytes, renamed.clone()).err(),
        Some(renamed)
    );
    let fewer = chunks()[..2].to_vec();
    assert_eq!(
        LexicalView::restore(&bytes, fewer.clone()).err(),
        Some(fewer)
    );
    assert_eq!(
        LexicalView::restore(b"not an index", chunks()).err(),
        Some(chunks())
    );
}

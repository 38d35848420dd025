//! The tool catalog's embeddings (`CatalogVectors`): one embedding per catalog and model,
//! again when either changes, nothing kept from a failure, and read back from `cache.db` by a
//! restarted server instead of embedding again.

use std::cell::Cell;
use std::sync::Arc;

use obsidian_tc::errors::ToolError;
use obsidian_tc::runtime::{CatalogDocument, CatalogSet, CatalogVectors};
use obsidian_tc::store::Store;

use crate::support::store::{db_path, open};

fn doc(id: &'static str, text: &str) -> CatalogDocument {
    CatalogDocument {
        id: id.to_owned(),
        text: text.to_owned(),
    }
}

/// Each text embeds as its length, counting the calls.
fn get(
    (cache, store): (&CatalogVectors, &Store),
    calls: &Cell<usize>,
    space: &str,
    documents: &[CatalogDocument],
) -> Arc<CatalogSet> {
    cache
        .get_or_embed(store, space, documents, |texts| {
            calls.set(calls.get() + 1);
            Ok(texts.iter().map(|text| vec![text.len() as f32]).collect())
        })
        .expect("embedded")
}

#[test]
fn a_catalog_embeds_once_and_again_when_it_or_the_model_changes() {
    let (_dir, path) = db_path();
    let store = open(&path);
    let cache = CatalogVectors::default();
    let at = (&cache, &store);
    let calls = Cell::new(0);
    let catalog = [doc("read_note", "read"), doc("move_note", "rename")];
    let set = get(at, &calls, "minilm", &catalog);
    assert_eq!(set["read_note"], vec![4.0]);
    assert_eq!(set["move_note"], vec![6.0]);
    get(at, &calls, "minilm", &catalog);
    assert_eq!(calls.get(), 1);
    let changed = [doc("read_note", "read a note"), doc("move_note", "rename")];
    assert_eq!(get(at, &calls, "minilm", &changed)["read_note"], vec![11.0]);
    assert_eq!(calls.get(), 2);
    get(at, &calls, "e5", &changed);
    assert_eq!(calls.get(), 3);
    // Text moved from one document's id into another's is another catalog.
    get(at, &calls, "e5", &[doc("a", "bc")]);
    get(at, &calls, "e5", &[doc("ab", "c")]);
    assert_eq!(calls.get(), 5);
}

/// A restarted server (new memory, same cache.db) reads the saved set back; only the latest
/// catalog is saved.
#[test]
fn a_restart_reads_the_saved_catalog_instead_of_embedding_again() {
    let (_dir, path) = db_path();
    let calls = Cell::new(0);
    let catalog = [doc("read_note", "read"), doc("move_note", "rename")];
    let first = {
        let store = open(&path);
        get(
            (&CatalogVectors::default(), &store),
            &calls,
            "minilm",
            &catalog,
        )
    };
    let store = open(&path);
    let restarted = CatalogVectors::default();
    let again = get((&restarted, &store), &calls, "minilm", &catalog);
    assert_eq!(calls.get(), 1, "read back, not embedded again");
    assert_eq!(again, first);
    // Another catalog replaces it: going back embeds again.
    let other = [doc("read_note", "show")];
    get((&restarted, &store), &calls, "minilm", &other);
    get(
        (&CatalogVectors::default(), &store),
        &calls,
        "minilm",
        &catalog,
    );
    assert_eq!(calls.get(), 3);
}

#[test]
fn a_failure_or_a_short_answer_keeps_nothing() {
    let (_dir, path) = db_path();
    let store = open(&path);
    let cache = CatalogVectors::default();
    let catalog = [doc("a", "x"), doc("b", "y")];
    let down = cache.get_or_embed(&store, "s", &catalog, |_| Err(ToolError::internal("down")));
    assert_eq!(down.expect_err("down").message, "down");
    let short = cache
        .get_or_embed(&store, "s", &catalog, |_| Ok(vec![vec![1.0]]))
        .expect_err("short");
    assert!(
        short.message.contains("2 documents were embedded as 1"),
        "{short}"
    );
    let calls = Cell::new(0);
    get((&cache, &store), &calls, "s", &catalog);
    assert_eq!(calls.get(), 1);
}

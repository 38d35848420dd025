//! The note ranking the server and TC Bridge share (`LexicalIndex::rank_notes`): typo
//! tolerance, the title boost, and that a hidden note changes nothing a caller sees.

use engine_core::markdown::{ChunkOptions, extract, index_chunks, note_fields};
use engine_core::rank::{Bm25Params, Document, LexicalIndex, NoteHit, NoteRanking, chunk_key};
use engine_core::text::AnalyzerSettings;
use serde_json::Map;

/// An index of `notes` (path, text) chunked and fielded as the server indexes them.
fn index_of(notes: &[(&str, &str)]) -> LexicalIndex {
    let mut index = LexicalIndex::new(AnalyzerSettings::default(), Bm25Params::default())
        .expect("default parameters");
    for (path, text) in notes {
        let meta = extract(text);
        let fields = note_fields(path, &meta, &Map::new());
        for chunk in index_chunks(text, &meta, &ChunkOptions::default()) {
            let document = Document {
                title: fields.title.clone(),
                aliases: fields.aliases.clone(),
                headings: chunk.headings.clone(),
                tags: fields.tags.clone(),
                body: chunk.text,
            };
            index
                .upsert(&chunk_key(path, chunk.index as u32), &document)
                .expect("indexed");
        }
    }
    index
}

fn paths(hits: &[NoteHit]) -> Vec<&str> {
    hits.iter().map(|hit| hit.path.as_str()).collect()
}

fn rank(index: &LexicalIndex, query: &str, ranking: &NoteRanking) -> Vec<NoteHit> {
    index
        .rank_notes(None, query, 10, ranking, &mut |_| true)
        .expect("current")
}

const VAULT: &[(&str, &str)] = &[
    ("Weekly review.md", "Look back at the week.\n"),
    (
        "Weekly habits and review log.md",
        "Each weekly review: review the weekly review notes, review the goals.\n",
    ),
    ("Recipes/Bread.md", "Flour, water, salt and time.\n"),
];

#[test]
fn a_misspelt_word_finds_the_note_below_an_exact_one() {
    let index = index_of(VAULT);
    let on = NoteRanking::default();
    let off = NoteRanking { fuzzy: false, ..on };
    assert!(
        rank(&index, "bred", &off).is_empty(),
        "no note has the word as typed"
    );
    assert_eq!(paths(&rank(&index, "bred", &on)), ["Recipes/Bread.md"]);
    // A word the vault knows is searched as typed, never widened.
    assert_eq!(paths(&rank(&index, "salt", &on)), ["Recipes/Bread.md"]);
    let exact = rank(&index, "bread", &on);
    let typo = rank(&index, "bred", &on);
    assert!(typo[0].score < exact[0].score, "a stand-in weighs less");
}

#[test]
fn the_note_named_by_the_query_comes_first_with_the_title_boost() {
    let index = index_of(VAULT);
    let off = NoteRanking {
        title_boost: 0.0,
        ..NoteRanking::default()
    };
    // The log says "weekly" and "review" more often; the other title says exactly them.
    assert_eq!(
        rank(&index, "weekly review", &off)[0].path,
        "Weekly habits and review log.md"
    );
    let on = rank(&index, "weekly review", &NoteRanking::default());
    assert_eq!(on[0].path, "Weekly review.md");
    assert_eq!(
        on[0].chunk_score,
        rank(&index, "weekly review", &off)[1].score
    );
}

#[test]
fn a_note_with_only_frontmatter_is_found_by_its_title_and_properties() {
    let index = index_of(&[
        (
            "Kyoto.md",
            "---\ncoordinates: [35.01, 135.76]\ncountry: Japan\n---\n",
        ),
        ("Empty.md", ""),
        ("Other.md", "Some text about Japan.\n"),
    ]);
    let ranking = NoteRanking::default();
    assert_eq!(paths(&rank(&index, "kyoto", &ranking)), ["Kyoto.md"]);
    assert_eq!(paths(&rank(&index, "coordinates", &ranking)), ["Kyoto.md"]);
    assert_eq!(paths(&rank(&index, "empty", &ranking)), ["Empty.md"]);
}

#[test]
fn a_hidden_note_changes_no_visible_score_or_stand_in() {
    // The hidden notes hold "breed" and "brew", as close to the typo "bred" as "bread" and in
    // more notes: if hidden notes counted, they would take both stand-in places.
    let mut notes = VAULT.to_vec();
    notes.push(("Secret/Dogs.md", "breed brew breed"));
    notes.push(("Secret/Cats.md", "breed brew"));
    let full = index_of(&notes);
    let alone = index_of(VAULT);
    let ranking = NoteRanking::default();
    let visible = full.visible_notes(&mut |path| !path.starts_with("Secret/"));
    for query in ["bred", "weekly review", "reviw", "salt water"] {
        let seen = full
            .rank_notes(Some(&visible), query, 10, &ranking, &mut |_| true)
            .expect("current");
        let want = rank(&alone, query, &ranking);
        let bits = |hits: &[NoteHit]| -> Vec<(String, u32)> {
            hits.iter()
                .map(|hit| (hit.path.clone(), hit.score.to_bits()))
                .collect()
        };
        assert_eq!(bits(&seen), bits(&want), "{query}");
    }
}

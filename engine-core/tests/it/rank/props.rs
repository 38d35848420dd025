//! Property tests of engine_core::rank: the index is history-independent (scores and
//! bytes), top-k is a prefix of the full ranking, decoding never panics, and vector and
//! fusion functions keep their documented invariants.

use std::collections::BTreeMap;

use engine_core::rank::{
    AnalyzerStamp, Bm25Params, Field, FieldWeights, InvertedIndex, Normalization, RankedList,
    ScoredDoc, ScoredList, cosine, dot, fuse_scores, rrf,
};
use proptest::prelude::*;

/// A document: terms per field, drawn from a small vocabulary so that terms repeat.
type Doc = [Vec<String>; Field::COUNT];

#[derive(Debug, Clone)]
enum Op {
    Upsert(String, Doc),
    Remove(String),
}

fn term() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["a", "b", "c", "d", "e", "é", "東京", "🦀", ""])
        .prop_map(String::from)
}

fn doc() -> impl Strategy<Value = Doc> {
    let field = || prop::collection::vec(term(), 0..6);
    (field(), field(), field(), field(), field()).prop_map(|(a, b, c, d, e)| [a, b, c, d, e])
}

fn id() -> impl Strategy<Value = String> {
    prop::sample::select(vec!["n1", "n2", "n3", "N1", "ü", "n10", "x"]).prop_map(String::from)
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (id(), doc()).prop_map(|(i, d)| Op::Upsert(i, d)),
        1 => id().prop_map(Op::Remove),
    ]
}

fn params() -> impl Strategy<Value = Bm25Params> {
    (
        0.0f32..3.0,
        0.0f32..=1.0,
        prop::array::uniform5(0.0f32..4.0),
    )
        .prop_map(|(k1, b, w)| Bm25Params {
            k1,
            b,
            weights: FieldWeights::from_array(w),
        })
}

fn upsert(index: &mut InvertedIndex, id: &str, doc: &Doc) {
    let fields: Vec<(Field, &[String])> = Field::ALL
        .iter()
        .map(|f| (*f, &doc[f.index()][..]))
        .collect();
    index.upsert(id, &fields).unwrap();
}

/// The index after `ops`, and the final content as a map.
fn apply(params: Bm25Params, ops: &[Op]) -> (InvertedIndex, BTreeMap<String, Doc>) {
    let mut index = InvertedIndex::new(params).unwrap();
    let mut state = BTreeMap::new();
    for op in ops {
        match op {
            Op::Upsert(id, doc) => {
                upsert(&mut index, id, doc);
                state.insert(id.clone(), doc.clone());
            }
            Op::Remove(id) => {
                assert_eq!(index.remove(id), state.remove(id).is_some());
            }
        }
    }
    (index, state)
}

fn fresh(params: Bm25Params, state: &BTreeMap<String, Doc>) -> InvertedIndex {
    let mut index = InvertedIndex::new(params).unwrap();
    // insert in reverse order so ordinals differ from the churned index
    for (id, doc) in state.iter().rev() {
        upsert(&mut index, id, doc);
    }
    index
}

fn is_ranked(results: &[ScoredDoc]) -> bool {
    results
        .windows(2)
        .all(|w| w[0].score > w[1].score || (w[0].score == w[1].score && w[0].id < w[1].id))
}

proptest! {
    #[test]
    fn history_does_not_change_scores_or_bytes(
        params in params(),
        ops in prop::collection::vec(op(), 0..25),
        query in prop::collection::vec(term(), 0..5),
    ) {
        let (churned, state) = apply(params, &ops);
        let rebuilt = fresh(params, &state);
        prop_assert_eq!(churned.len(), state.len());
        let a = churned.search_terms(&query, 100);
        let b = rebuilt.search_terms(&query, 100);
        prop_assert_eq!(&a, &b);
        let stamp = AnalyzerStamp { fingerprint: "f".into(), settings: "{}".into() };
        prop_assert_eq!(churned.to_bytes(&stamp), rebuilt.to_bytes(&stamp));
    }

    #[test]
    fn bytes_round_trip(params in params(), ops in prop::collection::vec(op(), 0..20),
                       query in prop::collection::vec(term(), 0..4)) {
        let (index, _) = apply(params, &ops);
        let stamp = AnalyzerStamp { fingerprint: "fp".into(), settings: String::new() };
        let bytes = index.to_bytes(&stamp);
        let (back, got) = InvertedIndex::from_bytes(&bytes).unwrap();
        prop_assert_eq!(got, stamp.clone());
        prop_assert_eq!(back.to_bytes(&stamp), bytes);
        prop_assert_eq!(back.search_terms(&query, 50), index.search_terms(&query, 50));
    }

    #[test]
    fn top_k_is_a_prefix_of_the_ranking(params in params(), ops in prop::collection::vec(op(), 0..20),
                                        query in prop::collection::vec(term(), 0..5), k in 0usize..8) {
        let (index, _) = apply(params, &ops);
        let all = index.search_terms(&query, usize::MAX);
        prop_assert!(is_ranked(&all));
        prop_assert!(all.iter().all(|d| d.score.is_finite() && d.score >= 0.0));
        let top = index.search_terms(&query, k);
        prop_assert_eq!(&top[..], &all[..k.min(all.len())]);
    }

    #[test]
    fn decoding_arbitrary_or_altered_bytes_never_panics(
        noise in prop::collection::vec(any::<u8>(), 0..200),
        ops in prop::collection::vec(op(), 0..6),
        at in any::<prop::sample::Index>(),
        byte in any::<u8>(),
        cut in any::<prop::sample::Index>(),
    ) {
        let _ = InvertedIndex::from_bytes(&noise);
        let (index, _) = apply(Bm25Params::default(), &ops);
        let mut bytes = index.to_bytes(&AnalyzerStamp::default());
        let _ = InvertedIndex::from_bytes(&bytes[..cut.index(bytes.len())]);
        let i = at.index(bytes.len());
        let changed = bytes[i] != byte;
        bytes[i] = byte;
        let decoded = InvertedIndex::from_bytes(&bytes);
        prop_assert!(!changed || decoded.is_err());
    }

    #[test]
    fn cosine_and_dot_are_symmetric_and_bounded(
        pair in (1usize..40).prop_flat_map(|n| (
            prop::collection::vec(-100.0f32..100.0, n),
            prop::collection::vec(-100.0f32..100.0, n),
        ))
    ) {
        let (a, b) = pair;
        let c = cosine(&a, &b).unwrap();
        prop_assert!((-1.0..=1.0).contains(&c));
        prop_assert_eq!(c.to_bits(), cosine(&b, &a).unwrap().to_bits());
        prop_assert_eq!(dot(&a, &b).unwrap().to_bits(), dot(&b, &a).unwrap().to_bits());
    }

    #[test]
    fn fusion_outputs_rank_the_union_of_ids(
        lists in prop::collection::vec(
            (0.0f64..3.0, prop::collection::vec((id(), -10.0f64..10.0), 0..8)), 0..4),
        k in 0.0f64..100.0,
    ) {
        let ranked: Vec<RankedList> = lists.iter().map(|(w, hits)| RankedList {
            weight: *w,
            ids: hits.iter().map(|(i, _)| i.clone()).collect(),
        }).collect();
        let scored: Vec<ScoredList> = lists.iter().map(|(w, hits)| ScoredList {
            weight: *w,
            hits: hits.iter().map(|(i, s)| engine_core::rank::Hit { id: i.clone(), score: *s }).collect(),
        }).collect();
        let mut union: Vec<String> = lists.iter().filter(|(w, _)| *w > 0.0)
            .flat_map(|(_, hits)| hits.iter().map(|(i, _)| i.clone())).collect();
        union.sort();
        union.dedup();
        let outputs = [
            rrf(&ranked, k).unwrap(),
            fuse_scores(&scored, Normalization::MinMax).unwrap(),
            fuse_scores(&scored, Normalization::ZScore).unwrap(),
        ];
        for (n, out) in outputs.iter().enumerate() {
            let mut ids: Vec<String> = out.iter().map(|h| h.id.clone()).collect();
            prop_assert!(out.windows(2).all(|w| w[0].score > w[1].score
                || (w[0].score == w[1].score && w[0].id < w[1].id)));
            ids.sort();
            prop_assert_eq!(&ids, &union);
            if n == 1 {
                prop_assert!(out.iter().all(|h| (-1e-12..=1.0 + 1e-12).contains(&h.score)));
            }
        }
    }
}

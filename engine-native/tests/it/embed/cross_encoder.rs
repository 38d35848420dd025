//! The reranker (`search.rerank`) against PyTorch on the tiny cross-encoders of
//! `tests/fixtures/tiny-cross-encoders` (made by `tests/vectors/gen/tiny_cross_encoder.py`: a
//! BERT one like ms-marco-MiniLM and an XLM-RoBERTa one like bge-reranker, random weights):
//! query–passage pairs tokenize to transformers' ids (the longer text cut first at the
//! model's positions) and score to sentence-transformers' logits; a sentence-transformer or
//! a folder without ONNX is refused saying why; `search_vault` reorders its first notes by the
//! model and, when the model cannot be loaded, answers in its own order saying so. The ONNX
//! checks skip, saying so, without `OBSIDIAN_TC_ONNXRUNTIME`.

use std::path::{Path, PathBuf};

use obsidian_tc::embed::local::CrossEncoder;
use obsidian_tc::embed::local::encoder::{TokenBatch, load_tokenizer};
use obsidian_tc::embed::local::model_files::ModelFiles;
use obsidian_tc::embed::local::onnx_library::LIBRARY_VAR;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, result_paths};

/// The most a logit may differ from PyTorch's (they are about 0.1-0.5 here; ONNX Runtime in
/// Python reaches 5e-7, see `onnx_max_abs_diff` in reference.json).
const LOGIT_TOLERANCE: f64 = 1e-4;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures")
}

/// Every tiny cross-encoder: its folder and its reference.json.
fn cross_encoders() -> Vec<(PathBuf, Value)> {
    ["ms-marco-like", "bge-reranker-like"]
        .iter()
        .map(|name| {
            let folder = fixtures().join("tiny-cross-encoders").join(name);
            let text = std::fs::read_to_string(folder.join("reference.json")).expect("reference");
            (folder, serde_json::from_str(&text).expect("reference json"))
        })
        .collect()
}

/// Whether the ONNX Runtime library is there (`scripts/test.sh` sets it); says so when not.
fn have_runtime(test: &str) -> bool {
    let there = std::env::var_os(LIBRARY_VAR).is_some();
    if !there {
        eprintln!("skipped {test}: set {LIBRARY_VAR} to libonnxruntime, as scripts/test.sh does");
    }
    there
}

fn load(folder: &Path) -> Result<CrossEncoder, String> {
    let env = |name: &str| std::env::var(name).ok();
    CrossEncoder::load(&folder.display().to_string(), &env, Some(1)).map_err(|e| e.to_string())
}

fn pairs(reference: &Value) -> &Vec<Value> {
    reference["pairs"].as_array().expect("pairs")
}

#[test]
fn pairs_tokenize_as_transformers_with_the_longer_text_cut_first() {
    for (folder, reference) in cross_encoders() {
        let files = ModelFiles::read(&folder, "tiny").expect("model files");
        assert_eq!(
            files.max_tokens as u64,
            reference["positions"].as_u64().expect("positions")
        );
        let tokenizer =
            load_tokenizer(&folder.join("tokenizer.json"), files.max_tokens).expect("tokenizer");
        let mut cut = 0;
        for pair in pairs(&reference) {
            let query = pair["query"].as_str().expect("query");
            let passage = pair["passage"].as_str().expect("passage");
            let batch = TokenBatch::encode_pairs(&tokenizer, query, &[passage]).expect("encode");
            let want: Vec<u32> = serde_json::from_value(pair["input_ids"].clone()).expect("ids");
            assert_eq!(
                batch.ids,
                want,
                "{}: {query:?} / {passage:?}",
                folder.display()
            );
            cut += usize::from(want.len() == files.max_tokens);
        }
        assert!(cut >= 5, "the long pairs reach the positions and are cut");
    }
}

#[test]
fn tiny_cross_encoders_score_pairs_as_pytorch() {
    if !have_runtime("tiny_cross_encoders_score_pairs_as_pytorch") {
        return;
    }
    for (folder, reference) in cross_encoders() {
        let model = load(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        assert!(model.model_id().contains('@'), "{}", model.model_id());
        assert!(model.file().ends_with("onnx/model.onnx"));
        let all = pairs(&reference);
        let queries: Vec<&str> = all
            .iter()
            .map(|pair| pair["query"].as_str().expect("query"))
            .fold(Vec::new(), |mut queries, query| {
                if !queries.contains(&query) {
                    queries.push(query);
                }
                queries
            });
        for query in queries {
            let of_query: Vec<&Value> = all.iter().filter(|p| p["query"] == query).collect();
            let passages: Vec<&str> = of_query
                .iter()
                .map(|pair| pair["passage"].as_str().expect("passage"))
                .collect();
            let scores = model.score(query, &passages).expect("score");
            assert_eq!(scores.len(), passages.len());
            for (score, pair) in scores.iter().zip(&of_query) {
                let want = pair["logit"].as_f64().expect("logit");
                assert!(
                    (f64::from(*score) - want).abs() <= LOGIT_TOLERANCE,
                    "{}: {query:?} / {:?}: {score} against PyTorch's {want}",
                    folder.display(),
                    pair["passage"]
                );
            }
        }
    }
}

#[test]
fn a_sentence_transformer_or_a_folder_without_onnx_is_not_a_reranker() {
    if !have_runtime("a_sentence_transformer_or_a_folder_without_onnx_is_not_a_reranker") {
        return;
    }
    // A sentence-transformer's graph gives token vectors, not one score per pair.
    let embedder = fixtures().join("tiny-models").join("minilm-like");
    let model = load(&embedder).expect("the graph loads");
    let error = model
        .score("cat", &["the cat sits"])
        .expect_err("token vectors are no scores")
        .to_string();
    assert!(
        error.contains("a cross-encoder with a single label is needed"),
        "{error}"
    );

    let bare = tempfile::tempdir().expect("tempdir");
    let source = fixtures().join("tiny-cross-encoders").join("ms-marco-like");
    for file in ["config.json", "tokenizer.json"] {
        std::fs::copy(source.join(file), bare.path().join(file)).expect("copy");
    }
    let error = load(bare.path()).err().expect("no ONNX file");
    assert!(error.contains("has no ONNX model"), "{error}");
    assert!(error.contains("optimum-cli export onnx"), "{error}");
}

/// A vault of notes that all mention landers, indexed, served with `search`.
fn landers(search: Value) -> Fixture {
    let fx = Fixture::new(json!({"throttle": {"enabled": false}, "search": search}));
    for (name, body) in [
        ("Moon", "The lander, the lander, a lander on the moon."),
        ("Mars", "A lander on Mars, with a rover and a lander."),
        ("Venus", "No lander lasted long on Venus."),
        ("Titan", "A lander under the haze of Titan."),
        ("Europa", "A lander for the ice of Europa, one day."),
        ("Ceres", "Dawn orbited Ceres; no lander."),
    ] {
        fx.write(
            "main",
            &format!("{name}.md"),
            &format!("# {name}\n\n{body}\n"),
        );
    }
    fx.ok("index_vault", json!({}));
    fx
}

fn search(fx: &Fixture, limit: usize, cursor: Option<&str>) -> Value {
    let mut args = json!({"query": "lander", "mode": "lexical", "limit": limit});
    if let Some(cursor) = cursor {
        args["cursor"] = json!(cursor);
    }
    fx.ok("search_vault", args)
}

#[test]
fn search_reorders_its_first_notes_by_the_reranker_and_pages_stay_consistent() {
    if !have_runtime("search_reorders_its_first_notes_by_the_reranker") {
        return;
    }
    let model = fixtures().join("tiny-cross-encoders").join("ms-marco-like");
    let plain = search(&landers(json!({})), 10, None);
    assert!(plain.get("rerank").is_none(), "off by default: {plain}");
    let plain = result_paths(&plain);
    assert_eq!(plain.len(), 6);

    let fx = landers(json!({"rerank": {"model": model.display().to_string(), "depth": 4}}));
    let found = search(&fx, 10, None);
    let report = &found["rerank"];
    assert_eq!(report["notes"], 4, "{report}");
    assert!(
        report["model"].as_str().expect("model").contains('@'),
        "{report}"
    );
    assert!(report.get("error").is_none(), "{report}");
    let paths = result_paths(&found);
    let mut head = paths[..4].to_vec();
    let mut plain_head = plain[..4].to_vec();
    head.sort();
    plain_head.sort();
    assert_eq!(head, plain_head, "the same first notes, reordered");
    assert_eq!(paths[4..], plain[4..], "the rest keep their order");
    let rerank: Vec<f64> = found["results"]
        .as_array()
        .expect("results")
        .iter()
        .take(4)
        .map(|hit| hit["scores"]["rerank"].as_f64().expect("rerank score"))
        .collect();
    assert!(
        rerank.windows(2).all(|pair| pair[0] >= pair[1]),
        "by the reranker's score: {rerank:?}"
    );
    assert!(found["results"][4]["scores"].get("rerank").is_none());

    // Pages of 3 add up to the same ranking: none repeated or skipped.
    let first = search(&fx, 3, None);
    let cursor = first["cursor"].as_str().expect("a second page");
    let second = search(&fx, 3, Some(cursor));
    let paged: Vec<String> = result_paths(&first)
        .into_iter()
        .chain(result_paths(&second))
        .collect();
    assert_eq!(paged, paths);
}

#[test]
fn a_reranker_that_cannot_be_loaded_leaves_the_order_and_says_why() {
    let plain = result_paths(&search(&landers(json!({})), 10, None));
    let fx = landers(json!({"rerank": {"model": "/nonexistent/reranker"}}));
    let found = search(&fx, 10, None);
    assert_eq!(result_paths(&found), plain);
    let error = found["rerank"]["error"].as_str().expect("the reason");
    assert!(
        error.contains("the reranker /nonexistent/reranker cannot be loaded"),
        "{error}"
    );
    assert_eq!(found["rerank"]["notes"], 0);
    assert!(found["results"][0]["scores"].get("rerank").is_none());
}

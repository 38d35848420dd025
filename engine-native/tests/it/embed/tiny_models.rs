//! The candle engine against PyTorch on the tiny models of `tests/fixtures/tiny-models` (made by
//! `tests/vectors/gen/tiny_models.py`: one per supported architecture, tokenizer and pooling,
//! random weights with a fixed seed): every text's query and document vector agrees with
//! sentence-transformers' to cosine 0.9999; prefixes come from the folder or the known-model
//! table; an unknown architecture is the typed error; fingerprints tell models, prefixes and
//! poolings apart. The same models' ONNX exports run by ONNX Runtime agree with PyTorch too:
//! the f32 graph to cosine 0.9999, the int8 one (`onnxruntime.quantization.quantize_dynamic`)
//! to 0.99 (skipped, saying so, without `OBSIDIAN_TC_ONNXRUNTIME`).

use std::path::{Path, PathBuf};

use obsidian_tc::embed::{EmbedError, EmbedKind, EmbeddingProvider, LocalProvider, Pooling};
use serde_json::Value;

/// The least cosine between our vector and PyTorch's for the f32 weights.
const F32_AGREEMENT: f32 = 0.9999;

/// The least cosine between our vector and PyTorch's for int8 weights.
const INT8_AGREEMENT: f32 = 0.99;

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/tiny-models")
}

/// Every tiny model: its folder and its reference.json.
fn tiny_models() -> Vec<(PathBuf, Value)> {
    let mut models: Vec<(PathBuf, Value)> = std::fs::read_dir(fixtures())
        .expect("tests/fixtures/tiny-models")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.join("reference.json").is_file())
        .map(|folder| {
            let text = std::fs::read_to_string(folder.join("reference.json")).expect("reference");
            (folder, serde_json::from_str(&text).expect("reference json"))
        })
        .collect();
    models.sort_by(|a, b| a.0.cmp(&b.0));
    models
}

fn model(name: &str) -> (PathBuf, Value) {
    tiny_models()
        .into_iter()
        .find(|(folder, _)| folder.ends_with(name))
        .unwrap_or_else(|| panic!("no tiny model {name}"))
}

fn load(folder: &Path, name: &str) -> LocalProvider {
    LocalProvider::load(folder, name, 4).unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
}

fn load_as(reference: &Value) -> &str {
    reference["load_as"].as_str().expect("load_as")
}

fn texts(reference: &Value) -> Vec<&str> {
    reference["texts"]
        .as_array()
        .expect("texts")
        .iter()
        .map(|t| t["text"].as_str().expect("text"))
        .collect()
}

fn reference_vector(reference: &Value, index: usize, kind: &str) -> Vec<f32> {
    serde_json::from_value(reference["texts"][index][kind]["vector"].clone()).expect("vector")
}

fn dot(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// A copy of the tiny model `name` in a temporary folder, changed by `edit`.
fn edited_copy(name: &str, edit: impl FnOnce(&Path)) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    copy_folder(&model(name).0, dir.path());
    edit(dir.path());
    dir
}

fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let path = entry.expect("entry").path();
        let target = to.join(path.file_name().expect("name"));
        if path.is_dir() {
            copy_folder(&path, &target);
        } else {
            std::fs::copy(&path, &target).expect("copy");
        }
    }
}

fn edit_json(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut value: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json");
    edit(&mut value);
    std::fs::write(path, serde_json::to_string(&value).expect("json")).expect("write");
}

#[test]
fn every_architecture_has_a_tiny_model() {
    let architectures: Vec<String> = tiny_models()
        .iter()
        .map(|(_, r)| r["architecture"].as_str().expect("architecture").to_owned())
        .collect();
    assert_eq!(architectures.len(), 5, "{architectures:?}");
    for supported in ["bert", "xlm-roberta"] {
        assert!(architectures.iter().any(|a| a == supported), "{supported}");
    }
}

#[test]
fn candle_vectors_match_pytorch_for_every_tiny_model_query_and_document() {
    for (folder, reference) in tiny_models() {
        let provider = load(&folder, load_as(&reference));
        assert_eq!(
            provider.max_tokens(),
            reference["max_tokens"].as_u64().expect("max") as usize
        );
        agrees_with_pytorch(&provider, &folder, &reference, F32_AGREEMENT);
    }
}

#[test]
fn onnx_runtime_vectors_match_pytorch_for_every_tiny_model_f32_and_int8() {
    use obsidian_tc::embed::local::OnnxProvider;
    use obsidian_tc::embed::local::onnx::OnnxSettings;
    use obsidian_tc::embed::local::onnx_library::{LIBRARY_VAR, load_library};

    let Some(library) = std::env::var_os(LIBRARY_VAR) else {
        eprintln!("skipped: set {LIBRARY_VAR} to libonnxruntime, as scripts/test.sh does");
        return;
    };
    let runtime = load_library(Path::new(&library)).unwrap_or_else(|e| panic!("{e}"));
    let settings = OnnxSettings {
        batch: 4,
        threads: Some(1),
    };
    for (folder, reference) in tiny_models() {
        for (file, least) in [
            ("onnx/model.onnx", F32_AGREEMENT),
            ("onnx/model_quantized.onnx", INT8_AGREEMENT),
        ] {
            let provider = OnnxProvider::load(
                runtime,
                &folder,
                &folder.join(file),
                load_as(&reference),
                settings,
                None,
            )
            .unwrap_or_else(|e| panic!("{} {file}: {e}", folder.display()));
            assert_eq!(provider.fingerprint().engine, "onnxruntime");
            agrees_with_pytorch(&provider, &folder.join(file), &reference, least);
        }
    }
}

/// Every text's query and document vector of `provider` is within cosine `least` of
/// PyTorch's in `reference`, with the reference's dimensions and pooling.
fn agrees_with_pytorch(
    provider: &dyn EmbeddingProvider,
    folder: &Path,
    reference: &Value,
    least: f32,
) {
    {
        let print = provider.fingerprint();
        assert_eq!(
            print.dimensions,
            reference["dimensions"].as_u64().expect("dims") as usize
        );
        assert_eq!(
            print.pooling.as_str(),
            reference["pooling"].as_str().expect("pooling")
        );
        let texts = texts(reference);
        let mut lowest = f32::MAX;
        for (kind, key) in [
            (EmbedKind::Query, "query"),
            (EmbedKind::Document, "document"),
        ] {
            // All texts in one call: batches of 4 with padding to the longest of each.
            let got = provider.embed(&texts, kind).expect("embed");
            for (index, vector) in got.iter().enumerate() {
                let want = reference_vector(reference, index, key);
                let cosine = dot(vector, &want);
                lowest = lowest.min(cosine);
                assert!(
                    cosine >= least,
                    "{} {key} {:?}: cosine {cosine}",
                    folder.display(),
                    texts[index]
                );
            }
        }
        eprintln!("{}: lowest cosine to PyTorch {lowest}", folder.display());
    }
}

#[test]
fn an_unknown_architecture_is_the_typed_error_not_vectors() {
    let dir = edited_copy("minilm-like", |folder| {
        edit_json(&folder.join("config.json"), |config| {
            config["model_type"] = "gpt2".into();
        });
    });
    match LocalProvider::load(dir.path(), "tiny/minilm-like", 4) {
        Err(EmbedError::UnsupportedArchitecture {
            model_type,
            supported,
            ..
        }) => {
            assert_eq!(model_type, "gpt2");
            assert_eq!(supported, ["bert", "xlm-roberta"]);
        }
        Err(other) => panic!("another error: {other}"),
        Ok(_) => panic!("a gpt2 config was loaded"),
    }
}

#[test]
fn the_folders_prompts_change_the_query_vector_as_pytorch_does() {
    let (folder, reference) = model("e5-like");
    assert_eq!(reference["query_prefix"], "query: ");
    assert_eq!(reference["document_prefix"], "passage: ");
    let provider = load(&folder, load_as(&reference));
    let text = texts(&reference)[1];
    let query = &provider.embed(&[text], EmbedKind::Query).expect("query")[0];
    let document = &provider.embed(&[text], EmbedKind::Document).expect("doc")[0];
    assert!(dot(query, document) < 0.99, "{}", dot(query, document));
    assert!(dot(query, &reference_vector(&reference, 1, "query")) >= F32_AGREEMENT);
}

#[test]
fn the_known_table_gives_bge_its_query_instruction_and_only_under_its_name() {
    let (folder, reference) = model("bge-like");
    assert_eq!(load_as(&reference), "BAAI/bge-small-en-v1.5");
    assert!(!folder.join("config_sentence_transformers.json").exists());
    let text = texts(&reference)[1];
    let want_query = reference_vector(&reference, 1, "query");
    let want_document = reference_vector(&reference, 1, "document");

    let bge = load(&folder, "BAAI/bge-small-en-v1.5");
    let query = &bge.embed(&[text], EmbedKind::Query).expect("query")[0];
    assert!(dot(query, &want_query) >= F32_AGREEMENT);
    assert!(
        dot(query, &want_document) < 0.99,
        "the instruction changes it"
    );

    let unnamed = load(&folder, "tiny/bge-like");
    let plain = &unnamed.embed(&[text], EmbedKind::Query).expect("plain")[0];
    assert!(
        dot(plain, &want_document) >= F32_AGREEMENT,
        "no prefix at all"
    );
    assert!(dot(plain, &want_query) < 0.99);
}

#[test]
fn fingerprints_differ_across_models_prefixes_and_pooling() {
    let ids: Vec<String> = tiny_models()
        .iter()
        .map(|(folder, reference)| load(folder, load_as(reference)).fingerprint().id())
        .collect();
    for (i, id) in ids.iter().enumerate() {
        assert!(id.starts_with("local|") && id.contains("|32|"), "{id}");
        assert!(id.contains("|l2|candle"), "{id}");
        assert!(!ids[..i].contains(id), "{id} twice");
    }

    let (bge, _) = model("bge-like");
    let named = load(&bge, "BAAI/bge-small-en-v1.5").fingerprint().clone();
    let renamed = load(&bge, "tiny/bge-like").fingerprint().clone();
    assert!(named.id().contains("|prompts:"), "{}", named.id());
    assert_eq!(renamed.prompts, "");
    assert_ne!(named.prompts, renamed.prompts);

    let (minilm, reference) = model("minilm-like");
    let mean = load(&minilm, load_as(&reference)).fingerprint().clone();
    let cls_copy = edited_copy("minilm-like", |folder| {
        edit_json(&folder.join("1_Pooling/config.json"), |pooling| {
            pooling["pooling_mode"] = "cls".into();
        });
    });
    let cls = load(cls_copy.path(), load_as(&reference))
        .fingerprint()
        .clone();
    assert_eq!((mean.pooling, cls.pooling), (Pooling::Mean, Pooling::Cls));
    assert_eq!(mean.model, cls.model, "same weights");
    assert_ne!(mean.id(), cls.id());
}

#[test]
fn xlm_roberta_inputs_stop_at_its_usable_positions() {
    // Without a max_seq_length, inputs are cut at the positions XLM-R can number: 66 position
    // embeddings less the padding id and one, 64; past them candle would fail.
    let dir = edited_copy("e5-like", |folder| {
        std::fs::remove_file(folder.join("sentence_bert_config.json")).expect("remove");
        edit_json(&folder.join("tokenizer_config.json"), |config| {
            config
                .as_object_mut()
                .expect("object")
                .remove("model_max_length");
        });
    });
    let provider = load(dir.path(), "tiny/e5-like");
    assert_eq!(provider.max_tokens(), 64);
    let long = "Semantic search finds notes by meaning. ".repeat(40);
    let vectors = provider
        .embed(&[&long, "short"], EmbedKind::Document)
        .expect("a long text embeds");
    assert_eq!(vectors.len(), 2);
}

#[test]
fn xlm_roberta_with_relative_positions_is_refused() {
    let dir = edited_copy("e5-like", |folder| {
        edit_json(&folder.join("config.json"), |config| {
            config["position_embedding_type"] = "relative_key".into();
        });
    });
    match LocalProvider::load(dir.path(), "tiny/e5-like", 4) {
        Err(error @ EmbedError::Setup { .. }) => {
            assert!(error.to_string().contains("only absolute"), "{error}");
        }
        Err(other) => panic!("another error: {other}"),
        Ok(_) => panic!("relative positions were loaded as absolute ones"),
    }
}

//! What the sentence-transformers files of a folder say about the steps after the transformer:
//! `modules.json` (which modules: one this server does not run, e.g. a `Dense` projection, is
//! refused rather than skipped, as skipping it would give wrong vectors), the pooling config
//! (both the `pooling_mode_*_tokens` flags of sentence-transformers before 6 and the
//! `pooling_mode` of 6), the `prompts` of `config_sentence_transformers.json`, and the longest
//! input (`sentence_bert_config.json` `max_seq_length`, or `tokenizer_config.json`
//! `model_max_length` where sentence-transformers 6 keeps it). Each is `None` where the folder
//! is silent.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

use crate::embed::error::EmbedError;
use crate::embed::fingerprint::Pooling;

use super::model_files::read_json;

/// The folder's own word on each setting.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Pipeline {
    /// The pooling of the `Pooling` module.
    pub pooling: Option<Pooling>,
    /// Whether `modules.json` ends in a `Normalize` module (`None` without `modules.json`).
    pub normalize: Option<bool>,
    /// The non-empty `query` prompt.
    pub query: Option<String>,
    /// The first non-empty of the `document`, `passage` and `corpus` prompts
    /// (sentence-transformers 6 saves a blank `document` beside a model's own `passage`).
    pub document: Option<String>,
    /// The longest input in word pieces.
    pub max_seq_length: Option<usize>,
}

/// The modules a local engine runs, by the last part of their type name.
const RUNNABLE_MODULES: [&str; 3] = ["Transformer", "Pooling", "Normalize"];

#[derive(Deserialize)]
struct ModuleEntry {
    #[serde(default)]
    path: String,
    #[serde(rename = "type")]
    kind: String,
}

#[derive(Deserialize)]
struct PoolingFile {
    /// sentence-transformers 6: a mode name or a list of them.
    pooling_mode: Option<Value>,
    #[serde(default)]
    pooling_mode_cls_token: bool,
    #[serde(default)]
    pooling_mode_mean_tokens: bool,
    #[serde(default)]
    pooling_mode_max_tokens: bool,
    #[serde(default)]
    pooling_mode_mean_sqrt_len_tokens: bool,
    #[serde(default)]
    pooling_mode_weightedmean_tokens: bool,
    #[serde(default)]
    pooling_mode_lasttoken: bool,
    #[serde(default = "included")]
    include_prompt: bool,
}

fn included() -> bool {
    true
}

#[derive(Deserialize)]
struct SentenceTransformersFile {
    #[serde(default)]
    prompts: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct SentenceBertFile {
    max_seq_length: Option<usize>,
}

#[derive(Deserialize)]
struct TokenizerConfigFile {
    model_max_length: Option<f64>,
}

impl Pipeline {
    /// Reads the sentence-transformers files of `folder`.
    pub fn read(folder: &Path) -> Result<Pipeline, EmbedError> {
        let modules_path = folder.join("modules.json");
        let (pooling_folder, normalize) = if modules_path.is_file() {
            let modules: Vec<ModuleEntry> = read_json(&modules_path)?;
            check_runnable(&modules, &modules_path)?;
            let pooling = modules
                .iter()
                .find(|m| short_type(&m.kind) == "Pooling")
                .map(|m| folder.join(&m.path));
            let normalize = modules.iter().any(|m| short_type(&m.kind) == "Normalize");
            (pooling, Some(normalize))
        } else {
            (Some(folder.join("1_Pooling")), None)
        };
        let pooling = match pooling_folder.map(|f| f.join("config.json")) {
            Some(path) if path.is_file() => Some(pooling_of(&read_json(&path)?, &path)?),
            _ => None,
        };
        let prompts = optional::<SentenceTransformersFile>(
            &folder.join("config_sentence_transformers.json"),
        )?
        .map(|file| file.prompts)
        .unwrap_or_default();
        let prompt = |names: &[&str]| {
            names
                .iter()
                .filter_map(|name| prompts.get(*name))
                .find(|text| !text.is_empty())
                .cloned()
        };
        Ok(Pipeline {
            pooling,
            normalize,
            query: prompt(&["query"]),
            document: prompt(&["document", "passage", "corpus"]),
            max_seq_length: max_seq_length(folder)?,
        })
    }
}

/// The longest input the folder names: `sentence_bert_config.json`, else the tokenizer's
/// `model_max_length` (transformers writes a huge number there when it is unset).
fn max_seq_length(folder: &Path) -> Result<Option<usize>, EmbedError> {
    let sentence = optional::<SentenceBertFile>(&folder.join("sentence_bert_config.json"))?
        .and_then(|file| file.max_seq_length);
    if sentence.is_some() {
        return Ok(sentence);
    }
    let tokenizer = optional::<TokenizerConfigFile>(&folder.join("tokenizer_config.json"))?
        .and_then(|file| file.model_max_length)
        .filter(|n| (1.0..1e9).contains(n))
        .map(|n| n as usize);
    Ok(tokenizer)
}

/// Refuses a pipeline with a module no local engine runs.
fn check_runnable(modules: &[ModuleEntry], path: &Path) -> Result<(), EmbedError> {
    match modules
        .iter()
        .find(|m| !RUNNABLE_MODULES.contains(&short_type(&m.kind)))
    {
        Some(module) => Err(EmbedError::setup(
            "local",
            format!(
                "{} has a {} module, which the local engine does not run (it runs {}): the \
                 vectors would be wrong; use a model without it",
                path.display(),
                module.kind,
                RUNNABLE_MODULES.join(", ")
            ),
        )),
        None => Ok(()),
    }
}

/// `sentence_transformers.models.Pooling` → `Pooling`.
fn short_type(kind: &str) -> &str {
    kind.rsplit('.').next().unwrap_or(kind)
}

/// The one pooling mode a pooling file switches on.
fn pooling_of(file: &PoolingFile, path: &Path) -> Result<Pooling, EmbedError> {
    let refuse = |why: String| {
        EmbedError::setup(
            "local",
            format!(
                "{} {why}: use a model that pools by one of mean, cls or max",
                path.display()
            ),
        )
    };
    if !file.include_prompt {
        return Err(refuse(
            "leaves the prompt out of the pooling, which the local engine does not do".to_owned(),
        ));
    }
    let modes: Vec<String> = match &file.pooling_mode {
        Some(Value::String(mode)) => vec![mode.clone()],
        Some(Value::Array(modes)) => modes
            .iter()
            .map(|m| m.as_str().map(str::to_owned))
            .collect::<Option<_>>()
            .ok_or_else(|| refuse("has a pooling_mode list that is not all names".to_owned()))?,
        Some(other) => return Err(refuse(format!("has pooling_mode {other}"))),
        None => [
            (file.pooling_mode_cls_token, "cls"),
            (file.pooling_mode_mean_tokens, "mean"),
            (file.pooling_mode_max_tokens, "max"),
            (
                file.pooling_mode_mean_sqrt_len_tokens,
                "mean_sqrt_len_tokens",
            ),
            (file.pooling_mode_weightedmean_tokens, "weightedmean"),
            (file.pooling_mode_lasttoken, "lasttoken"),
        ]
        .iter()
        .filter(|(on, _)| *on)
        .map(|(_, name)| (*name).to_owned())
        .collect(),
    };
    match modes.as_slice() {
        [mode] if mode == "mean" => Ok(Pooling::Mean),
        [mode] if mode == "cls" => Ok(Pooling::Cls),
        [mode] if mode == "max" => Ok(Pooling::Max),
        _ => Err(refuse(format!("asks for the pooling {modes:?}"))),
    }
}

/// The JSON file at `path`, `None` when there is none.
fn optional<T: serde::de::DeserializeOwned>(path: &Path) -> Result<Option<T>, EmbedError> {
    if path.is_file() {
        read_json(path).map(Some)
    } else {
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        dir
    }

    const CLASSIC_MODULES: &str = r#"[
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"}
    ]"#;

    #[test]
    fn classic_files_give_the_pooling_normalisation_prompts_and_length() {
        let dir = folder(&[
            ("modules.json", CLASSIC_MODULES),
            (
                "1_Pooling/config.json",
                r#"{"word_embedding_dimension": 384, "pooling_mode_cls_token": true,
                    "pooling_mode_mean_tokens": false, "pooling_mode_max_tokens": false,
                    "pooling_mode_mean_sqrt_len_tokens": false}"#,
            ),
            (
                "config_sentence_transformers.json",
                r#"{"prompts": {"query": "query: ", "passage": "passage: "}}"#,
            ),
            ("sentence_bert_config.json", r#"{"max_seq_length": 512}"#),
            ("tokenizer_config.json", r#"{"model_max_length": 128}"#),
        ]);
        let pipeline = Pipeline::read(dir.path()).expect("pipeline");
        assert_eq!(
            pipeline,
            Pipeline {
                pooling: Some(Pooling::Cls),
                normalize: Some(true),
                query: Some("query: ".to_owned()),
                document: Some("passage: ".to_owned()),
                max_seq_length: Some(512),
            }
        );
    }

    #[test]
    fn a_folder_without_sentence_transformers_files_says_nothing() {
        let dir = folder(&[("tokenizer_config.json", r#"{"model_max_length": 1e30}"#)]);
        assert_eq!(
            Pipeline::read(dir.path()).expect("pipeline"),
            Pipeline::default()
        );
    }

    #[test]
    fn without_modules_json_the_pooling_is_read_from_1_pooling() {
        let dir = folder(&[("1_Pooling/config.json", r#"{"pooling_mode": "max"}"#)]);
        let pipeline = Pipeline::read(dir.path()).expect("pipeline");
        assert_eq!(pipeline.pooling, Some(Pooling::Max));
        assert_eq!(pipeline.normalize, None);
    }

    #[test]
    fn a_blank_document_prompt_gives_way_to_the_passage_one() {
        let dir = folder(&[(
            "config_sentence_transformers.json",
            r#"{"prompts": {"query": "", "document": "", "passage": "passage: "}}"#,
        )]);
        let pipeline = Pipeline::read(dir.path()).expect("pipeline");
        assert_eq!(pipeline.query, None);
        assert_eq!(pipeline.document.as_deref(), Some("passage: "));
    }

    #[test]
    fn poolings_other_than_one_of_mean_cls_max_are_refused() {
        for pooling in [
            r#"{"pooling_mode": "lasttoken"}"#,
            r#"{"pooling_mode": ["mean", "max"]}"#,
            r#"{"pooling_mode_mean_tokens": true, "pooling_mode_lasttoken": true}"#,
            r#"{"pooling_mode_weightedmean_tokens": true}"#,
            r#"{"pooling_mode": "mean", "include_prompt": false}"#,
            r#"{}"#,
        ] {
            let dir = folder(&[("1_Pooling/config.json", pooling)]);
            let error = Pipeline::read(dir.path()).expect_err(pooling);
            assert!(
                matches!(error, EmbedError::Setup { .. }),
                "{pooling}: {error}"
            );
            assert!(error.to_string().contains("mean, cls or max"), "{error}");
        }
        let dir = folder(&[("1_Pooling/config.json", r#"{"pooling_mode": ["cls"]}"#)]);
        assert_eq!(
            Pipeline::read(dir.path()).expect("cls").pooling,
            Some(Pooling::Cls)
        );
    }

    #[test]
    fn a_module_the_engine_does_not_run_is_refused() {
        let dir = folder(&[(
            "modules.json",
            r#"[{"path": "", "type": "sentence_transformers.models.Transformer"},
                {"path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
                {"path": "2_Dense", "type": "sentence_transformers.models.Dense"}]"#,
        )]);
        let error = Pipeline::read(dir.path()).expect_err("dense");
        assert!(error.to_string().contains("models.Dense module"), "{error}");
    }
}

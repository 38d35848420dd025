//! The checks of the `embeddings` section that the schema cannot express.

use crate::config::problem::ConfigProblem;
use crate::embed::hub::cache::is_repo_path;
use crate::embed::local::locate::REQUIRED_FILES;
use crate::embed::settings::EmbeddingsConfig;
use crate::schema::JsonPath;

/// The problems of an `embeddings` block that has the right shape.
pub fn embeddings_problems(config: &EmbeddingsConfig) -> Vec<ConfigProblem> {
    let at = |key: &str| JsonPath::keys("embeddings").key(key).to_string();
    let mut out = Vec::new();
    if let Some(endpoint) = &config.endpoint
        && !(endpoint.starts_with("http://") || endpoint.starts_with("https://"))
    {
        out.push(ConfigProblem::new(
            at("endpoint"),
            format!("{endpoint:?} is not a URL: write http://HOST:PORT or https://HOST/PATH"),
        ));
    }
    if config.api_key.is_some() && config.api_key_env.is_some() {
        out.push(ConfigProblem::new(
            at("apiKeyEnv"),
            "apiKey is set too: keep one of them (apiKeyEnv keeps the key out of the file)",
        ));
    }
    if let Some(var) = &config.api_key_env
        && !is_variable_name(var)
    {
        out.push(ConfigProblem::new(
            at("apiKeyEnv"),
            format!("{var:?} is not an environment variable name: use letters, digits and '_', e.g. OPENAI_API_KEY"),
        ));
    }
    for (key, set) in [
        ("modelPath", config.model_path.is_some()),
        ("revision", config.revision.is_some()),
        ("files", config.files.is_some()),
    ] {
        if set && !config.provider.is_in_process() {
            out.push(ConfigProblem::new(
                at(key),
                "is read only by providers \"auto\" and \"local\": remove it or set provider \
                 to one of them",
            ));
        }
    }
    out.extend(pin_problems(config));
    if let (Some(batch), Some(api)) = (config.batch_size, config.provider.remote_api())
        && batch as usize > api.max_batch()
    {
        out.push(ConfigProblem::new(
            at("batchSize"),
            format!(
                "{batch} is more than {} accepts in one request ({}): lower it",
                api.name(),
                api.max_batch()
            ),
        ));
    }
    out
}

/// The problems of `model`, `revision` and `files` as a model to download: both or neither of
/// `revision` and `files`, safe names, SHA-256 digests, and the files the engine reads.
fn pin_problems(config: &EmbeddingsConfig) -> Vec<ConfigProblem> {
    let at = |key: &str| JsonPath::keys("embeddings").key(key);
    let mut out = Vec::new();
    match (&config.revision, &config.files) {
        (Some(_), None) => out.push(ConfigProblem::new(
            at("revision").to_string(),
            "needs embeddings.files (each file of the model with its sha256) beside it",
        )),
        (None, Some(_)) => out.push(ConfigProblem::new(
            at("files").to_string(),
            "needs embeddings.revision (the commit the digests belong to) beside it",
        )),
        _ => {}
    }
    if let Some(model) = &config.model
        && config.provider.is_in_process()
        && !(model.split('/').count() == 2 && model.split('/').all(is_hub_name))
    {
        out.push(ConfigProblem::new(
            at("model").to_string(),
            format!("{model:?} is not a Hugging Face model id: write ORG/NAME, e.g. sentence-transformers/all-MiniLM-L6-v2"),
        ));
    }
    if let Some(revision) = &config.revision
        && !is_hub_name(revision)
    {
        out.push(ConfigProblem::new(
            at("revision").to_string(),
            format!(
                "{revision:?} is not a commit hash or branch name (letters, digits, '.', '_', '-')"
            ),
        ));
    }
    let Some(files) = &config.files else {
        return out;
    };
    for (index, file) in files.iter().enumerate() {
        let here = at("files").index(index);
        if !is_repo_path(&file.path) || !file.path.split('/').all(is_hub_name) {
            out.push(ConfigProblem::new(
                here.key("path").to_string(),
                format!(
                    "{:?} is not a file path inside the repository, e.g. 1_Pooling/config.json",
                    file.path
                ),
            ));
        }
        if !(file.sha256.len() == 64 && file.sha256.bytes().all(|b| b.is_ascii_hexdigit())) {
            out.push(ConfigProblem::new(
                here.key("sha256").to_string(),
                "is not a SHA-256: write its 64 hexadecimal digits (`sha256sum FILE`)",
            ));
        }
    }
    for required in REQUIRED_FILES {
        if !files.iter().any(|file| file.path == required) {
            out.push(ConfigProblem::new(
                at("files").to_string(),
                format!("has no {required}: the local engine reads config.json, tokenizer.json and model.safetensors (and 1_Pooling/config.json and sentence_bert_config.json when the model has them)"),
            ));
        }
    }
    out
}

/// A repository, revision or path segment name: letters, digits, `.`, `_`, `-`, not starting
/// with `.` or `-`.
fn is_hub_name(name: &str) -> bool {
    name.bytes()
        .next()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_')
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

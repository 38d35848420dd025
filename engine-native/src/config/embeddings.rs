//! The checks of the `embeddings` section that the schema cannot express.

use crate::config::problem::ConfigProblem;
use crate::embed::settings::{EmbeddingProvider, EmbeddingsConfig};
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
    if config.model_path.is_some() && config.provider != EmbeddingProvider::Local {
        out.push(ConfigProblem::new(
            at("modelPath"),
            "is read only by provider \"local\": remove it or set provider to \"local\"",
        ));
    }
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

fn is_variable_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

//! [`provider_from_config`]: the provider the `embeddings` config block describes.

use std::time::Duration;

use crate::embed::error::EmbedError;
use crate::embed::http::{ApiKey, HttpSettings};
use crate::embed::provider::EmbeddingProvider;
use crate::embed::remote::{RemoteApi, RemoteProvider};
use crate::embed::settings::{EmbeddingProvider as ProviderName, EmbeddingsConfig};

/// The wait before the first retry of a remote call; it doubles at each next one.
pub const RETRY_BACKOFF: Duration = Duration::from_millis(500);

/// The provider of `config`, ready to embed, or `None` when `provider` is `none`. `env`
/// reads environment variables (the API key's, `HF_HOME`, `HOME`). Loading a local model
/// reads ~100 MB; a remote provider without `dimensions` makes one probe request. Blocking.
/// Nothing is downloaded: `auto` loads the model only when it is on disk already (see
/// [`crate::embed::auto`] for the background download).
pub fn provider_from_config(
    config: &EmbeddingsConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<Box<dyn EmbeddingProvider>>, EmbedError> {
    let api = match config.provider {
        ProviderName::None => return Ok(None),
        ProviderName::Auto | ProviderName::Local => return local_provider(config, env).map(Some),
        ProviderName::Ollama => RemoteApi::Ollama,
        ProviderName::Openai => RemoteApi::OpenAi,
        ProviderName::Voyage => RemoteApi::Voyage,
        ProviderName::Cohere => RemoteApi::Cohere,
    };
    let endpoint = config
        .endpoint
        .clone()
        .unwrap_or_else(|| api.default_endpoint().to_owned());
    let settings = HttpSettings {
        api_key: api_key(config, api, &endpoint, env)?,
        endpoint,
        timeout: Duration::from_millis(config.timeout_ms),
        retries: config.retries,
        backoff: RETRY_BACKOFF,
    };
    let provider = RemoteProvider::new(
        api,
        config
            .model
            .clone()
            .unwrap_or_else(|| api.default_model().to_owned()),
        config.dimensions.map(|d| d as usize),
        config
            .batch_size
            .map_or(api.default_batch(), |b| b as usize),
        &settings,
    )?;
    Ok(Some(boxed(provider)))
}

fn boxed(provider: impl EmbeddingProvider + 'static) -> Box<dyn EmbeddingProvider> {
    Box::new(provider)
}

/// The in-process model of `config` (the build's local embedding engine), found on disk.
#[cfg(feature = "local-embeddings")]
fn local_provider(
    config: &EmbeddingsConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Box<dyn EmbeddingProvider>, EmbedError> {
    let located = crate::embed::local::locate(config, env)?;
    load_local(config, &located, env)
}

/// Loads the located model of `config` on its engine (see [`crate::embed::local::engine`];
/// `env` finds the ONNX Runtime library), checking its weights' digest and `dimensions`.
#[cfg(feature = "local-embeddings")]
pub fn load_local(
    config: &EmbeddingsConfig,
    located: &crate::embed::local::Located,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Box<dyn EmbeddingProvider>, EmbedError> {
    let provider = crate::embed::local::engine::load(config, located, env)?;
    let dimensions = provider.fingerprint().dimensions;
    match config.dimensions {
        Some(wanted) if wanted as usize != dimensions => Err(EmbedError::setup(
            "local",
            format!(
                "the model in {} makes {dimensions}-dimensional vectors but embeddings.dimensions is {wanted}: drop embeddings.dimensions or set it to {dimensions}",
                located.folder.display()
            ),
        )),
        _ => Ok(provider),
    }
}

/// This build has no local embedding engine: `local` is refused with what to do.
#[cfg(not(feature = "local-embeddings"))]
fn local_provider(
    config: &EmbeddingsConfig,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Box<dyn EmbeddingProvider>, EmbedError> {
    load_local(
        config,
        &crate::embed::local::Located {
            folder: std::path::PathBuf::new(),
            pins: Vec::new(),
        },
        env,
    )
}

/// This build has no local embedding engine: every model is refused with what to do.
#[cfg(not(feature = "local-embeddings"))]
pub fn load_local(
    _config: &EmbeddingsConfig,
    _located: &crate::embed::local::Located,
    _env: &dyn Fn(&str) -> Option<String>,
) -> Result<Box<dyn EmbeddingProvider>, EmbedError> {
    Err(EmbedError::setup(
        "local",
        "this obsidian-tc was built without its local embedding engine (cargo feature \
         local-embeddings): use a build with it, or set embeddings.provider to a remote \
         provider or to none",
    ))
}

/// The key: `apiKey`, else the variable `apiKeyEnv` names, else the provider's usual
/// variable. Hosted APIs need one; Ollama and OpenAI-compatible servers elsewhere than
/// api.openai.com may do without.
fn api_key(
    config: &EmbeddingsConfig,
    api: RemoteApi,
    endpoint: &str,
    env: &dyn Fn(&str) -> Option<String>,
) -> Result<Option<ApiKey>, EmbedError> {
    if let Some(key) = &config.api_key {
        return Ok(Some(ApiKey::new(key.clone())));
    }
    if let Some(var) = &config.api_key_env {
        return match env(var).filter(|v| !v.trim().is_empty()) {
            Some(key) => Ok(Some(ApiKey::new(key.trim()))),
            None => Err(EmbedError::setup(
                api.name(),
                format!(
                    "embeddings.apiKeyEnv names {var}, which is not set: export {var} with the API key in the server's environment"
                ),
            )),
        };
    }
    let from_usual = api.key_var().and_then(env).filter(|v| !v.trim().is_empty());
    let needs_key = match api {
        RemoteApi::Ollama => false,
        RemoteApi::OpenAi => endpoint.trim_end_matches('/') == api.default_endpoint(),
        RemoteApi::Voyage | RemoteApi::Cohere => true,
    };
    match (from_usual, api.key_var()) {
        (Some(key), _) => Ok(Some(ApiKey::new(key.trim()))),
        (None, Some(var)) if needs_key => Err(EmbedError::setup(
            api.name(),
            format!(
                "no API key: export {var}, or set embeddings.apiKeyEnv to the variable holding it (or OBSIDIAN_TC_EMBEDDINGS_API_KEY)"
            ),
        )),
        _ => Ok(None),
    }
}

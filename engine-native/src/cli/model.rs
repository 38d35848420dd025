//! `obsidian-tc model pull [NAME]` fetches the embedding model ahead of time (before going
//! offline, or to spare the first serve its download), with a progress bar on a terminal and
//! plain lines otherwise; `obsidian-tc model list` says whether it is in the cache and where.
//! The model is the configuration's (`--config` or `OBSIDIAN_TC_CONFIG`), else the default
//! one; NAME may name only a model whose revision and file digests are known. The weights
//! fetched are those of the engine that will run the model (`embeddings.engine`): the int8
//! ONNX file where ONNX Runtime loads, else `model.safetensors`.

use serde_json::json;

use crate::cli::args::{ModelArgs, ModelCommand};
use crate::cli::progress::{Progress, Unit};
use crate::cli::source::load_config;
use crate::cli::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE, print_result};
use crate::config::{CONFIG_FILE_VAR, ConfigFlags, ENV_VARS};
use crate::embed::hub::{Check, HubError, HubSettings, ModelSpec, fetch_model, verified_snapshot};
use crate::embed::local::weights_format;
use crate::embed::settings::EmbeddingsConfig;

/// Runs a `model` subcommand; exit 0 on success, 1 when the download failed, 2 on bad usage.
pub fn run_model(command: ModelCommand) -> u8 {
    match command {
        ModelCommand::Pull(args) => pull(&args),
        ModelCommand::List(args) => list(&args),
    }
}

fn pull(args: &ModelArgs) -> u8 {
    let spec = match spec_of(args) {
        Ok(spec) => spec,
        Err(code) => return code,
    };
    let settings = HubSettings::from_env(&|name| std::env::var(name).ok());
    let mut progress = Progress::new(format!("downloading {}", spec.repo), Unit::Bytes);
    let fetched = fetch_model(&spec, &settings, &mut |transfer| {
        progress.update(transfer.bytes, transfer.total);
    });
    progress.finish();
    match fetched {
        Ok(folder) => {
            println!(
                "{} at revision {} is in {}",
                spec.repo,
                spec.revision,
                folder.display()
            );
            EXIT_OK
        }
        Err(error) => {
            eprintln!("model pull failed: {error}");
            EXIT_FAILURE
        }
    }
}

fn list(args: &ModelArgs) -> u8 {
    let spec = match spec_of(args) {
        Ok(spec) => spec,
        Err(code) => return code,
    };
    let settings = HubSettings::from_env(&|name| std::env::var(name).ok());
    let folder = verified_snapshot(&spec, &settings.roots, Check::Full);
    let listed = json!([{
        "model": spec.repo,
        "revision": spec.revision,
        "bytes": spec.total_size(),
        "present": folder.is_some(),
        "path": folder.map(|f| f.display().to_string()),
        "endpoint": settings.endpoint,
        "cache": settings.roots.first().map(|r| r.display().to_string()),
    }]);
    match print_result(&listed) {
        Ok(()) => EXIT_OK,
        Err(code) => code,
    }
}

/// The pinned model `args` name: NAME, else the configuration's model, else the default.
fn spec_of(args: &ModelArgs) -> Result<ModelSpec, u8> {
    let mut config = embeddings_config(args)?;
    if let Some(name) = &args.name
        && config.model.as_deref() != Some(name.as_str())
    {
        // Another model than the configured one: only its own pins (a known model's) apply.
        config = EmbeddingsConfig {
            model: Some(name.clone()),
            engine: config.engine,
            ..EmbeddingsConfig::default()
        };
    }
    // The weights of the engine that will run it: ONNX where ONNX Runtime loads.
    let format = weights_format(config.engine, &|name| std::env::var(name).ok());
    ModelSpec::of_config(&config, format).ok_or_else(|| {
        let model = config.model.unwrap_or_default();
        eprintln!("{}", HubError::Unpinned { model });
        EXIT_USAGE
    })
}

/// The `embeddings` block of the configuration `--config` or `OBSIDIAN_TC_CONFIG` names, else
/// the defaults with the `OBSIDIAN_TC_EMBEDDINGS_*` variables applied (as a serve without a
/// config file applies them).
fn embeddings_config(args: &ModelArgs) -> Result<EmbeddingsConfig, u8> {
    if args.config.is_none() && std::env::var_os(CONFIG_FILE_VAR).is_none() {
        let block: serde_json::Map<String, serde_json::Value> = ENV_VARS
            .iter()
            .filter_map(|var| {
                let key = var.path.strip_prefix("embeddings.")?;
                let text = std::env::var(var.name).ok()?;
                Some((key.to_owned(), var.value(&text)))
            })
            .collect();
        return serde_json::from_value(serde_json::Value::Object(block)).map_err(|error| {
            eprintln!("the OBSIDIAN_TC_EMBEDDINGS_* variables do not make a valid block: {error}");
            EXIT_USAGE
        });
    }
    let flags = ConfigFlags {
        config: args.config.clone(),
        ..ConfigFlags::default()
    };
    match load_config(&flags) {
        Ok(loaded) => Ok(loaded.config.embeddings),
        Err(message) => {
            eprint!("{message}");
            Err(EXIT_USAGE)
        }
    }
}

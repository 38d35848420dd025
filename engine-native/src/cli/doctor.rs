//! `obsidian-tc doctor`: one OK/FAIL line per check, each failure with a hint.

use std::path::Path;
use std::time::Duration;

use crate::cli::source::{load_config, open_dispatcher};
use crate::cli::{EXIT_FAILURE, EXIT_OK, EXIT_USAGE};
use crate::companion::discovery::found_in;
use crate::companion::plugin_data::PLUGIN_DATA;
use crate::companion::{Absent, ProbeError, probe};
use crate::config::model::VaultConfig;
use crate::config::sections::CompanionSetting;
use crate::config::{ConfigFlags, LoadedConfig};
use crate::embed::hub::{self, HubAccess, HubError, HubSettings, ModelSpec};
use crate::embed::local::{HAS_ENGINE, locate, model_name, weights_format};
use crate::embed::settings::EmbeddingProvider;
use crate::index::off_reason;
use crate::schema::JsonPath;
use crate::store::CACHE_DB_FILE;
use crate::vault_cache::place;

/// The result of one check.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Check {
    /// What was checked and what was found.
    pub summary: String,
    /// `None` when the check passed; what to do when it failed.
    pub hint: Option<String>,
}

impl Check {
    fn ok(summary: String) -> Check {
        Check {
            summary,
            hint: None,
        }
    }

    fn fail(summary: String, hint: &str) -> Check {
        Check {
            summary,
            hint: Some(hint.to_owned()),
        }
    }
}

/// Runs every check on the configuration `flags` name and prints them; exit 0 when all pass.
pub fn run_doctor(flags: &ConfigFlags) -> u8 {
    let mut config = match load_config(flags) {
        Ok(config) => config,
        Err(message) => {
            println!("FAIL configuration");
            eprint!("{message}");
            return EXIT_USAGE;
        }
    };
    println!(
        "OK   configuration loads ({} vault(s))",
        config.config.vaults.len()
    );
    match place(&mut config) {
        Ok(notes) => notes.iter().for_each(|note| println!("NOTE {note}")),
        Err(error) => {
            println!(
                "FAIL cache folder: {error}\n     hint: set cacheDir (or --cache-dir) to a \
                 folder of your own"
            );
            return EXIT_FAILURE;
        }
    }
    let checks = checks(&config);
    for check in &checks {
        match &check.hint {
            None => println!("OK   {}", check.summary),
            Some(hint) => println!("FAIL {}\n     hint: {hint}", check.summary),
        }
    }
    if checks.iter().all(|check| check.hint.is_none()) {
        EXIT_OK
    } else {
        EXIT_FAILURE
    }
}

/// Every check: each vault readable, the cache folder writable, SQLite opens (and the
/// server starts on it), the HTTP port free when HTTP is enabled, the embedding model there
/// or downloadable (else why search is lexical), and each vault's companion plugin (TC
/// Bridge) reachable, when one is configured or found in the vault.
pub fn checks(config: &LoadedConfig) -> Vec<Check> {
    let mut out: Vec<Check> = config
        .config
        .vaults
        .iter()
        .map(|vault| vault_readable(&vault.id, Path::new(&vault.path)))
        .collect();
    out.push(cache_writable(config));
    out.push(sqlite_opens(config));
    let http = &config.config.transports.http;
    if http.enabled {
        out.push(port_free(&http.host, http.port));
    }
    out.push(embeddings_usable(config));
    out.extend(config.config.vaults.iter().map(companion_reachable));
    out
}

/// How long `doctor` waits for the hub.
const HUB_PROBE_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether semantic search will work: the model on disk, or a hub to download it from; else
/// why search is lexical. Remote providers are not called.
fn embeddings_usable(config: &LoadedConfig) -> Check {
    let embeddings = &config.config.embeddings;
    let env = |name: &str| std::env::var(name).ok();
    let model = model_name(embeddings);
    let off = "set embeddings.provider to \"none\" (or OBSIDIAN_TC_EMBEDDINGS_PROVIDER=none) to \
               keep search lexical without this warning";
    match embeddings.provider {
        EmbeddingProvider::None => return Check::ok(off_reason(config)),
        provider if !provider.is_in_process() => {
            return Check::ok(format!(
                "embeddings by {} (model {}); not called by doctor",
                provider.name(),
                embeddings.model.as_deref().unwrap_or("default")
            ));
        }
        _ if !HAS_ENGINE => {
            return Check::fail(
                "search is lexical: this obsidian-tc was built without its local embedding \
                 engine (cargo feature local-embeddings)"
                    .to_owned(),
                "use a build with it, or set embeddings.provider to a remote provider or none",
            );
        }
        _ => {}
    }
    let missing = match locate(embeddings, &env) {
        #[cfg(feature = "local-embeddings")]
        Ok(located) => {
            use crate::embed::local::engine::Plan;
            let folder = &located.folder;
            return match Plan::choose(embeddings.engine, folder, &env) {
                Ok(plan) => Check::ok(format!(
                    "embedding model {model} is in {}, run by {}",
                    folder.display(),
                    plan.describe()
                )),
                Err(error) => Check::fail(
                    format!("search is lexical: {error}"),
                    "set embeddings.engine to \"auto\" or \"candle\", or make the engine it names usable",
                ),
            };
        }
        #[cfg(not(feature = "local-embeddings"))]
        Ok(located) => {
            return Check::ok(format!(
                "embedding model {model} is in {}",
                located.folder.display()
            ));
        }
        Err(error) => error,
    };
    let spec = ModelSpec::of_config(embeddings, weights_format(embeddings.engine, &env));
    let (Some(spec), EmbeddingProvider::Auto, None) =
        (spec, embeddings.provider, &embeddings.model_path)
    else {
        return Check::fail(format!("search is lexical: {missing}"), off);
    };
    let settings = HubSettings::from_env(&env);
    let access = HubAccess::from_env(&env);
    match hub::probe(&spec, &settings, &access, HUB_PROBE_TIMEOUT) {
        Ok(()) => Check::ok(format!(
            "embedding model {model} is not downloaded yet: the first serve or index downloads \
             it ({} MB) from {} into {} in the background, or `obsidian-tc model pull` now",
            spec.total_size().unwrap_or(0) / 1_000_000,
            settings.endpoint,
            settings
                .roots
                .first()
                .map_or_else(|| "?".to_owned(), |root| root.display().to_string())
        )),
        Err(error @ HubError::CdnUnreachable { .. }) => Check::fail(
            format!("search is lexical: the embedding model {model} is not downloaded and {error}"),
            "until that host can be reached, no download works here: copy the Hugging Face \
             cache from a machine where `obsidian-tc model pull` worked, or set \
             embeddings.provider to \"none\" to keep search lexical without this warning",
        ),
        Err(error) => Check::fail(
            format!("search is lexical: the embedding model {model} is not downloaded and {error}"),
            off,
        ),
    }
}

/// The companion of `vault`: the configured one, else the one TC Bridge's settings file in
/// the vault names (where it was found is said, the token never shown), probed now.
fn companion_reachable(vault: &VaultConfig) -> Check {
    let id = &vault.id;
    let (companion, found) = match &vault.companion {
        Some(CompanionSetting::At(companion)) => (companion.clone(), String::new()),
        Some(CompanionSetting::Discover(false)) => {
            return Check::ok(format!(
                "vault {id}: companion turned off (companion: false): the tools that need a \
                 running Obsidian are off"
            ));
        }
        None | Some(CompanionSetting::Discover(true)) => {
            let root = Path::new(&vault.path);
            match found_in(root) {
                Ok(companion) => {
                    let file = root.join(PLUGIN_DATA);
                    let found = format!(" (found in {}, token present)", file.display());
                    (companion, found)
                }
                Err(absent @ Absent::Unusable { .. }) => {
                    return Check::fail(
                        format!("vault {id}: no companion: {absent}"),
                        "open the vault in Obsidian with TC Bridge enabled (it rewrites its \
                         settings), or set vaults[].companion (false to turn this off)",
                    );
                }
                Err(absent) => {
                    return Check::ok(format!(
                        "vault {id}: no companion ({absent}): the tools that need a running \
                         Obsidian are off; install and enable TC Bridge in Obsidian, or set \
                         vaults[].companion, to turn them on"
                    ));
                }
            }
        }
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build();
    let outcome = match runtime {
        Ok(runtime) => runtime.block_on(probe(&companion)),
        Err(e) => Err(ProbeError::Unreachable(format!("no async runtime: {e}"))),
    };
    let url = &companion.url;
    match outcome {
        Ok(probed) if probed.shape_ok => Check::ok(format!(
            "vault {id}: TC Bridge {} on Obsidian {} answers at {url}{found}",
            probed.plugin_version, probed.obsidian_version
        )),
        Ok(probed) => Check::fail(
            format!(
                "vault {id}: TC Bridge {} answers at {url}{found} but its self-check failed: {}",
                probed.plugin_version,
                probed.shape_warnings.join("; ")
            ),
            "update TC Bridge: this Obsidian version changed internals the plugin relies on",
        ),
        Err(error) => Check::fail(
            format!("vault {id}: TC Bridge at {url}{found} {error}"),
            error.hint(),
        ),
    }
}

fn vault_readable(id: &str, path: &Path) -> Check {
    match std::fs::read_dir(path) {
        Ok(_) => Check::ok(format!("vault {id} is readable: {}", path.display())),
        Err(e) => Check::fail(
            format!("vault {id} is not readable: {} ({e})", path.display()),
            "check the vault path in the config and that this user may read it",
        ),
    }
}

/// Whether the cache folder takes a file; the line says where it is and why there.
fn cache_writable(config: &LoadedConfig) -> Check {
    let dir = config.cache_dir();
    let probe = dir.join(".doctor-probe");
    let written = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&probe, b"ok"))
        .and_then(|()| std::fs::remove_file(&probe));
    let why = config
        .provenance
        .source_of(&JsonPath::keys("cacheDir"))
        .map_or_else(String::new, |source| format!(" ({source})"));
    match written {
        Ok(()) => Check::ok(format!("cache folder is writable: {}{why}", dir.display())),
        Err(e) => Check::fail(
            format!("cache folder is not writable: {} ({e})", dir.display()),
            "set cacheDir (or --cache-dir) to a folder this user can write",
        ),
    }
}

fn sqlite_opens(config: &LoadedConfig) -> Check {
    let db = config.cache_dir().join(CACHE_DB_FILE);
    match open_dispatcher(config.clone()) {
        Ok(dispatcher) => {
            let store = dispatcher.runtime().store();
            let schema = store
                .schema_version()
                .map_or_else(|e| format!("unknown ({e})"), |v| v.to_string());
            let features = match store.features() {
                Ok(features) => features
                    .iter()
                    .map(|(name, present)| {
                        format!("{name} {}", if *present { "yes" } else { "NO" })
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                Err(e) => format!("features unknown ({e})"),
            };
            Check::ok(format!(
                "SQLite {} opens {} (schema version {schema}; {features}); the server starts",
                rusqlite::version(),
                db.display()
            ))
        }
        Err(message) => Check::fail(
            format!("the server cannot start on {}: {message}", db.display()),
            "a cache.db from a newer obsidian-tc or a damaged file: move it aside and retry",
        ),
    }
}

fn port_free(host: &str, port: u16) -> Check {
    match std::net::TcpListener::bind((host, port)) {
        Ok(_) => Check::ok(format!("HTTP address {host}:{port} is free")),
        Err(e) => Check::fail(
            format!("HTTP address {host}:{port} cannot be bound ({e})"),
            "stop what uses the port or choose another with --port / transports.http.port",
        ),
    }
}

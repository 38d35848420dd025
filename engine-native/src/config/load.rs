//! The loader: a pure function from its inputs (config file text or a bare vault folder, an
//! environment map, command-line overrides) to the effective configuration, with the source
//! of every value. Priority: flag > environment > file > default.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use serde_json::{Map, Value, json};

use crate::config::cache_home::{CacheHome, Platform};
use crate::config::checks::{auth_key_problems, semantic_problems};
use crate::config::companion_env::apply_companion_env;
use crate::config::env::ENV_VARS;
use crate::config::flags::FlagOverride;
use crate::config::model::ServerConfig;
use crate::config::problem::{ConfigErrors, ConfigProblem};
use crate::config::provenance::{Provenance, Source};
use crate::config::schema::config_schema;
use crate::schema::json_path::{JsonPath, Segment};
use crate::schema::validate::schema_problems;

/// The folder name of the cache next to the config file, and of the vault's own folder (its
/// write locks, its `vault-id`, and the cache itself with `cacheInVault`).
pub const CACHE_DIR_NAME: &str = ".obsidian-tc";

/// The id of the single vault of a zero-config start.
pub const ZERO_CONFIG_VAULT_ID: &str = "main";

/// Where the configuration comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigOrigin {
    /// A config file: its absolute path and its text.
    File {
        /// The file's absolute path; relative paths inside resolve against its folder.
        path: PathBuf,
        /// The file's contents.
        text: String,
    },
    /// A bare vault folder (absolute; canonical when it comes from the command line): one
    /// vault `main`, cache in the platform's cache folder ([`CacheHome`]).
    VaultFolder(PathBuf),
}

/// Everything the loader reads; nothing else (no process environment, no working directory).
#[derive(Debug, Clone, PartialEq)]
pub struct LoadInput {
    /// The config file or vault folder.
    pub origin: ConfigOrigin,
    /// The environment variables (the `OBSIDIAN_TC_*` ones in `ENV_VARS`, and the
    /// [`CACHE_HOME_VARS`](crate::config::cache_home::CACHE_HOME_VARS) of a bare vault folder).
    pub env: BTreeMap<String, String>,
    /// Values set by command-line flags.
    pub overrides: Vec<FlagOverride>,
}

/// The effective configuration, with where each value came from.
#[derive(Debug, Clone, PartialEq)]
pub struct LoadedConfig {
    /// The configuration, with vault paths and `cacheDir` made absolute.
    pub config: ServerConfig,
    /// The source of every value.
    pub provenance: Provenance,
    /// What it was loaded from (the file's text as read then), to load it again on reload.
    pub input: LoadInput,
    /// The platform cache folder `cacheDir` is, when it is the zero-config default, until
    /// [`crate::vault_cache::place`] has settled it: the vault it serves is found again after a
    /// move, and an older in-vault cache moved there.
    pub cache_home: Option<CacheHome>,
}

impl LoadedConfig {
    /// The absolute folder holding `cache.db`.
    pub fn cache_dir(&self) -> &Path {
        Path::new(self.config.cache_dir.as_deref().unwrap_or_default())
    }
}

/// Loads the configuration described by `input`, or reports every problem found.
pub fn load(input: &LoadInput) -> Result<LoadedConfig, ConfigErrors> {
    let mut document = serde_json::to_value(ServerConfig::default())
        .unwrap_or_else(|e| unreachable!("the default config serializes: {e}"));
    let mut provenance = Provenance::default();
    provenance.set_leaves(&JsonPath::root(), &document, &|_| Source::Default);

    let base_dir = match &input.origin {
        ConfigOrigin::File { path, text } => {
            require_absolute(path, "the config file path")?;
            let file: Value = serde_json::from_str(text).map_err(|e| {
                single(ConfigProblem::new(
                    "(root)",
                    format!("{} is not valid JSON: {e}", path.display()),
                ))
            })?;
            if !file.is_object() {
                return Err(single(ConfigProblem::new(
                    "(root)",
                    "the config file must hold a JSON object",
                )));
            }
            provenance.set_leaves(&JsonPath::root(), &file, &|at| Source::File {
                file: path.clone(),
                at: at.clone(),
            });
            merge(&mut document, file);
            path.parent().map(Path::to_path_buf).unwrap_or_default()
        }
        ConfigOrigin::VaultFolder(folder) => {
            require_absolute(folder, "the vault folder")?;
            let vaults = json!([{"id": ZERO_CONFIG_VAULT_ID, "path": folder.to_string_lossy()}]);
            set_at(&mut document, &JsonPath::keys("vaults"), vaults);
            provenance.set(
                JsonPath::keys("vaults"),
                Source::Derived {
                    reason: format!(
                        "zero-config: the vault folder argument is vault \"{ZERO_CONFIG_VAULT_ID}\""
                    ),
                },
            );
            folder.clone()
        }
    };
    for var in ENV_VARS {
        if let Some(text) = input.env.get(var.name) {
            let path = JsonPath::keys(var.path);
            if set_at(&mut document, &path, var.value(text)) {
                provenance.set(
                    path,
                    Source::Env {
                        name: var.name.to_owned(),
                    },
                );
            }
        }
    }
    let env_problem = apply_companion_env(&mut document, &input.env, &mut provenance).err();
    for flag in &input.overrides {
        if set_at(&mut document, &flag.path, flag.value.clone()) {
            provenance.set(
                flag.path.clone(),
                Source::Flag {
                    name: flag.flag.to_owned(),
                },
            );
        }
    }

    derive_token_mode(&mut document, &mut provenance);

    let problems: Vec<ConfigProblem> = env_problem
        .into_iter()
        .chain(
            schema_problems(&document, &config_schema())
                .into_iter()
                .map(|(path, message)| ConfigProblem {
                    via: provenance.source_of(&path).cloned(),
                    path: path.to_string(),
                    message,
                }),
        )
        .collect();
    if !problems.is_empty() {
        return Err(ConfigErrors(problems));
    }
    let mut config: ServerConfig = serde_json::from_value(document)
        .map_err(|e| single(ConfigProblem::new("(root)", e.to_string())))?;
    let mut problems = semantic_problems(&config);
    let cache_home = resolve_paths(
        &mut config,
        input,
        &base_dir,
        &mut provenance,
        &mut problems,
    );
    problems.extend(auth_key_problems(&config));
    for problem in &mut problems {
        if problem.via.is_none() {
            problem.via = provenance.source_shown_at(&problem.path).cloned();
        }
    }
    if problems.is_empty() {
        Ok(LoadedConfig {
            config,
            provenance,
            input: input.clone(),
            cache_home,
        })
    } else {
        Err(ConfigErrors(problems))
    }
}

/// An `auth.token` with `auth.mode` left at its default makes the mode `token`: the server TC
/// Bridge starts is given only `OBSIDIAN_TC_HTTP_TOKEN`, and a token that is set is meant to
/// be required. A mode set anywhere stays (a mismatch is then reported by the checks).
fn derive_token_mode(document: &mut Value, provenance: &mut Provenance) {
    let token_set = document
        .pointer("/auth/token")
        .is_some_and(|token| !token.is_null());
    let mode = JsonPath::keys("auth.mode");
    // only a value recorded at `auth.mode` itself was set (an empty `auth: {}` sets nothing)
    let mode_is_default = matches!(
        provenance.source_shown_at(&mode.to_string()),
        None | Some(Source::Default)
    );
    if token_set && mode_is_default && set_at(document, &mode, json!("token")) {
        provenance.set(
            mode,
            Source::Derived {
                reason: "auth.token is set".to_owned(),
            },
        );
    }
}

/// Makes vault paths, `auth.jwksFile`, `embeddings.modelPath` and `cacheDir` absolute: relative
/// ones from the file resolve against the file's folder; the process working directory is never
/// used. Returns the platform cache folder when `cacheDir` is the zero-config default.
fn resolve_paths(
    config: &mut ServerConfig,
    input: &LoadInput,
    base_dir: &Path,
    provenance: &mut Provenance,
    problems: &mut Vec<ConfigProblem>,
) -> Option<CacheHome> {
    for vault in &mut config.vaults {
        vault.path = anchored(base_dir, Path::new(&vault.path));
    }
    if let Some(file) = &mut config.auth.jwks_file {
        *file = anchored(base_dir, Path::new(file));
    }
    if let Some(folder) = &mut config.embeddings.model_path {
        *folder = anchored(base_dir, Path::new(folder));
    }
    let cache_path = JsonPath::keys("cacheDir");
    let mut derived = |config: &mut ServerConfig, dir: PathBuf, reason: &str| {
        config.cache_dir = Some(dir.to_string_lossy().into_owned());
        provenance.set(
            cache_path.clone(),
            Source::Derived {
                reason: reason.to_owned(),
            },
        );
    };
    match (&config.cache_dir, config.cache_in_vault) {
        (Some(_), true) => problems.push(ConfigProblem {
            path: "cacheInVault".to_owned(),
            via: provenance
                .source_of(&JsonPath::keys("cacheInVault"))
                .cloned(),
            message: "cacheDir is set too: keep one of the two".to_owned(),
        }),
        (Some(dir), false) => {
            let from_file = matches!(provenance.source_of(&cache_path), Some(Source::File { .. }));
            if Path::new(dir).is_absolute() || from_file {
                config.cache_dir = Some(anchored(base_dir, Path::new(dir)));
            } else {
                problems.push(ConfigProblem {
                    path: cache_path.to_string(),
                    via: provenance.source_of(&cache_path).cloned(),
                    message: format!("{dir:?} is relative: give an absolute folder"),
                });
            }
        }
        (None, true) => {
            let first = config.vaults.first();
            if let Some(dir) = first.map(|vault| Path::new(&vault.path).join(CACHE_DIR_NAME)) {
                derived(
                    config,
                    dir,
                    "cacheInVault: .obsidian-tc inside the (first) vault",
                );
            }
        }
        (None, false) => match &input.origin {
            ConfigOrigin::File { .. } => {
                let dir = PathBuf::from(anchored(base_dir, Path::new(CACHE_DIR_NAME)));
                derived(config, dir, "default: .obsidian-tc next to the config file");
            }
            ConfigOrigin::VaultFolder(vault) => {
                match CacheHome::new(Platform::CURRENT, &input.env, vault) {
                    Ok(home) => {
                        let reason = "zero-config: the platform cache folder of this vault";
                        derived(config, home.dir(), reason);
                        return Some(home);
                    }
                    Err(message) => problems.push(ConfigProblem {
                        path: cache_path.to_string(),
                        via: None,
                        message,
                    }),
                }
            }
        },
    }
    None
}

/// `path` made absolute against `base` (when relative), without `.` components.
fn anchored(base: &Path, path: &Path) -> String {
    let joined = base.join(path);
    let cleaned: PathBuf = joined
        .components()
        .filter(|c| !matches!(c, Component::CurDir))
        .collect();
    cleaned.to_string_lossy().into_owned()
}

fn require_absolute(path: &Path, what: &str) -> Result<(), ConfigErrors> {
    if path.is_absolute() {
        Ok(())
    } else {
        Err(single(ConfigProblem::new(
            "(root)",
            format!("{what} {} must be an absolute path", path.display()),
        )))
    }
}

fn single(problem: ConfigProblem) -> ConfigErrors {
    ConfigErrors(vec![problem])
}

/// Overlays `overlay` on `base`: objects merge key by key, anything else replaces.
fn merge(base: &mut Value, overlay: Value) {
    match (base, overlay) {
        (Value::Object(base), Value::Object(overlay)) => {
            for (key, value) in overlay {
                match base.get_mut(&key) {
                    Some(existing) => merge(existing, value),
                    None => {
                        base.insert(key, value);
                    }
                }
            }
        }
        (base, overlay) => *base = overlay,
    }
}

/// Sets the value at `path` (object keys only), creating missing objects on the way. Returns
/// false, changing nothing, when a value on the way is not an object: the file's own wrong
/// value is then what validation reports.
fn set_at(document: &mut Value, path: &JsonPath, value: Value) -> bool {
    let Some((last, parents)) = path.segments().split_last() else {
        *document = value;
        return true;
    };
    let mut here = document;
    for segment in parents {
        let Segment::Key(key) = segment else {
            return false;
        };
        let Value::Object(map) = here else {
            return false;
        };
        here = map
            .entry(key.clone())
            .or_insert_with(|| Value::Object(Map::new()));
    }
    match (here, last) {
        (Value::Object(map), Segment::Key(key)) => {
            map.insert(key.clone(), value);
            true
        }
        _ => false,
    }
}

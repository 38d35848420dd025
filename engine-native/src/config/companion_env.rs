//! `OBSIDIAN_TC_COMPANION_URL` and `OBSIDIAN_TC_COMPANION_TOKEN`: the companion TC Bridge hands
//! the server it starts (`serve --http <vault>`). They set the `companion` of the one vault
//! served, over what the config file says and over the plugin's settings file; the loopback
//! check of every companion address then applies to them as to the file's.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::config::env::{COMPANION_TOKEN_VAR, COMPANION_URL_VAR};
use crate::config::problem::ConfigProblem;
use crate::config::provenance::{Provenance, Source};
use crate::schema::JsonPath;

/// Sets `vaults[0].companion.url` (and `.token`) of `document` from the variables in `env`,
/// keeping the vault's other companion settings (its timeouts). A problem, changing nothing,
/// when only the token is given or when the configuration does not serve exactly one vault.
pub fn apply_companion_env(
    document: &mut Value,
    env: &BTreeMap<String, String>,
    provenance: &mut Provenance,
) -> Result<(), ConfigProblem> {
    let url = env.get(COMPANION_URL_VAR);
    let token = env.get(COMPANION_TOKEN_VAR);
    let Some(url) = url else {
        return match token {
            None => Ok(()),
            Some(_) => Err(from_env(
                COMPANION_TOKEN_VAR,
                "vaults",
                format!(
                    "is set without {COMPANION_URL_VAR}: give both, TC Bridge's address \
                     (http://127.0.0.1:PORT) and its token"
                ),
            )),
        };
    };
    let vaults = document.get_mut("vaults").and_then(Value::as_array_mut);
    let vault = match vaults {
        Some(vaults) if vaults.len() == 1 => &mut vaults[0],
        other => {
            let served = other.map_or(0, |vaults| vaults.len());
            return Err(from_env(
                COMPANION_URL_VAR,
                "vaults",
                format!(
                    "names the companion of the one vault served, and this configuration \
                     serves {served}: set vaults[].companion in the config file instead"
                ),
            ));
        }
    };
    let Some(vault) = vault.as_object_mut() else {
        // not an object: schema validation reports the vault itself
        return Ok(());
    };
    let at = JsonPath::keys("vaults").index(0).key("companion");
    let mut companion = match vault.get("companion") {
        Some(Value::Object(settings)) => settings.clone(),
        _ => {
            provenance.set(
                at.clone(),
                Source::Derived {
                    reason: format!("{COMPANION_URL_VAR} is set: the other settings at defaults"),
                },
            );
            Map::new()
        }
    };
    companion.insert("url".to_owned(), Value::String(url.clone()));
    provenance.set(at.key("url"), env_source(COMPANION_URL_VAR));
    if let Some(token) = token {
        companion.insert("token".to_owned(), Value::String(token.clone()));
        provenance.set(at.key("token"), env_source(COMPANION_TOKEN_VAR));
    }
    vault.insert("companion".to_owned(), Value::Object(companion));
    Ok(())
}

fn env_source(name: &str) -> Source {
    Source::Env {
        name: name.to_owned(),
    }
}

/// A problem at `path` caused by the variable `name`.
fn from_env(name: &str, path: &str, message: String) -> ConfigProblem {
    ConfigProblem {
        path: path.to_owned(),
        via: Some(env_source(name)),
        message: format!("{name} {message}"),
    }
}

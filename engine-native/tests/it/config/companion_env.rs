//! `OBSIDIAN_TC_COMPANION_URL` / `_TOKEN` at config load: the companion of the one vault
//! served, over the file's `companion` (its timeouts kept), loopback only, never shown; and
//! `companion: false` / `true` in the file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use obsidian_tc::config::sections::{CompanionConfig, CompanionSetting};
use obsidian_tc::config::{ConfigErrors, ConfigOrigin, LoadInput, LoadedConfig, load};
use serde_json::{Value, json};

use crate::support::cache_home::cache_env;

const URL: &str = "http://127.0.0.1:27190";
const TOKEN: &str = "a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9b0c1d2e3f4a5b6c7d8e9f0a1b2";

fn input(origin: ConfigOrigin, env: &[(&str, &str)]) -> LoadInput {
    LoadInput {
        origin,
        env: env
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect::<BTreeMap<_, _>>(),
        overrides: Vec::new(),
    }
}

fn vault_folder(env: &[(&str, &str)]) -> Result<LoadedConfig, Vec<String>> {
    let mut input = input(ConfigOrigin::VaultFolder(PathBuf::from("/v")), env);
    input.env.extend(cache_env(Path::new("/cache")));
    outcome(input)
}

fn file(config: &Value, env: &[(&str, &str)]) -> Result<LoadedConfig, Vec<String>> {
    let origin = ConfigOrigin::File {
        path: PathBuf::from("/cfg/c.json"),
        text: config.to_string(),
    };
    outcome(input(origin, env))
}

fn outcome(input: LoadInput) -> Result<LoadedConfig, Vec<String>> {
    load(&input).map_err(|ConfigErrors(list)| list.iter().map(ToString::to_string).collect())
}

fn companion_of(loaded: &LoadedConfig) -> Option<&CompanionSetting> {
    loaded.config.vaults[0].companion.as_ref()
}

#[test]
fn the_variables_give_the_zero_config_vault_its_companion() {
    let loaded = vault_folder(&[
        ("OBSIDIAN_TC_COMPANION_URL", URL),
        ("OBSIDIAN_TC_COMPANION_TOKEN", TOKEN),
    ])
    .expect("valid");
    let expected = CompanionConfig::at(URL.to_owned(), Some(TOKEN.to_owned()));
    assert_eq!(companion_of(&loaded), Some(&CompanionSetting::At(expected)));
    let explained = loaded.explain();
    let source = |path: &str| {
        explained
            .iter()
            .find(|value| value.path == path)
            .map(|value| value.source.clone())
    };
    assert_eq!(
        source("vaults[0].companion.url").as_deref(),
        Some("env OBSIDIAN_TC_COMPANION_URL")
    );
    assert_eq!(
        source("vaults[0].companion.token").as_deref(),
        Some("env OBSIDIAN_TC_COMPANION_TOKEN")
    );
    let shown = loaded.to_redacted_json();
    assert_eq!(shown["vaults"][0]["companion"]["token"], "<redacted>");
    assert!(!shown.to_string().contains(TOKEN));
    assert!(
        !serde_json::to_string(&explained)
            .expect("JSON")
            .contains(TOKEN)
    );
}

#[test]
fn the_variables_win_over_the_file_and_keep_its_timeouts() {
    let with_timeouts = json!({"vaults": [{"id": "main", "path": "/v", "companion": {
        "url": "http://127.0.0.1:1111", "token": "old", "confirmTimeoutMs": 900}}]});
    let turned_off = json!({"vaults": [{"id": "main", "path": "/v", "companion": false}]});
    let env = [
        ("OBSIDIAN_TC_COMPANION_URL", URL),
        ("OBSIDIAN_TC_COMPANION_TOKEN", TOKEN),
    ];
    let loaded = file(&with_timeouts, &env).expect("valid");
    let Some(CompanionSetting::At(companion)) = companion_of(&loaded) else {
        panic!("a companion: {:?}", companion_of(&loaded));
    };
    assert_eq!(
        (companion.url.as_str(), companion.token.as_deref()),
        (URL, Some(TOKEN))
    );
    assert_eq!(companion.confirm_timeout_ms, 900);
    let loaded = file(&turned_off, &env).expect("valid");
    assert!(matches!(
        companion_of(&loaded),
        Some(CompanionSetting::At(_))
    ));
    // a URL alone: TC Bridge without a token
    let loaded = vault_folder(&[("OBSIDIAN_TC_COMPANION_URL", URL)]).expect("valid");
    let Some(CompanionSetting::At(companion)) = companion_of(&loaded) else {
        panic!("a companion");
    };
    assert_eq!(companion.token, None);
}

#[test]
fn the_variables_are_refused_with_what_to_do() {
    let remote = vault_folder(&[
        ("OBSIDIAN_TC_COMPANION_URL", "http://192.0.2.7:27190"),
        ("OBSIDIAN_TC_COMPANION_TOKEN", TOKEN),
    ])
    .expect_err("not loopback");
    assert!(
        remote.iter().any(|p| p.starts_with(
            "vaults[0].companion.url (from env OBSIDIAN_TC_COMPANION_URL): \"http://192.0.2.7:27190\" is not a loopback HTTP address"
        )),
        "{remote:?}"
    );
    assert!(!remote.iter().any(|p| p.contains(TOKEN)), "{remote:?}");

    let token_alone = vault_folder(&[("OBSIDIAN_TC_COMPANION_TOKEN", TOKEN)]).expect_err("no url");
    assert!(
        token_alone
            .iter()
            .any(|p| p
                .contains("OBSIDIAN_TC_COMPANION_TOKEN is set without OBSIDIAN_TC_COMPANION_URL")),
        "{token_alone:?}"
    );

    let two = json!({"vaults": [{"id": "a", "path": "/a"}, {"id": "b", "path": "/b"}]});
    let found = file(&two, &[("OBSIDIAN_TC_COMPANION_URL", URL)]).expect_err("two vaults");
    assert!(
        found
            .iter()
            .any(|p| p.contains("serves 2: set vaults[].companion")),
        "{found:?}"
    );
}

#[test]
fn companion_false_and_true_are_accepted_and_anything_else_is_not() {
    for (setting, expected) in [
        (json!(false), Some(CompanionSetting::Discover(false))),
        (json!(true), Some(CompanionSetting::Discover(true))),
    ] {
        let config = json!({"vaults": [{"id": "main", "path": "/v", "companion": setting}]});
        let loaded = file(&config, &[]).expect("valid");
        assert_eq!(companion_of(&loaded).cloned(), expected);
        assert_eq!(loaded.to_redacted_json()["vaults"][0]["companion"], setting);
    }
    let config = json!({"vaults": [{"id": "main", "path": "/v", "companion": "auto"}]});
    let found = file(&config, &[]).expect_err("a string");
    assert!(
        found.iter().any(|p| p.starts_with("vaults[0].companion")),
        "{found:?}"
    );
    let config = json!({"vaults": [{"id": "main", "path": "/v", "companion": {"token": "t"}}]});
    let found = file(&config, &[]).expect_err("no url");
    assert!(found.iter().any(|p| p.contains("url")), "{found:?}");
}

//! The `auth` block at config load: JWKS file and inline keys, the algorithm allowlist, the
//! resource metadata URL and the static token of `mode: "token"`, each problem at its JSON
//! path with what to do.

use std::collections::BTreeMap;
use std::path::Path;

use obsidian_tc::config::{AuthMode, ConfigErrors, ConfigOrigin, LoadInput, LoadedConfig, load};
use serde_json::{Value, json};

use crate::support::auth::{SECRET, fixture, jwks};

fn load_file(path: &Path, config: &Value) -> Result<LoadedConfig, Vec<String>> {
    load_with(path, config, &[])
}

/// Loads `config` as the file at `path` with the environment variables `env`.
fn load_with(
    path: &Path,
    config: &Value,
    env: &[(&str, &str)],
) -> Result<LoadedConfig, Vec<String>> {
    let input = LoadInput {
        origin: ConfigOrigin::File {
            path: path.to_path_buf(),
            text: config.to_string(),
        },
        env: env
            .iter()
            .map(|(name, value)| ((*name).to_owned(), (*value).to_owned()))
            .collect::<BTreeMap<_, _>>(),
        overrides: Vec::new(),
    };
    load(&input).map_err(|ConfigErrors(list)| list.iter().map(ToString::to_string).collect())
}

fn with_auth(auth: Value) -> Value {
    json!({"vaults": [{"id": "main", "path": "/v"}], "auth": auth})
}

fn problems(auth: Value) -> Vec<String> {
    load_file(Path::new("/cfg/c.json"), &with_auth(auth)).expect_err("expected problems")
}

#[test]
fn a_relative_jwks_file_is_read_next_to_the_config_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("keys.json"), fixture("jwks.json")).expect("jwks file");
    let loaded = load_file(
        &dir.path().join("c.json"),
        &with_auth(json!({"mode": "jwt", "jwksFile": "keys.json"})),
    )
    .unwrap_or_else(|p| panic!("valid: {p:?}"));
    assert_eq!(
        loaded.config.auth.jwks_file.as_deref().map(Path::new),
        Some(dir.path().join("keys.json").as_path())
    );
}

#[test]
fn an_unreadable_or_unparseable_jwks_file_is_a_problem() {
    let found = problems(json!({"mode": "jwt", "jwksFile": "/nonexistent/keys.json"}));
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("auth.jwksFile: cannot read")),
        "{found:?}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("keys.json");
    std::fs::write(&file, "not json").expect("file");
    let found = problems(json!({"mode": "jwt", "jwksFile": file.to_string_lossy()}));
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("auth.jwksFile: ") && p.contains("is not JSON")),
        "{found:?}"
    );
}

#[test]
fn each_bad_jwks_key_is_named_by_its_index() {
    let mut keys = jwks();
    let mut list = keys["keys"].as_array().expect("keys").clone();
    list.push(json!({"kty": "oct", "kid": "sym", "k": "c2VjcmV0"}));
    list.push(json!({"kty": "EC", "crv": "P-256", "x": list[1]["x"], "y": list[1]["y"]}));
    list.push(list[0].clone());
    list.push(json!({"kty": "RSA", "kid": "r2", "alg": "ES256", "n": list[0]["n"], "e": "AQAB"}));
    keys.insert("keys".to_owned(), Value::Array(list));
    let found = problems(json!({"mode": "jwt", "jwks": keys}));
    let at = |index: usize, words: &str| {
        found
            .iter()
            .any(|p| p.starts_with(&format!("auth.jwks.keys[{index}]: ")) && p.contains(words))
    };
    assert!(at(3, "symmetric"), "{found:?}");
    assert!(at(4, "no kid"), "{found:?}");
    assert!(at(5, "used twice"), "{found:?}");
    assert!(at(6, "verifies RS256 only"), "{found:?}");
    assert_eq!(found.len(), 4, "{found:?}");
}

#[test]
fn the_allowlist_needs_a_key_for_each_algorithm() {
    let found = problems(json!({"mode": "jwt", "jwks": jwks(), "algorithms": ["HS256"]}));
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("auth.algorithms[0]: HS256 needs auth.jwtSecret")),
        "{found:?}"
    );
    let found = problems(json!({"mode": "jwt", "jwtSecret": SECRET, "algorithms": ["EdDSA"]}));
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("auth.algorithms[0]: EdDSA needs the public keys")),
        "{found:?}"
    );
    let found = problems(json!({"mode": "jwt", "jwtSecret": SECRET, "algorithms": ["none"]}));
    assert!(
        found.iter().any(|p| p.starts_with("auth.algorithms[0]")),
        "{found:?}"
    );
}

#[test]
fn jwt_needs_a_key_and_metadata_needs_a_url() {
    let found = problems(json!({"mode": "jwt"}));
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("auth: ") && p.contains("auth.jwks")),
        "{found:?}"
    );
    let found = problems(json!({
        "mode": "jwt", "jwtSecret": SECRET, "resourceMetadata": {"resource": "tc.example.com"}
    }));
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("auth.resourceMetadata.resource: ")),
        "{found:?}"
    );
}

/// A token as TC Bridge makes them (64 hex characters).
const STATIC_TOKEN: &str = "0f1e2d3c4b5a69788796a5b4c3d2e1f00f1e2d3c4b5a69788796a5b4c3d2e1f0";

fn load_env(config: &Value, env: &[(&str, &str)]) -> Result<LoadedConfig, Vec<String>> {
    load_with(Path::new("/cfg/c.json"), config, env)
}

#[test]
fn a_static_token_turns_token_mode_on_and_is_never_shown() {
    for (config, env) in [
        (
            with_auth(json!({})),
            vec![("OBSIDIAN_TC_HTTP_TOKEN", STATIC_TOKEN)],
        ),
        (with_auth(json!({"token": STATIC_TOKEN})), vec![]),
        (
            with_auth(json!({"mode": "token", "token": STATIC_TOKEN})),
            vec![],
        ),
    ] {
        let loaded = load_env(&config, &env).unwrap_or_else(|p| panic!("{config}: {p:?}"));
        assert_eq!(loaded.config.auth.mode, AuthMode::Token, "{config}");
        assert_eq!(loaded.config.auth.token.as_deref(), Some(STATIC_TOKEN));
        let shown = loaded.to_redacted_json();
        assert_eq!(shown["auth"]["token"], "<redacted>", "{shown}");
        assert!(!shown.to_string().contains(STATIC_TOKEN));
        let explained = serde_json::to_string(&loaded.explain()).expect("JSON");
        assert!(!explained.contains(STATIC_TOKEN), "{explained}");
    }
    let derived = load_env(
        &with_auth(json!({})),
        &[("OBSIDIAN_TC_HTTP_TOKEN", STATIC_TOKEN)],
    )
    .expect("valid");
    let mode = derived
        .explain()
        .into_iter()
        .find(|value| value.path == "auth.mode")
        .expect("auth.mode explained");
    assert_eq!(mode.source, "derived: auth.token is set");
}

#[test]
fn token_mode_problems_say_what_to_do() {
    let short = load_env(
        &with_auth(json!({})),
        &[("OBSIDIAN_TC_HTTP_TOKEN", "0123456789")],
    )
    .expect_err("short");
    assert!(
        short.iter().any(|p| p.starts_with(
            "auth.token (from env OBSIDIAN_TC_HTTP_TOKEN): is shorter than 32 characters"
        )),
        "{short:?}"
    );
    assert!(!short.iter().any(|p| p.contains("0123456789")), "{short:?}");

    let found = problems(json!({"mode": "jwt", "jwtSecret": SECRET, "token": STATIC_TOKEN}));
    assert!(
        found
            .iter()
            .any(|p| p
                .starts_with("auth.token: a static bearer token is set but auth.mode is \"jwt\"")),
        "{found:?}"
    );
    let found = problems(json!({"mode": "none", "token": STATIC_TOKEN}));
    assert!(
        found.iter().any(|p| p.contains("auth.mode is \"none\"")),
        "{found:?}"
    );
    let found = problems(json!({"mode": "token"}));
    assert!(
        found
            .iter()
            .any(|p| p.starts_with("auth: auth.mode \"token\" needs auth.token")),
        "{found:?}"
    );
    let remote = json!({
        "vaults": [{"id": "main", "path": "/v"}],
        "auth": {"token": STATIC_TOKEN},
        "transports": {"http": {"enabled": true, "host": "0.0.0.0"}},
    });
    let found = load_env(&remote, &[]).expect_err("remote bind");
    assert!(
        found.iter().any(|p| p.starts_with(
            "transports.http.host: auth.mode \"token\" is for a client on this machine"
        )),
        "{found:?}"
    );
}

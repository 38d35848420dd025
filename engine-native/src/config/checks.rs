//! Checks that need more than the schema: ACL globs and scopes, vault ids, and the refusal of
//! unauthenticated HTTP beyond loopback.

use std::collections::BTreeSet;
use std::net::IpAddr;

use engine_core::acl::{AclConfig, AclConfigProblem, AclPolicy, CaseMode, Glob};

use crate::auth::metadata::metadata_url;
use crate::auth::{MIN_STATIC_TOKEN_CHARS, StaticToken, VerifyKeys};
use crate::config::embeddings::embeddings_problems;
use crate::config::model::ServerConfig;
use crate::config::problem::ConfigProblem;
use crate::config::sections::{AuthConfig, AuthMode, CompanionSetting, JwtAlgorithm};
use crate::schema::JsonPath;

/// The shortest HS256 secret accepted.
pub const MIN_JWT_SECRET_CHARS: usize = 32;

/// Every problem of a config that has the right shape.
pub fn semantic_problems(config: &ServerConfig) -> Vec<ConfigProblem> {
    let mut out = Vec::new();
    check_vaults(config, &mut out);
    if let Some(acl) = &config.acl {
        check_acl(&JsonPath::keys("acl"), acl, &mut out);
    }
    for (index, vault) in config.vaults.iter().enumerate() {
        if let Some(acl) = &vault.acl {
            check_acl(
                &JsonPath::keys("vaults").index(index).key("acl"),
                acl,
                &mut out,
            );
        }
    }
    check_auth(config, &mut out);
    check_index_exclude(config, &mut out);
    check_allowed_origins(config, &mut out);
    check_companions(config, &mut out);
    out.extend(embeddings_problems(&config.embeddings));
    out
}

/// Every glob of `index.exclude` and `inference.excludePaths` compiles.
fn check_index_exclude(config: &ServerConfig, out: &mut Vec<ConfigProblem>) {
    let lists = [
        ("index", "exclude", &config.index.exclude),
        ("inference", "excludePaths", &config.inference.exclude_paths),
    ];
    for (section, key, globs) in lists {
        for (index, glob) in globs.iter().enumerate() {
            if let Err(error) = Glob::compile(glob, CaseMode::Sensitive) {
                out.push(ConfigProblem::new(
                    JsonPath::keys(section).key(key).index(index).to_string(),
                    format!(
                        "{glob:?} is not a glob ({}): write a vault-relative pattern such as \
                         Archive or **/drafts",
                        error.as_str()
                    ),
                ));
            }
        }
    }
}

/// A companion URL is `http://` on a loopback host with a port and nothing after it.
fn check_companions(config: &ServerConfig, out: &mut Vec<ConfigProblem>) {
    for (index, vault) in config.vaults.iter().enumerate() {
        let Some(CompanionSetting::At(companion)) = &vault.companion else {
            continue;
        };
        if !is_loopback_http_url(&companion.url) {
            out.push(ConfigProblem::new(
                JsonPath::keys("vaults")
                    .index(index)
                    .key("companion")
                    .key("url")
                    .to_string(),
                format!(
                    "{:?} is not a loopback HTTP address: write http://127.0.0.1:PORT with the \
                     port TC Bridge shows in its settings (the token must not cross a network)",
                    companion.url
                ),
            ));
        }
    }
}

/// Whether `url` is `http://HOST:PORT` (optionally ending in `/`) with a loopback `HOST`.
fn is_loopback_http_url(url: &str) -> bool {
    let Some(rest) = url.strip_prefix("http://") else {
        return false;
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    match rest.rsplit_once(':') {
        Some((host, port)) => is_loopback(host) && port.parse::<u16>().is_ok_and(|p| p > 0),
        None => false,
    }
}

fn check_vaults(config: &ServerConfig, out: &mut Vec<ConfigProblem>) {
    if config.vaults.is_empty() {
        out.push(ConfigProblem::new(
            "vaults",
            r#"no vault is configured: add {"id": "main", "path": "/path/to/vault"}"#,
        ));
    }
    let mut seen = BTreeSet::new();
    for (index, vault) in config.vaults.iter().enumerate() {
        let at = JsonPath::keys("vaults").index(index);
        if !valid_vault_id(&vault.id) {
            out.push(ConfigProblem::new(
                at.key("id").to_string(),
                format!("{:?}: use letters, digits, '-' and '_' only", vault.id),
            ));
        } else if !seen.insert(vault.id.as_str()) {
            out.push(ConfigProblem::new(
                at.key("id").to_string(),
                format!(
                    "{:?} is used by an earlier vault: give each vault its own id",
                    vault.id
                ),
            ));
        }
        if vault.path.trim().is_empty() {
            out.push(ConfigProblem::new(
                at.key("path").to_string(),
                "is empty: give the vault's folder",
            ));
        }
    }
}

fn check_acl(at: &JsonPath, acl: &AclConfig, out: &mut Vec<ConfigProblem>) {
    if let Err(error) = AclPolicy::compile(acl) {
        let reason = match error.problem {
            AclConfigProblem::Glob(e) => e.as_str(),
            AclConfigProblem::Scope(e) => e.as_str(),
            AclConfigProblem::NegatedRuleGlob => "a rule glob cannot start with '!'",
        };
        out.push(ConfigProblem::new(
            at.join_display(&error.location),
            format!(
                "{:?} is not valid ({reason}): fix or remove it",
                error.value
            ),
        ));
    }
}

fn check_auth(config: &ServerConfig, out: &mut Vec<ConfigProblem>) {
    let auth = &config.auth;
    let http = &config.transports.http;
    match auth.mode {
        AuthMode::None if http.enabled && !is_loopback(&http.host) => {
            out.push(ConfigProblem::new(
                "transports.http.host",
                format!(
                    "auth.mode \"none\" gives every scope to anyone who can reach {:?}; bind \
                     HTTP to 127.0.0.1 (or ::1, localhost), or set auth.mode to \"jwt\" with \
                     auth.jwtSecret (or env OBSIDIAN_TC_JWT_SECRET, {MIN_JWT_SECRET_CHARS}+ \
                     characters) or auth.jwksFile",
                    http.host
                ),
            ));
        }
        AuthMode::Token if http.enabled && !is_loopback(&http.host) => {
            out.push(ConfigProblem::new(
                "transports.http.host",
                format!(
                    "auth.mode \"token\" is for a client on this machine, and {:?} is reachable \
                     from others: bind HTTP to 127.0.0.1 (or ::1, localhost), or use auth.mode \
                     \"jwt\" for remote clients",
                    http.host
                ),
            ));
        }
        AuthMode::Token if auth.token.is_none() => {
            out.push(ConfigProblem::new(
                "auth",
                format!(
                    "auth.mode \"token\" needs auth.token (or env OBSIDIAN_TC_HTTP_TOKEN, \
                     {MIN_STATIC_TOKEN_CHARS}+ characters)"
                ),
            ));
        }
        AuthMode::Jwt
            if auth.jwt_secret.is_none() && auth.jwks.is_none() && auth.jwks_file.is_none() =>
        {
            out.push(ConfigProblem::new(
                "auth",
                "auth.mode \"jwt\" needs auth.jwtSecret (or env OBSIDIAN_TC_JWT_SECRET), \
                 auth.jwks or auth.jwksFile",
            ));
        }
        _ => {}
    }
    if let Some(secret) = &auth.jwt_secret
        && secret.chars().count() < MIN_JWT_SECRET_CHARS
    {
        out.push(ConfigProblem::new(
            "auth.jwtSecret",
            format!(
                "is shorter than {MIN_JWT_SECRET_CHARS} characters: use a longer random secret"
            ),
        ));
    }
    if auth.token.is_some() && auth.mode != AuthMode::Token {
        out.push(ConfigProblem::new(
            "auth.token",
            format!(
                "a static bearer token is set but auth.mode is {:?}, which would ignore it: set \
                 auth.mode to \"token\" or remove the token",
                auth_mode_name(auth.mode)
            ),
        ));
    }
    if let Some(Err(problem)) = auth.token.as_deref().map(StaticToken::new) {
        out.push(ConfigProblem::new("auth.token", problem));
    }
    check_algorithms(auth, out);
    if let Some(metadata) = &auth.resource_metadata
        && metadata_url(&metadata.resource).is_none()
    {
        out.push(ConfigProblem::new(
            "auth.resourceMetadata.resource",
            format!(
                "{:?} is not an http(s) URL: write the public URL of the MCP endpoint, e.g. \
                 \"https://tc.example.com/mcp\"",
                metadata.resource
            ),
        ));
    }
}

/// `mode` as it is written in the config.
fn auth_mode_name(mode: AuthMode) -> &'static str {
    match mode {
        AuthMode::None => "none",
        AuthMode::Token => "token",
        AuthMode::Jwt => "jwt",
    }
}

/// Every algorithm on `auth.algorithms` has a key to verify it.
fn check_algorithms(auth: &AuthConfig, out: &mut Vec<ConfigProblem>) {
    let has_jwks = auth.jwks.is_some() || auth.jwks_file.is_some();
    for (index, algorithm) in auth.algorithms.iter().flatten().enumerate() {
        let at = JsonPath::keys("auth.algorithms").index(index).to_string();
        match algorithm {
            JwtAlgorithm::HS256 if auth.jwt_secret.is_none() => out.push(ConfigProblem::new(
                at,
                "HS256 needs auth.jwtSecret (or env OBSIDIAN_TC_JWT_SECRET): set one or \
                 remove HS256",
            )),
            JwtAlgorithm::RS256 | JwtAlgorithm::ES256 | JwtAlgorithm::EdDSA if !has_jwks => {
                out.push(ConfigProblem::new(
                    at,
                    format!(
                        "{algorithm:?} needs the public keys in auth.jwks or auth.jwksFile: set \
                         one or remove {algorithm:?}"
                    ),
                ));
            }
            _ => {}
        }
    }
}

/// The problems of the JWKS (unreadable file, bad or duplicate keys), checked once paths are
/// resolved: the same loading the server does at start.
pub fn auth_key_problems(config: &ServerConfig) -> Vec<ConfigProblem> {
    VerifyKeys::load(&config.auth)
        .err()
        .unwrap_or_default()
        .into_iter()
        .map(|problem| ConfigProblem::new(problem.path, problem.message))
        .collect()
}

fn check_allowed_origins(config: &ServerConfig, out: &mut Vec<ConfigProblem>) {
    let at = JsonPath::keys("transports.http.allowedOrigins");
    for (index, origin) in config.transports.http.allowed_origins.iter().enumerate() {
        if !is_origin(origin) {
            out.push(ConfigProblem::new(
                at.index(index).to_string(),
                format!(
                    "{origin:?} is not an origin: write scheme, host and optional port, e.g. \
                     \"http://localhost:3000\" or \"https://app.example.com\" (no path)"
                ),
            ));
        }
    }
}

/// Whether `text` is a web origin: `http` or `https`, a host, an optional numeric port, and
/// nothing else.
fn is_origin(text: &str) -> bool {
    let Some(rest) = text
        .strip_prefix("http://")
        .or_else(|| text.strip_prefix("https://"))
    else {
        return false;
    };
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) if !host.ends_with(':') && !port.contains(']') => (host, Some(port)),
        _ => (rest, None),
    };
    let host_ok = !host.is_empty()
        && !host
            .chars()
            .any(|c| matches!(c, '/' | '?' | '#' | '@' | '*' | ' '));
    host_ok && port.is_none_or(|port| port.parse::<u16>().is_ok())
}

/// Whether binding `host` only accepts connections from this machine.
pub fn is_loopback(host: &str) -> bool {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    bare.eq_ignore_ascii_case("localhost")
        || bare.parse::<IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// Whether `id` is a valid vault id: letters, digits, `-` and `_`, at least one.
pub fn valid_vault_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn companion_urls() {
        for url in [
            "http://127.0.0.1:27125",
            "http://localhost:8080/",
            "http://[::1]:9",
        ] {
            assert!(is_loopback_http_url(url), "{url}");
        }
        for url in [
            "https://127.0.0.1:27125",
            "http://192.168.1.5:27125",
            "http://127.0.0.1",
            "http://127.0.0.1:0",
            "http://127.0.0.1:27125/api",
            "127.0.0.1:27125",
        ] {
            assert!(!is_loopback_http_url(url), "{url}");
        }
    }

    #[test]
    fn origins() {
        for origin in [
            "http://localhost:3000",
            "https://app.example.com",
            "http://[::1]:8080",
            "http://127.0.0.1",
        ] {
            assert!(is_origin(origin), "{origin}");
        }
        for origin in [
            "localhost:3000",
            "ftp://x",
            "http://",
            "http://a.com/path",
            "http://a.com:port",
            "http://a.com:*",
            "null",
        ] {
            assert!(!is_origin(origin), "{origin}");
        }
    }

    #[test]
    fn loopback_hosts() {
        for host in ["127.0.0.1", "127.3.2.1", "::1", "[::1]", "LOCALHOST"] {
            assert!(is_loopback(host), "{host}");
        }
        for host in ["0.0.0.0", "::", "192.168.1.2", "example.com", ""] {
            assert!(!is_loopback(host), "{host}");
        }
    }
}

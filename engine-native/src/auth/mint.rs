//! HS256 tokens signed with `auth.jwtSecret`, for `obsidian-tc token mint`: claims `sub`,
//! `iat`, `exp`, the `scopes` array, and `vault`, `aud`, `iss` when given.

use engine_core::acl::Scope;
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde::Serialize;

use crate::auth::settings::AuthConfig;

/// What a minted token says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MintRequest {
    /// The caller id (`sub`).
    pub sub: String,
    /// The granted scopes, each `family:resource` (or `*`).
    pub scopes: Vec<String>,
    /// The one vault the token may use.
    pub vault: Option<String>,
    /// How long the token lives, in seconds.
    pub ttl_seconds: u64,
}

#[derive(Serialize)]
struct MintedClaims<'a> {
    sub: &'a str,
    iat: u64,
    exp: u64,
    scopes: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    vault: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    aud: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    iss: Option<&'a str>,
}

/// A token for `request`, issued at `now` (Unix seconds), signed with `auth.jwtSecret` and
/// carrying `auth.audience`/`auth.issuer` when those are set, so that this server accepts it.
/// Refused when there is no secret, a scope does not parse, or the TTL is zero or longer than
/// the server's maximum token age.
pub fn mint_hs256(auth: &AuthConfig, request: &MintRequest, now: u64) -> Result<String, String> {
    let secret = auth.jwt_secret.as_ref().ok_or(
        "no HS256 secret: set auth.jwtSecret in the config file or OBSIDIAN_TC_JWT_SECRET \
         (at least 32 characters)",
    )?;
    if request.sub.is_empty() {
        return Err("--sub must name the caller".to_owned());
    }
    for scope in &request.scopes {
        Scope::parse(scope).map_err(|e| {
            format!("scope {scope:?} is not family:resource ({e}), e.g. read:notes or *")
        })?;
    }
    if request.ttl_seconds == 0 || request.ttl_seconds > auth.token_ttl_seconds {
        return Err(format!(
            "--ttl must be between 1 and {} seconds (auth.tokenTtlSeconds): the server refuses \
             older tokens",
            auth.token_ttl_seconds
        ));
    }
    let claims = MintedClaims {
        sub: &request.sub,
        iat: now,
        exp: now.saturating_add(request.ttl_seconds),
        scopes: &request.scopes,
        vault: request.vault.as_deref(),
        aud: auth.audience.as_deref(),
        iss: auth.issuer.as_deref(),
    };
    jsonwebtoken::encode(
        &Header::new(Algorithm::HS256),
        &claims,
        &EncodingKey::from_secret(secret.as_bytes()),
    )
    .map_err(|e| format!("cannot sign the token: {e}"))
}

//! The `auth` section of the configuration: how HTTP callers authenticate.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// How HTTP callers authenticate (`auth`). stdio callers are trusted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields, default)]
pub struct AuthConfig {
    /// `none` grants every scope and is refused on a non-loopback HTTP bind; `token` requires
    /// the one static bearer token `token` (loopback binds only); `jwt` requires a signed
    /// bearer JWT. Unset, a configured `token` makes it `token`.
    pub mode: AuthMode,
    /// The static bearer token of `mode: "token"` (at least 32 characters); better set
    /// through `OBSIDIAN_TC_HTTP_TOKEN`. Never shown by `config show` or `get_server_config`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<String>,
    /// The HS256 secret (at least 32 characters); better set through `OBSIDIAN_TC_JWT_SECRET`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jwt_secret: Option<String>,
    /// An inline JWKS (`{"keys": [...]}`) with the public keys of asymmetric tokens (RS256,
    /// ES256, EdDSA), each with a `kid`. Never fetched from a URL.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jwks: Option<serde_json::Map<String, serde_json::Value>>,
    /// A local JWKS file (relative to the config file), read once at start.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub jwks_file: Option<String>,
    /// The algorithms accepted; default `HS256` when a secret is set, plus `RS256`, `ES256`
    /// and `EdDSA` when a JWKS is set.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(length(min = 1))]
    pub algorithms: Option<Vec<JwtAlgorithm>>,
    /// The `aud` a token must carry, when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audience: Option<String>,
    /// The `iss` a token must carry, when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub issuer: Option<String>,
    /// The maximum age of a token, measured from its `iat`, in seconds (whatever its `exp`).
    #[schemars(range(min = 1))]
    pub token_ttl_seconds: u64,
    /// RFC 9728 protected-resource metadata served at `/.well-known/oauth-protected-resource`
    /// and named in the `WWW-Authenticate` challenge of a 401, when set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub resource_metadata: Option<ResourceMetadataConfig>,
    /// Let a JWT without a `vault` claim use every vault, as earlier builds did. Off by
    /// default: such a token is bound to the default vault (`defaultVault`, else the first
    /// one), like a token whose claim names it. Turning it on makes every claimless token a
    /// key to every vault of the server: only for a single user's own set-up.
    pub unbound_tokens_all_vaults: bool,
}

impl Default for AuthConfig {
    fn default() -> AuthConfig {
        AuthConfig {
            mode: AuthMode::None,
            token: None,
            jwt_secret: None,
            jwks: None,
            jwks_file: None,
            algorithms: None,
            audience: None,
            issuer: None,
            token_ttl_seconds: 86_400,
            resource_metadata: None,
            unbound_tokens_all_vaults: false,
        }
    }
}

/// The authentication mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum AuthMode {
    /// No authentication: every caller gets every scope (loopback only).
    None,
    /// One static bearer token (`token`) for a client on this machine, such as the one TC
    /// Bridge hands the server it starts; the caller gets every scope (loopback only).
    Token,
    /// Bearer JSON Web Tokens, checked against `jwtSecret` or the JWKS.
    Jwt,
}

/// A JWT signature algorithm the server can accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
pub enum JwtAlgorithm {
    /// HMAC-SHA-256 with `jwtSecret`.
    HS256,
    /// RSASSA-PKCS1-v1_5 with SHA-256, against an RSA key of the JWKS.
    RS256,
    /// ECDSA on P-256 with SHA-256, against a P-256 key of the JWKS.
    ES256,
    /// Ed25519, against an OKP key of the JWKS.
    EdDSA,
}

/// What the protected-resource metadata document (RFC 9728) says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ResourceMetadataConfig {
    /// The public URL of the MCP endpoint, e.g. `https://tc.example.com/mcp`.
    pub resource: String,
    /// The issuers of accepted tokens (`authorization_servers`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub authorization_servers: Vec<String>,
}

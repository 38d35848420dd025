//! The keys that verify bearer tokens, loaded once at start from `auth`: the HS256 secret,
//! and the public keys of a local JWKS (`auth.jwks` inline or `auth.jwksFile`; never a URL).
//!
//! Each JWKS key accepts exactly one algorithm, fixed by its key type: RSA → `RS256`, EC
//! P-256 → `ES256`, OKP Ed25519 → `EdDSA`. Symmetric (`oct`) keys are refused in a JWKS: the
//! only HMAC key is the secret. Every key needs a distinct `kid`.

use std::collections::BTreeMap;

use jsonwebtoken::DecodingKey;
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, Jwk, KeyAlgorithm};
use serde_json::Value;

use crate::auth::settings::{AuthConfig, JwtAlgorithm};

/// What is wrong with the configured keys: the config path of the offending value and what
/// to do (the config loader reports it as a config problem).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyProblem {
    /// Where the value is, e.g. `auth.jwks.keys[0]`.
    pub path: String,
    /// What is wrong, and what to do about it.
    pub message: String,
}

impl KeyProblem {
    /// A problem at `path` with `message`.
    fn new(path: impl Into<String>, message: impl Into<String>) -> KeyProblem {
        KeyProblem {
            path: path.into(),
            message: message.into(),
        }
    }
}

impl std::fmt::Display for KeyProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

/// A JWKS public key and the one algorithm it verifies.
pub struct JwksKey {
    /// The algorithm its key type verifies.
    pub algorithm: JwtAlgorithm,
    /// The key.
    pub key: DecodingKey,
}

/// The verification keys of `auth`.
pub struct VerifyKeys {
    /// The HS256 secret, when `auth.jwtSecret` is set.
    pub secret: Option<DecodingKey>,
    /// The JWKS keys by `kid`.
    pub jwks: BTreeMap<String, JwksKey>,
}

impl VerifyKeys {
    /// Loads the secret and the JWKS of `auth`, or every problem found (at config paths).
    pub fn load(auth: &AuthConfig) -> Result<VerifyKeys, Vec<KeyProblem>> {
        let mut problems = Vec::new();
        let jwks = match jwks_document(auth) {
            Ok(Some((at, document))) => keys_of(&at, &document, &mut problems),
            Ok(None) => BTreeMap::new(),
            Err(problem) => {
                problems.push(problem);
                BTreeMap::new()
            }
        };
        if problems.is_empty() {
            Ok(VerifyKeys {
                secret: auth
                    .jwt_secret
                    .as_ref()
                    .map(|s| DecodingKey::from_secret(s.as_bytes())),
                jwks,
            })
        } else {
            Err(problems)
        }
    }
}

/// The algorithms accepted under `auth`: `auth.algorithms`, else `HS256` when a secret is set
/// plus `RS256`, `ES256` and `EdDSA` when a JWKS is set.
pub fn effective_algorithms(auth: &AuthConfig) -> Vec<JwtAlgorithm> {
    if let Some(configured) = &auth.algorithms {
        return configured.clone();
    }
    let mut out = Vec::new();
    if auth.jwt_secret.is_some() {
        out.push(JwtAlgorithm::HS256);
    }
    if auth.jwks.is_some() || auth.jwks_file.is_some() {
        out.extend([
            JwtAlgorithm::RS256,
            JwtAlgorithm::ES256,
            JwtAlgorithm::EdDSA,
        ]);
    }
    out
}

/// The JWKS document and the config path to report its problems at, when one is configured.
fn jwks_document(auth: &AuthConfig) -> Result<Option<(String, Value)>, KeyProblem> {
    match (&auth.jwks, &auth.jwks_file) {
        (Some(_), Some(_)) => Err(KeyProblem::new(
            "auth.jwksFile",
            "set either auth.jwks (inline) or auth.jwksFile, not both",
        )),
        (Some(inline), None) => Ok(Some((
            "auth.jwks".to_owned(),
            Value::Object(inline.clone()),
        ))),
        (None, Some(file)) => {
            let text = std::fs::read_to_string(file).map_err(|e| {
                KeyProblem::new(
                    "auth.jwksFile",
                    format!("cannot read {file}: {e}; give the path of a local JWKS file"),
                )
            })?;
            let document = serde_json::from_str(&text).map_err(|e| {
                KeyProblem::new(
                    "auth.jwksFile",
                    format!("{file} is not JSON ({e}): it must hold a JWKS {{\"keys\": [...]}}"),
                )
            })?;
            Ok(Some((format!("auth.jwksFile ({file})"), document)))
        }
        (None, None) => Ok(None),
    }
}

/// The usable keys of a JWKS document; a problem for each key that is not.
fn keys_of(
    at: &str,
    document: &Value,
    problems: &mut Vec<KeyProblem>,
) -> BTreeMap<String, JwksKey> {
    let mut out = BTreeMap::new();
    let Some(keys) = document.get("keys").and_then(Value::as_array) else {
        problems.push(KeyProblem::new(
            at,
            "a JWKS is an object with a \"keys\" array of public JWKs",
        ));
        return out;
    };
    for (index, raw) in keys.iter().enumerate() {
        let path = format!("{at}.keys[{index}]");
        match jwks_key(raw) {
            Ok((kid, _)) if out.contains_key(&kid) => problems.push(KeyProblem::new(
                path,
                format!("kid {kid:?} is used twice: give every key its own kid"),
            )),
            Ok((kid, key)) => {
                out.insert(kid, key);
            }
            Err(message) => problems.push(KeyProblem::new(path, message)),
        }
    }
    out
}

/// One JWK as a `kid` and the key with its algorithm.
fn jwks_key(raw: &Value) -> Result<(String, JwksKey), String> {
    let jwk: Jwk = serde_json::from_value(raw.clone())
        .map_err(|e| format!("is not a JWK ({e}): write kty, kid and the public key members"))?;
    let kid = jwk
        .common
        .key_id
        .clone()
        .filter(|kid| !kid.is_empty())
        .ok_or("has no kid: tokens select their key by kid, so give every key one")?;
    let algorithm = match &jwk.algorithm {
        AlgorithmParameters::RSA(_) => JwtAlgorithm::RS256,
        AlgorithmParameters::EllipticCurve(ec) if ec.curve == EllipticCurve::P256 => {
            JwtAlgorithm::ES256
        }
        AlgorithmParameters::OctetKeyPair(okp) if okp.curve == EllipticCurve::Ed25519 => {
            JwtAlgorithm::EdDSA
        }
        AlgorithmParameters::OctetKey(_) => {
            return Err(
                "is a symmetric (oct) key: HMAC tokens are verified only with auth.jwtSecret, \
                 so remove it from the JWKS"
                    .to_owned(),
            );
        }
        _ => {
            return Err(
                "has an unsupported key type: use RSA (RS256), EC P-256 (ES256) or OKP \
                 Ed25519 (EdDSA) public keys"
                    .to_owned(),
            );
        }
    };
    if let Some(declared) = jwk.common.key_algorithm
        && declared != key_algorithm(algorithm)
    {
        return Err(format!(
            "declares alg {declared:?}, but its key type verifies {algorithm:?} only"
        ));
    }
    let key = DecodingKey::from_jwk(&jwk)
        .map_err(|e| format!("kid {kid:?} is not a usable public key: {e}"))?;
    Ok((kid, JwksKey { algorithm, key }))
}

/// The JWK `alg` value naming `algorithm`.
fn key_algorithm(algorithm: JwtAlgorithm) -> KeyAlgorithm {
    match algorithm {
        JwtAlgorithm::HS256 => KeyAlgorithm::HS256,
        JwtAlgorithm::RS256 => KeyAlgorithm::RS256,
        JwtAlgorithm::ES256 => KeyAlgorithm::ES256,
        JwtAlgorithm::EdDSA => KeyAlgorithm::EdDSA,
    }
}

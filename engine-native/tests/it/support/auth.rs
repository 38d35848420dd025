//! Shared helpers of the JWT auth tests: the fixture keys under `tests/fixtures/jwt/`, a
//! secret, and tokens signed with them.
#![allow(dead_code)]

use std::path::PathBuf;

use jsonwebtoken::{Algorithm, EncodingKey, Header};
use serde_json::{Map, Value, json};

/// A 40-character HS256 secret.
pub const SECRET: &str = "test-secret-0123456789-0123456789-abcdef";

/// The folder of the fixture keys.
pub fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/jwt")
}

/// The bytes of fixture `name`.
pub fn fixture(name: &str) -> Vec<u8> {
    std::fs::read(fixtures().join(name)).expect("fixture file")
}

/// The fixture JWKS (`rsa-1`, `ec-1`, `ed-1`) as a JSON object.
pub fn jwks() -> Map<String, Value> {
    serde_json::from_slice(&fixture("jwks.json")).expect("jwks.json is a JSON object")
}

/// Signs `claims` with `alg`: HS256 with [`SECRET`], the others with the fixture private key
/// of that type; `kid` goes in the header.
pub fn sign(alg: Algorithm, kid: Option<&str>, claims: &Value) -> String {
    let key = match alg {
        Algorithm::HS256 => EncodingKey::from_secret(SECRET.as_bytes()),
        Algorithm::RS256 => EncodingKey::from_rsa_pem(&fixture("rsa-private.pem")).expect("rsa"),
        Algorithm::ES256 => EncodingKey::from_ec_pem(&fixture("ec-private.pem")).expect("ec"),
        Algorithm::EdDSA => {
            EncodingKey::from_ed_pem(&fixture("ed25519-private.pem")).expect("ed25519")
        }
        other => panic!("no fixture key for {other:?}"),
    };
    sign_with(alg, kid, claims, &key)
}

/// Signs `claims` with `alg` and `key`.
pub fn sign_with(alg: Algorithm, kid: Option<&str>, claims: &Value, key: &EncodingKey) -> String {
    let mut header = Header::new(alg);
    header.kid = kid.map(str::to_owned);
    jsonwebtoken::encode(&header, claims, key).expect("sign")
}

/// Claims issued at `now`, valid for an hour, for caller `sub` with `scopes`.
pub fn claims(now: u64, sub: &str, scopes: &[&str]) -> Value {
    json!({"sub": sub, "iat": now, "exp": now + 3600, "scopes": scopes})
}

/// `token` re-headed as `alg: none` with no signature.
pub fn unsigned(token: &str) -> String {
    let payload = token.split('.').nth(1).expect("a JWS has a payload");
    // {"alg":"none","typ":"JWT"}
    format!("eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.{payload}.")
}

/// The HS256 token an attacker makes from the RSA public key's PEM bytes (alg confusion).
pub fn confused(claims: &Value) -> String {
    let key = EncodingKey::from_secret(&fixture("rsa-public.pem"));
    sign_with(Algorithm::HS256, Some("rsa-1"), claims, &key)
}

//! One bearer token to the [`Caller`] it stands for: header → allowlisted algorithm → the one
//! key that may verify it → signature → claims (`exp`, `nbf`, `iat` age, `aud`, `iss`) →
//! `sub`, scopes and vault binding. Time is passed in, so tests are deterministic.

use engine_core::acl::Scope;
use jsonwebtoken::errors::ErrorKind;
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde::Deserialize;

use crate::auth::Caller;
use crate::auth::failure::{AuthFailure, FailureReason};
use crate::auth::keys::KeyProblem;
use crate::auth::keys::{VerifyKeys, effective_algorithms};
use crate::auth::settings::{AuthConfig, JwtAlgorithm};

/// The clock skew tolerated on `exp`, `nbf` and `iat`, in seconds.
pub const CLOCK_LEEWAY_SECONDS: u64 = 30;

/// Verifies bearer tokens under one `auth` configuration (keys loaded once).
pub struct Verifier {
    keys: VerifyKeys,
    algorithms: Vec<JwtAlgorithm>,
    audience: Option<String>,
    issuer: Option<String>,
    max_age_seconds: u64,
}

/// The claims read from a token; others are ignored.
#[derive(Deserialize)]
struct Claims {
    exp: Option<u64>,
    nbf: Option<u64>,
    iat: Option<u64>,
    sub: Option<String>,
    aud: Option<Audience>,
    iss: Option<String>,
    scopes: Option<Vec<String>>,
    scope: Option<String>,
    vault: Option<String>,
}

/// `aud`: one string or an array of them.
#[derive(Deserialize)]
#[serde(untagged)]
enum Audience {
    One(String),
    Many(Vec<String>),
}

impl Audience {
    fn contains(&self, wanted: &str) -> bool {
        match self {
            Audience::One(one) => one == wanted,
            Audience::Many(many) => many.iter().any(|a| a == wanted),
        }
    }
}

impl Verifier {
    /// The verifier of `auth`: its keys, algorithm allowlist and claim checks.
    pub fn new(auth: &AuthConfig) -> Result<Verifier, Vec<KeyProblem>> {
        Ok(Verifier {
            keys: VerifyKeys::load(auth)?,
            algorithms: effective_algorithms(auth),
            audience: auth.audience.clone(),
            issuer: auth.issuer.clone(),
            max_age_seconds: auth.token_ttl_seconds,
        })
    }

    /// The caller `token` stands for at `now` (Unix seconds), or why it is refused.
    pub fn verify(&self, token: &str, now: u64) -> Result<Caller, AuthFailure> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| {
            AuthFailure::new(
                FailureReason::Malformed,
                "the bearer token is not a signed JWT with a supported alg (HS256, RS256, \
                 ES256, EdDSA; never \"none\"): send a token from your issuer or `obsidian-tc \
                 token mint`",
            )
        })?;
        let algorithm = self.allowed(header.alg)?;
        let key = self.key_for(algorithm, header.kid.as_deref())?;
        let mut validation = Validation::new(header.alg);
        validation.required_spec_claims.clear();
        validation.validate_exp = false;
        validation.validate_nbf = false;
        validation.validate_aud = false;
        let claims = jsonwebtoken::decode::<Claims>(token, key, &validation)
            .map_err(|e| decode_failure(e.kind()))?
            .claims;
        self.check_claims(&claims, now)?;
        caller_of(claims)
    }

    /// The token's algorithm, when it is on the allowlist.
    fn allowed(&self, alg: Algorithm) -> Result<JwtAlgorithm, AuthFailure> {
        let algorithm = match alg {
            Algorithm::HS256 => Some(JwtAlgorithm::HS256),
            Algorithm::RS256 => Some(JwtAlgorithm::RS256),
            Algorithm::ES256 => Some(JwtAlgorithm::ES256),
            Algorithm::EdDSA => Some(JwtAlgorithm::EdDSA),
            _ => None,
        };
        algorithm
            .filter(|a| self.algorithms.contains(a))
            .ok_or_else(|| {
                AuthFailure::new(
                    FailureReason::UnsupportedAlg,
                    format!(
                        "alg {alg:?} is not accepted here (accepted: {:?}): sign with one of \
                         those",
                        self.algorithms
                    ),
                )
            })
    }

    /// The only key that may verify a token of `algorithm`: the secret for HS256, the JWKS
    /// key named by `kid` (of the matching type) for the others.
    fn key_for(
        &self,
        algorithm: JwtAlgorithm,
        kid: Option<&str>,
    ) -> Result<&DecodingKey, AuthFailure> {
        if algorithm == JwtAlgorithm::HS256 {
            return self.keys.secret.as_ref().ok_or_else(|| {
                AuthFailure::new(
                    FailureReason::UnsupportedAlg,
                    "HS256 tokens are not accepted: this server has no auth.jwtSecret",
                )
            });
        }
        let kid = kid.ok_or_else(|| {
            AuthFailure::new(
                FailureReason::UnknownKid,
                "the token has no kid: asymmetric tokens must name their JWKS key in the header",
            )
        })?;
        let key = self.keys.jwks.get(kid).ok_or_else(|| {
            AuthFailure::new(
                FailureReason::UnknownKid,
                format!("no key with kid {kid:?} in the server's JWKS: sign with a listed key"),
            )
        })?;
        if key.algorithm != algorithm {
            return Err(AuthFailure::new(
                FailureReason::UnsupportedAlg,
                format!(
                    "key {kid:?} verifies {:?} only, the token says {algorithm:?}",
                    key.algorithm
                ),
            ));
        }
        Ok(&key.key)
    }

    /// `exp` (required), `nbf`, the age from `iat` (required), `aud` and `iss`.
    fn check_claims(&self, claims: &Claims, now: u64) -> Result<(), AuthFailure> {
        let exp = claims.exp.ok_or_else(|| missing("exp"))?;
        if exp.saturating_add(CLOCK_LEEWAY_SECONDS) <= now {
            return Err(AuthFailure::new(
                FailureReason::TokenExpired,
                "the token has expired: get a new one",
            ));
        }
        if let Some(nbf) = claims.nbf
            && nbf > now.saturating_add(CLOCK_LEEWAY_SECONDS)
        {
            return Err(AuthFailure::new(
                FailureReason::TokenNotYetValid,
                "the token is not valid yet (nbf is in the future): check the issuer's clock",
            ));
        }
        let iat = claims.iat.ok_or_else(|| missing("iat"))?;
        if iat > now.saturating_add(CLOCK_LEEWAY_SECONDS) {
            return Err(AuthFailure::new(
                FailureReason::Malformed,
                "the token was issued in the future (iat): check the issuer's clock",
            ));
        }
        if now.saturating_sub(iat) > self.max_age_seconds.saturating_add(CLOCK_LEEWAY_SECONDS) {
            return Err(AuthFailure::new(
                FailureReason::TokenMaxAge,
                format!(
                    "the token is older than {} seconds (from iat), whatever its exp: get a \
                     new one",
                    self.max_age_seconds
                ),
            ));
        }
        if let Some(wanted) = &self.audience
            && !claims.aud.as_ref().is_some_and(|aud| aud.contains(wanted))
        {
            return Err(AuthFailure::new(
                FailureReason::AudienceMismatch,
                format!("the token's aud does not name {wanted:?}: get a token for this server"),
            ));
        }
        if let Some(wanted) = &self.issuer
            && claims.iss.as_deref() != Some(wanted.as_str())
        {
            return Err(AuthFailure::new(
                FailureReason::IssuerMismatch,
                format!("the token's iss is not {wanted:?}: get a token from that issuer"),
            ));
        }
        Ok(())
    }
}

/// The caller of verified claims: `sub`, the scopes (`scopes` array, else the
/// space-separated `scope`), and the `vault` binding.
fn caller_of(claims: Claims) -> Result<Caller, AuthFailure> {
    let id = claims
        .sub
        .filter(|sub| !sub.is_empty())
        .ok_or_else(|| missing("sub"))?;
    let texts: Vec<String> = match (claims.scopes, claims.scope) {
        (Some(list), _) => list,
        (None, Some(text)) => text.split_whitespace().map(str::to_owned).collect(),
        (None, None) => Vec::new(),
    };
    let scopes = texts
        .iter()
        .map(|text| {
            Scope::parse(text).map_err(|e| {
                AuthFailure::new(
                    FailureReason::Malformed,
                    format!("scope {text:?} is not family:resource ({e}): fix the token's scopes"),
                )
            })
        })
        .collect::<Result<Vec<Scope>, AuthFailure>>()?;
    Ok(Caller {
        id,
        scopes,
        token_without_vault: claims.vault.is_none(),
        vault_binding: claims.vault,
    })
}

fn missing(claim: &str) -> AuthFailure {
    AuthFailure::new(
        FailureReason::MissingClaim,
        format!("the token has no {claim} claim: the server requires exp, iat and sub"),
    )
}

/// The failure of a token whose signature or claims could not be read.
fn decode_failure(kind: &ErrorKind) -> AuthFailure {
    match kind {
        ErrorKind::Json(_)
        | ErrorKind::Base64(_)
        | ErrorKind::Utf8(_)
        | ErrorKind::InvalidToken
        | ErrorKind::InvalidClaimFormat(_) => AuthFailure::new(
            FailureReason::Malformed,
            "the token's claims are unreadable (exp, nbf and iat are whole seconds, scopes an \
             array of strings): fix the token",
        ),
        _ => AuthFailure::new(
            FailureReason::BadSignature,
            "the token's signature does not verify: use a token signed by a key this server \
             trusts",
        ),
    }
}

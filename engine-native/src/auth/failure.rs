//! Why a bearer token was refused: a stable reason code and a message that says what to do.
//! Neither ever contains the token.

use std::fmt;

/// The reason a token was refused (the codes of the shipped server, plus `unknown_kid`,
/// `token_not_yet_valid` and `wrong_token`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureReason {
    /// No `Authorization: Bearer` header.
    MissingToken,
    /// Not a JWS compact token, a header naming no known algorithm, or unreadable claims.
    Malformed,
    /// The algorithm is not on the allowlist, or does not fit the key it names.
    UnsupportedAlg,
    /// The JWKS has no key with the token's `kid` (or the token has none).
    UnknownKid,
    /// The signature does not verify.
    BadSignature,
    /// A required claim (`exp`, `iat`, `sub`) is absent.
    MissingClaim,
    /// `exp` is past.
    TokenExpired,
    /// `nbf` is in the future.
    TokenNotYetValid,
    /// The token is older (from `iat`) than `auth.tokenTtlSeconds`.
    TokenMaxAge,
    /// `aud` does not name `auth.audience`.
    AudienceMismatch,
    /// `iss` is not `auth.issuer`.
    IssuerMismatch,
    /// Not the static token of `auth.mode: "token"`.
    WrongToken,
}

impl FailureReason {
    /// The reason's code, e.g. `token_expired`.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureReason::MissingToken => "missing_token",
            FailureReason::Malformed => "malformed",
            FailureReason::UnsupportedAlg => "unsupported_alg",
            FailureReason::UnknownKid => "unknown_kid",
            FailureReason::BadSignature => "bad_signature",
            FailureReason::MissingClaim => "missing_claim",
            FailureReason::TokenExpired => "token_expired",
            FailureReason::TokenNotYetValid => "token_not_yet_valid",
            FailureReason::TokenMaxAge => "token_max_age",
            FailureReason::AudienceMismatch => "audience_mismatch",
            FailureReason::IssuerMismatch => "issuer_mismatch",
            FailureReason::WrongToken => "wrong_token",
        }
    }
}

/// A refused token: the reason and what the client should do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuthFailure {
    /// Why.
    pub reason: FailureReason,
    /// A short explanation that says what to do.
    pub message: String,
}

impl AuthFailure {
    /// A failure with `reason` and `message`.
    pub fn new(reason: FailureReason, message: impl Into<String>) -> AuthFailure {
        AuthFailure {
            reason,
            message: message.into(),
        }
    }
}

impl fmt::Display for AuthFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.reason.as_str(), self.message)
    }
}

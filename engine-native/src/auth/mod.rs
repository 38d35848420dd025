//! Bearer authentication of HTTP callers: JWTs (`auth.mode: "jwt"`) and the static token of
//! a local client (`auth.mode: "token"`).
//!
//! - [`keys`]: the verification keys, loaded once at start: the HS256 secret and a local
//!   JWKS (inline or a file, never a URL), and the algorithm allowlist;
//! - [`verify`]: one token to the [`crate::auth::Caller`] it stands for, or the
//!   [`AuthFailure`] saying why not;
//! - [`mint`]: HS256 tokens for `obsidian-tc token mint`;
//! - [`metadata`]: RFC 9728 protected-resource metadata;
//! - [`static_token`]: the one token of `auth.mode: "token"`, compared in constant time.
//!
//! Algorithm confusion is impossible by construction: an `HS256` token is checked only
//! against the secret, an asymmetric one only against the JWKS key its `kid` names, and only
//! when that key's type matches the algorithm; `alg: none` is never accepted.

pub mod caller;
pub mod failure;
pub mod keys;
pub mod metadata;
pub mod mint;
pub mod settings;
pub mod static_token;
pub mod verify;

pub use caller::Caller;
pub use failure::{AuthFailure, FailureReason};
pub use keys::{KeyProblem, VerifyKeys, effective_algorithms};
pub use mint::{MintRequest, mint_hs256};
pub use static_token::{MIN_STATIC_TOKEN_CHARS, StaticToken};
pub use verify::{CLOCK_LEEWAY_SECONDS, Verifier};

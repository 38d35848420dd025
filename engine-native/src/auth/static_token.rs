//! The static bearer token of `auth.mode: "token"`: the one token a client on this machine
//! presents, such as the one TC Bridge hands the server it starts and shows in its settings.
//!
//! The presented token is compared in constant time (`subtle`): how long a refusal takes says
//! nothing about how much of a guess was right. Only a token's length can show, and every
//! accepted token is at least [`MIN_STATIC_TOKEN_CHARS`] long.

use std::fmt;

use subtle::ConstantTimeEq;

use crate::auth::failure::{AuthFailure, FailureReason};

/// The shortest static token accepted.
pub const MIN_STATIC_TOKEN_CHARS: usize = 32;

/// The token requests must present. Its `Debug` never shows it.
pub struct StaticToken {
    token: Vec<u8>,
}

impl fmt::Debug for StaticToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("StaticToken(<redacted>)")
    }
}

impl StaticToken {
    /// The token `token`, or why it is refused (shorter than [`MIN_STATIC_TOKEN_CHARS`]).
    pub fn new(token: &str) -> Result<StaticToken, String> {
        if token.chars().count() < MIN_STATIC_TOKEN_CHARS {
            return Err(format!(
                "is shorter than {MIN_STATIC_TOKEN_CHARS} characters: use a longer random token \
                 (TC Bridge makes one of 64)"
            ));
        }
        Ok(StaticToken {
            token: token.as_bytes().to_vec(),
        })
    }

    /// `Ok` when `presented` is the token; a refusal saying what to send otherwise.
    pub fn check(&self, presented: &str) -> Result<(), AuthFailure> {
        if bool::from(self.token.as_slice().ct_eq(presented.as_bytes())) {
            Ok(())
        } else {
            Err(AuthFailure::new(
                FailureReason::WrongToken,
                "the bearer token is not this server's: send the token TC Bridge's settings show \
                 (or the OBSIDIAN_TC_HTTP_TOKEN the server was started with)",
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOKEN: &str = "0123456789abcdef0123456789abcdef";

    #[test]
    fn only_the_exact_token_passes() {
        let token = StaticToken::new(TOKEN).expect("32 characters");
        assert!(token.check(TOKEN).is_ok());
        for wrong in [
            "",
            "0123456789abcdef",
            &TOKEN.to_uppercase(),
            &format!("{TOKEN}0"),
        ] {
            let refused = token.check(wrong).expect_err(wrong);
            assert_eq!(refused.reason, FailureReason::WrongToken);
        }
        assert!(!format!("{token:?}").contains(TOKEN));
    }

    #[test]
    fn a_short_token_is_refused() {
        let error = StaticToken::new(&TOKEN[1..]).expect_err("31 characters");
        assert!(error.contains("shorter than 32"), "{error}");
    }
}

//! [`Prompts`]: the texts a model wants before queries and before documents (e5's `query: ` /
//! `passage: `, bge's query instruction), applied by every local engine alike.

use std::borrow::Cow;

use engine_core::hash::sha256_hex;

use crate::embed::provider::EmbedKind;

/// How many hex digits of the prefixes' SHA-256 go into the fingerprint.
const DIGEST_CHARS: usize = 8;

/// The prefixes of queries and documents; empty strings when the model uses none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Prompts {
    /// Put before every search query.
    pub query: String,
    /// Put before every document (note chunk).
    pub document: String,
}

impl Prompts {
    /// The prefix of `kind`.
    pub fn prefix(&self, kind: EmbedKind) -> &str {
        match kind {
            EmbedKind::Query => &self.query,
            EmbedKind::Document => &self.document,
        }
    }

    /// `texts` with the prefix of `kind` in front, as the model is to read them (borrowed
    /// unchanged when the prefix is empty).
    pub fn apply<'a>(&self, texts: &[&'a str], kind: EmbedKind) -> Vec<Cow<'a, str>> {
        let prefix = self.prefix(kind);
        texts
            .iter()
            .map(|&text| {
                if prefix.is_empty() {
                    Cow::Borrowed(text)
                } else {
                    Cow::Owned(format!("{prefix}{text}"))
                }
            })
            .collect()
    }

    /// A short digest of both prefixes for the fingerprint; empty when there are none, so that
    /// a model without prompts keeps the same fingerprint form.
    pub fn digest(&self) -> String {
        if self.query.is_empty() && self.document.is_empty() {
            return String::new();
        }
        let both = format!("{}\u{0}{}", self.query, self.document);
        sha256_hex(both.as_bytes())[..DIGEST_CHARS].to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e5() -> Prompts {
        Prompts {
            query: "query: ".to_owned(),
            document: "passage: ".to_owned(),
        }
    }

    #[test]
    fn each_kind_gets_its_own_prefix_and_none_borrows() {
        let texts = ["cats", "dogs"];
        assert_eq!(
            e5().apply(&texts, EmbedKind::Query),
            ["query: cats", "query: dogs"]
        );
        assert_eq!(
            e5().apply(&texts, EmbedKind::Document),
            ["passage: cats", "passage: dogs"]
        );
        let plain = Prompts::default().apply(&texts, EmbedKind::Query);
        assert!(plain.iter().all(|t| matches!(t, Cow::Borrowed(_))));
        assert_eq!(plain, texts);
    }

    #[test]
    fn the_digest_is_empty_without_prompts_and_tells_prefixes_and_their_kinds_apart() {
        assert_eq!(Prompts::default().digest(), "");
        let digest = e5().digest();
        assert_eq!(digest.len(), DIGEST_CHARS);
        assert_eq!(digest, e5().digest());
        let swapped = Prompts {
            query: "passage: ".to_owned(),
            document: "query: ".to_owned(),
        };
        let query_only = Prompts {
            document: String::new(),
            ..e5()
        };
        assert_ne!(digest, swapped.digest());
        assert_ne!(digest, query_only.digest());
    }
}

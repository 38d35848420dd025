//! A scan for credentials in text bound for a remote embedding provider: which
//! [`SecretClass`]es a text holds and where, and the text with each one replaced by
//! `[REDACTED:<class>]`. Only class names and counts ever leave this module's callers; the
//! matched text is never logged or reported.
//!
//! Hand-written over `regex` (already a dependency): the Rust secret scanners on crates.io are
//! command-line tools over files and repositories, not a library over a string. Where each
//! shape comes from:
//!
//! - `openai_api_key`: `sk-` and the project, service-account and admin prefixes
//!   (`sk-proj-`, `sk-svcacct-`, `sk-admin-`) of OpenAI's API keys, as in gitleaks'
//!   `openai-api-key` rule.
//! - `anthropic_api_key`: `sk-ant-api03-…` and `sk-ant-admin01-…`, gitleaks'
//!   `anthropic-api-key` and `anthropic-admin-api-key` rules.
//! - `aws_access_key_id`: the unique-ID prefixes `AKIA`, `ASIA`, `ABIA`, `ACCA` and 16 upper
//!   case letters and digits (AWS IAM User Guide, "IAM identifiers", unique ID prefixes).
//! - `github_token`: `ghp_`, `gho_`, `ghu_`, `ghs_`, `ghr_` and 36 or more characters, and
//!   `github_pat_` fine-grained tokens (GitHub blog, "Behind GitHub's new authentication token
//!   formats", 2021).
//! - `slack_token`: `xoxb-`, `xoxp-`, `xoxa-`, `xoxr-`, `xoxs-` (Slack API docs, token types).
//! - `google_api_key`: `AIza` and 35 characters (gitleaks `gcp-api-key`).
//! - `stripe_secret_key`: `sk_live_` and `rk_live_` (Stripe docs, "API keys"; test keys are
//!   not secrets).
//! - `jwt`: three base64url parts, the first two starting `eyJ` (the encoding of `{"`),
//!   RFC 7519's compact serialisation.
//! - `private_key`: a PEM block `-----BEGIN … PRIVATE KEY-----` (RFC 7468; also OpenSSH's
//!   `OPENSSH PRIVATE KEY` and OpenPGP's `PGP PRIVATE KEY BLOCK`), to its `END` line or the
//!   end of the text.
//! - `bearer_token`: `Bearer <token>` (RFC 6750 §2.1).
//! - `credential_assignment`: a value after a credential-named key (`password`, `passwd`,
//!   `secret`, `api_key`, `access_token`, `auth_token`, `client_secret`, `private_key`) and
//!   `:` or `=`, the `key: value` form of configuration files and notes.
//!
//! The entropy gate (the original's `secrets` suite scanned "with an entropy gate"): a match
//! counts only when the random part's Shannon entropy reaches [`MIN_ENTROPY_BITS`] per
//! character, so documentation placeholders (`sk-xxxxxxxx…`, `password: changeme`) do not.
//! PEM blocks and JWTs are counted without it (their shape alone is the secret's). Free-standing
//! high-entropy strings without a key shape are not reported: notes are full of commit hashes,
//! digests and UUIDs, and the original gated shapes rather than scanning for randomness alone.

use std::collections::BTreeMap;
use std::ops::Range;
use std::sync::LazyLock;

use regex::Regex;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The least Shannon entropy, in bits per character, of a candidate's random part.
pub const MIN_ENTROPY_BITS: f64 = 3.0;

/// A kind of credential.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SecretClass {
    /// An OpenAI API key (`sk-…`, `sk-proj-…`).
    OpenaiApiKey,
    /// An Anthropic API key (`sk-ant-…`).
    AnthropicApiKey,
    /// An AWS access key id (`AKIA…`).
    AwsAccessKeyId,
    /// A GitHub token (`ghp_…`, `github_pat_…`).
    GithubToken,
    /// A Slack token (`xoxb-…`).
    SlackToken,
    /// A Google API key (`AIza…`).
    GoogleApiKey,
    /// A Stripe live secret or restricted key (`sk_live_…`).
    StripeSecretKey,
    /// A JSON Web Token.
    Jwt,
    /// A PEM private key block.
    PrivateKey,
    /// An HTTP bearer token.
    BearerToken,
    /// A value after a credential-named key (`password: …`, `api_key = …`).
    CredentialAssignment,
}

impl SecretClass {
    /// The class's name, e.g. `aws_access_key_id`.
    pub fn name(self) -> &'static str {
        match self {
            SecretClass::OpenaiApiKey => "openai_api_key",
            SecretClass::AnthropicApiKey => "anthropic_api_key",
            SecretClass::AwsAccessKeyId => "aws_access_key_id",
            SecretClass::GithubToken => "github_token",
            SecretClass::SlackToken => "slack_token",
            SecretClass::GoogleApiKey => "google_api_key",
            SecretClass::StripeSecretKey => "stripe_secret_key",
            SecretClass::Jwt => "jwt",
            SecretClass::PrivateKey => "private_key",
            SecretClass::BearerToken => "bearer_token",
            SecretClass::CredentialAssignment => "credential_assignment",
        }
    }
}

/// What to do with a chunk that holds a secret before it goes to a remote embedding provider
/// (`embeddings.secrets`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub enum SecretsAction {
    /// Do not send the chunk: it gets no vector (lexical search still finds it), as the
    /// original did.
    #[default]
    Skip,
    /// Send the chunk with each secret replaced by `[REDACTED:<class>]`.
    Redact,
    /// Send chunks as they are (no scan).
    Off,
}

/// One credential found: its class and where it lies (byte offsets into the scanned text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretMatch {
    /// Its class.
    pub class: SecretClass,
    /// Its bytes in the text.
    pub span: Range<usize>,
}

/// Which part of a pattern's match the entropy gate weighs.
#[derive(Clone, Copy)]
enum Gate {
    /// No gate.
    None,
    /// Capture group 1, the random part, must reach [`MIN_ENTROPY_BITS`].
    Entropy,
}

/// A credential shape: the class, the pattern (its match is what is redacted) and the gate.
struct Pattern {
    class: SecretClass,
    regex: &'static str,
    gate: Gate,
}

/// The shapes, most specific first: an overlapping later match is dropped.
const PATTERNS: &[Pattern] = &[
    Pattern {
        class: SecretClass::PrivateKey,
        regex: r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?s:.*?)(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|\z)",
        gate: Gate::None,
    },
    Pattern {
        class: SecretClass::AnthropicApiKey,
        regex: r"(?-u:\b)sk-ant-(?:api|admin)\d{2}-([A-Za-z0-9_-]{32,})",
        gate: Gate::Entropy,
    },
    Pattern {
        class: SecretClass::OpenaiApiKey,
        regex: r"(?-u:\b)sk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_-]{32,})",
        gate: Gate::Entropy,
    },
    Pattern {
        class: SecretClass::StripeSecretKey,
        regex: r"(?-u:\b)[sr]k_live_([0-9A-Za-z]{24,})",
        gate: Gate::Entropy,
    },
    Pattern {
        class: SecretClass::AwsAccessKeyId,
        regex: r"(?-u:\b)(?:AKIA|ASIA|ABIA|ACCA)([A-Z0-9]{16})(?-u:\b)",
        gate: Gate::Entropy,
    },
    Pattern {
        class: SecretClass::GithubToken,
        regex: r"(?-u:\b)(?:gh[pousr]_([A-Za-z0-9]{36,255})|github_pat_([A-Za-z0-9_]{60,255}))(?-u:\b)",
        gate: Gate::Entropy,
    },
    Pattern {
        class: SecretClass::SlackToken,
        regex: r"(?-u:\b)xox[abprs]-([A-Za-z0-9-]{10,})",
        gate: Gate::Entropy,
    },
    Pattern {
        class: SecretClass::GoogleApiKey,
        regex: r"(?-u:\b)AIza([0-9A-Za-z_-]{35})",
        gate: Gate::Entropy,
    },
    Pattern {
        class: SecretClass::Jwt,
        regex: r"(?-u:\b)eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
        gate: Gate::None,
    },
    Pattern {
        class: SecretClass::BearerToken,
        regex: r"(?-u:\b)[Bb]earer[ \t]+([A-Za-z0-9._~+/-]{20,}=*)",
        gate: Gate::Entropy,
    },
    Pattern {
        class: SecretClass::CredentialAssignment,
        regex: r#"(?i)(?:(?-u:\b)|_)(?:password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|client[_-]?secret|private[_-]?key)["']?[ \t]*[:=][ \t]*["']?([^\s"'`,;]{8,})"#,
        gate: Gate::Entropy,
    },
];

/// The compiled [`PATTERNS`], in order.
static COMPILED: LazyLock<Vec<(SecretClass, Regex, Gate)>> = LazyLock::new(|| {
    PATTERNS
        .iter()
        .map(|pattern| {
            let regex = Regex::new(pattern.regex).unwrap_or_else(|error| {
                unreachable!(
                    "secret pattern {} is invalid: {error}",
                    pattern.class.name()
                )
            });
            (pattern.class, regex, pattern.gate)
        })
        .collect()
});

/// The credentials in `text`, in order of position, none overlapping another.
pub fn find_secrets(text: &str) -> Vec<SecretMatch> {
    let mut found: Vec<SecretMatch> = Vec::new();
    for (class, regex, gate) in COMPILED.iter() {
        for captures in regex.captures_iter(text) {
            let Some(whole) = captures.get(0) else {
                continue;
            };
            if !passes(&captures, *gate) || overlaps(&found, &whole.range()) {
                continue;
            }
            found.push(SecretMatch {
                class: *class,
                span: whole.range(),
            });
        }
    }
    found.sort_by_key(|secret| secret.span.start);
    found
}

/// Whether a match clears its gate: the first present capture group, the random part, is
/// no placeholder and carries enough entropy.
fn passes(captures: &regex::Captures<'_>, gate: Gate) -> bool {
    match gate {
        Gate::None => true,
        Gate::Entropy => captures
            .iter()
            .skip(1)
            .flatten()
            .next()
            .is_some_and(|part| {
                !is_placeholder(part.as_str()) && entropy_bits(part.as_str()) >= MIN_ENTROPY_BITS
            }),
    }
}

/// Whether `value` reads as a placeholder or code rather than a secret: a template (`${…}`,
/// `{{…}}`, `<…>`), masked (`****`), a call (`env(…)`), an upper-case name such as
/// `YOUR_API_KEY`, or a value that says it is one (`your_password`, `example…`).
fn is_placeholder(value: &str) -> bool {
    let constant_name = value.contains('_')
        && value
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_' || c == '-');
    let lower = value.to_ascii_lowercase();
    constant_name
        || value.contains(['$', '{', '<', '*', '('])
        || lower.starts_with("your")
        || lower.contains("example")
}

fn overlaps(found: &[SecretMatch], span: &Range<usize>) -> bool {
    found
        .iter()
        .any(|secret| secret.span.start < span.end && span.start < secret.span.end)
}

/// The Shannon entropy of `text`'s characters, in bits per character (0 for empty text).
pub fn entropy_bits(text: &str) -> f64 {
    let mut counts: BTreeMap<char, usize> = BTreeMap::new();
    let mut total = 0usize;
    for c in text.chars() {
        *counts.entry(c).or_default() += 1;
        total += 1;
    }
    if total == 0 {
        return 0.0;
    }
    let total = total as f64;
    counts
        .values()
        .map(|&count| {
            let p = count as f64 / total;
            -p * p.log2()
        })
        .sum()
}

/// `text` with each of `found` (from [`find_secrets`] over `text`) replaced by
/// `[REDACTED:<class>]`.
pub fn redact(text: &str, found: &[SecretMatch]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for secret in found {
        out.push_str(&text[at..secret.span.start]);
        out.push_str("[REDACTED:");
        out.push_str(secret.class.name());
        out.push(']');
        at = secret.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// How many of each class `found` holds.
pub fn class_counts(found: &[SecretMatch]) -> BTreeMap<SecretClass, usize> {
    let mut counts = BTreeMap::new();
    for secret in found {
        *counts.entry(secret.class).or_default() += 1;
    }
    counts
}

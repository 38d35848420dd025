//! The credential scan: every class found in its shape, placeholders and near misses not
//! found, spans redacted to `[REDACTED:<class>]`, and the entropy gate.

use obsidian_tc::content::secrets::{
    MIN_ENTROPY_BITS, SecretClass, class_counts, entropy_bits, find_secrets, redact,
};

/// Realistic-looking credentials assembled at run time, so the repository holds no string
/// a secret scanner would stop on.
fn key(prefix: &str, body: &str) -> String {
    format!("{prefix}{body}")
}

const RANDOM_48: &str = "Zq3vT8kLm2Xw9rBn4cYh7JpD1sFg6aUe5oKi0MtRzWxEvQbN";
const RANDOM_UPPER_16: &str = "Q7RZ2KX94WNB5TJM";

fn classes(text: &str) -> Vec<SecretClass> {
    find_secrets(text).into_iter().map(|s| s.class).collect()
}

#[test]
fn each_provider_key_shape_is_found_by_its_class() {
    let cases = [
        (key("sk-proj-", RANDOM_48), SecretClass::OpenaiApiKey),
        (key("sk-", RANDOM_48), SecretClass::OpenaiApiKey),
        (
            key("sk-ant-api03-", RANDOM_48),
            SecretClass::AnthropicApiKey,
        ),
        (key("AKIA", RANDOM_UPPER_16), SecretClass::AwsAccessKeyId),
        (key("ghp_", &RANDOM_48[..36]), SecretClass::GithubToken),
        (
            key("github_pat_", &format!("{RANDOM_48}_{RANDOM_48}")),
            SecretClass::GithubToken,
        ),
        (
            key("xoxb-", "2741-88213-Zq3vT8kLm2Xw9rBn"),
            SecretClass::SlackToken,
        ),
        (key("AIza", &RANDOM_48[..35]), SecretClass::GoogleApiKey),
        (
            key("sk_live_", &RANDOM_48[..30]),
            SecretClass::StripeSecretKey,
        ),
        (
            format!(
                "{}.{}.{}",
                key("eyJ", "hbGciOiJIUzI1NiJ9"),
                key("eyJ", "zdWIiOiIxMjM0In0"),
                "Sfl3KxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
            ),
            SecretClass::Jwt,
        ),
        (
            format!("Authorization: Bearer {}", &RANDOM_48[..32]),
            SecretClass::BearerToken,
        ),
        (
            "password: Tr0ub4dor&3xQ!".to_owned(),
            SecretClass::CredentialAssignment,
        ),
        (
            format!("api_key = \"{}\"", &RANDOM_48[..24]),
            SecretClass::CredentialAssignment,
        ),
    ];
    for (secret, class) in cases {
        let text = format!("Some notes.\n{secret}\nMore notes.");
        assert_eq!(classes(&text), vec![class], "{secret}");
    }
}

#[test]
fn a_private_key_block_is_found_whole_and_redacted_whole() {
    let block = format!(
        "-----BEGIN {kind}PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC\n{RANDOM_48}\n-----END {kind}PRIVATE KEY-----",
        kind = "RSA "
    );
    let text = format!("Server key:\n{block}\nafter");
    let found = find_secrets(&text);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].class, SecretClass::PrivateKey);
    assert_eq!(&text[found[0].span.clone()], block);
    assert_eq!(
        redact(&text, &found),
        "Server key:\n[REDACTED:private_key]\nafter"
    );
    // An OpenSSH key cut off by the chunk's end is still the secret, to the end.
    let cut = format!(
        "-----BEGIN OPENSSH {}-----\nb3BlbnNzaC1rZXktdjEAAAAA",
        "PRIVATE KEY"
    );
    assert_eq!(classes(&cut), vec![SecretClass::PrivateKey]);
    // A public key or a certificate is not a secret.
    assert!(
        classes("-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----").is_empty()
    );
    assert!(classes("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----").is_empty());
}

#[test]
fn redaction_replaces_each_secret_and_keeps_the_rest() {
    let aws = key("AKIA", RANDOM_UPPER_16);
    let openai = key("sk-", RANDOM_48);
    let text = format!("aws {aws} and openai {openai}, done");
    let found = find_secrets(&text);
    let redacted = redact(&text, &found);
    assert_eq!(
        redacted,
        "aws [REDACTED:aws_access_key_id] and openai [REDACTED:openai_api_key], done"
    );
    assert!(!redacted.contains(&aws) && !redacted.contains(RANDOM_48));
    let counts = class_counts(&found);
    assert_eq!(counts.get(&SecretClass::AwsAccessKeyId), Some(&1));
    assert_eq!(counts.get(&SecretClass::OpenaiApiKey), Some(&1));
}

#[test]
fn an_anthropic_key_is_not_also_counted_as_an_openai_key() {
    let text = key("sk-ant-admin01-", RANDOM_48);
    assert_eq!(classes(&text), vec![SecretClass::AnthropicApiKey]);
}

#[test]
fn near_misses_and_placeholders_are_not_secrets() {
    let near_misses = [
        // Placeholders: the entropy gate and the template shapes.
        "export OPENAI_API_KEY=sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx".to_owned(),
        "password: changeme".to_owned(),
        "password: ********".to_owned(),
        "api_key: YOUR_API_KEY_HERE".to_owned(),
        "secret: ${VAULT_SECRET}".to_owned(),
        "password = {{ db_password }}".to_owned(),
        "password = \"your_postgres_password\"".to_owned(),
        "password = MyStyleBlackTextField()".to_owned(),
        "privateKey = vm.envUint(\"PRIVATE_KEY\")".to_owned(),
        "api_key: example-key-123456".to_owned(),
        "token: <paste-your-token>".to_owned(),
        "Authorization: Bearer <token>".to_owned(),
        // Too short or the wrong case for the shape.
        "sk-short".to_owned(),
        "AKIA1234".to_owned(),
        key("akia", &RANDOM_UPPER_16.to_lowercase()),
        "ghp_short".to_owned(),
        key("sk_test_", &RANDOM_48[..24]),
        // Prose about credentials.
        "The password is stored in the team vault; ask Sam.".to_owned(),
        "Secret: the sauce is mostly butter".to_owned(),
        "Rotate the API key every 90 days.".to_owned(),
        // Random-looking but not a credential: a commit, a digest, a UUID.
        "fixed in commit 3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39".to_owned(),
        "sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".to_owned(),
        "id 123e4567-e89b-12d3-a456-426614174000".to_owned(),
        "eyJust a word.eyJoke.nothing".to_owned(),
    ];
    for text in near_misses {
        assert!(classes(&text).is_empty(), "{text}: {:?}", classes(&text));
    }
}

#[test]
fn entropy_is_shannon_bits_per_character() {
    assert_eq!(entropy_bits(""), 0.0);
    assert_eq!(entropy_bits("aaaa"), 0.0);
    assert!((entropy_bits("abcd") - 2.0).abs() < 1e-9);
    assert!(entropy_bits(RANDOM_48) > MIN_ENTROPY_BITS);
    assert!(entropy_bits("changeme") < MIN_ENTROPY_BITS);
}

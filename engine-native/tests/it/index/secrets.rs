//! Credentials never reach a remote embedding provider: a planted key and a private key are
//! withheld (`embeddings.secrets: skip`, the default) or sent redacted (`redact`), and
//! `get_index_status` reports their classes and counts, never their text.

use serde_json::{Value, json};

use crate::support::dispatch::Fixture;
use crate::support::embed::MockApi;

/// Assembled at run time so the repository holds no string a secret scanner stops on.
fn planted_key() -> String {
    format!("AKIA{}", "Q7RZ2KX94WNB5TJM")
}

fn private_key() -> String {
    format!(
        "-----BEGIN {0}-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n-----END {0}-----",
        "PRIVATE KEY"
    )
}

fn fixture(api: &MockApi, secrets: Option<&str>) -> Fixture {
    let mut embeddings = json!({
        "provider": "openai", "endpoint": format!("{}/v1", api.url()), "apiKey": "sk-test",
        "dimensions": 3, "retries": 0
    });
    if let Some(action) = secrets {
        embeddings["secrets"] = json!(action);
    }
    let fx = Fixture::new(json!({"throttle": {"enabled": false}, "embeddings": embeddings}));
    fx.write("main", "Clean.md", "# Clean\n\nNothing to hide here.\n");
    fx.write(
        "main",
        "Ops.md",
        &format!(
            "# Deploy\n\nThe deploy user's key is {} for now.\n\n# Server\n\n{}\n",
            planted_key(),
            private_key()
        ),
    );
    fx
}

/// Every text the provider was sent.
fn sent(api: &MockApi) -> String {
    api.requests()
        .iter()
        .map(|request| request.body["input"].to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

fn status(fx: &Fixture) -> Value {
    fx.ok("get_index_status", json!({}))["embeddings"].clone()
}

#[test]
fn skip_withholds_the_chunks_and_reports_the_classes() {
    let api = MockApi::start(3);
    let fx = fixture(&api, None);
    fx.ok("index_vault", json!({}));
    let sent = sent(&api);
    assert!(
        sent.contains("Nothing to hide"),
        "the clean note is sent: {sent}"
    );
    assert!(!sent.contains(&planted_key()), "{sent}");
    assert!(
        !sent.contains("PRIVATE KEY") && !sent.contains("MIIEvQ"),
        "{sent}"
    );
    assert!(
        !sent.contains("REDACTED"),
        "skip sends nothing of the chunk: {sent}"
    );

    let embeddings = status(&fx);
    assert_eq!(
        embeddings["secrets"],
        json!({
            "action": "skip", "withheldChunks": 2, "redactedChunks": 0,
            "found": {"aws_access_key_id": 1, "private_key": 1}
        }),
        "{embeddings}"
    );
    assert_eq!(
        embeddings["state"], "ready",
        "withheld chunks are not pending: {embeddings}"
    );
    let shown = fx.ok("get_index_status", json!({})).to_string();
    assert!(
        !shown.contains(&planted_key()) && !shown.contains("MIIEvQ"),
        "{shown}"
    );

    // Another pass sends nothing more: withheld chunks are not pending.
    let before = api.requests().len();
    fx.ok("index_vault", json!({}));
    assert_eq!(api.requests().len(), before);
    // Lexical search still finds the withheld note.
    let found = fx.ok(
        "search_vault",
        json!({"query": "deploy", "mode": "lexical"}),
    );
    assert_eq!(found["results"][0]["path"], "Ops.md", "{found}");
}

#[test]
fn redact_sends_the_chunks_with_the_secrets_replaced() {
    let api = MockApi::start(3);
    let fx = fixture(&api, Some("redact"));
    fx.ok("index_vault", json!({}));
    let sent = sent(&api);
    assert!(
        !sent.contains(&planted_key()) && !sent.contains("MIIEvQ"),
        "{sent}"
    );
    assert!(
        sent.contains("The deploy user's key is [REDACTED:aws_access_key_id] for now."),
        "{sent}"
    );
    assert!(sent.contains("[REDACTED:private_key]"), "{sent}");
    let embeddings = status(&fx);
    assert_eq!(embeddings["secrets"]["action"], "redact");
    assert_eq!(embeddings["secrets"]["redactedChunks"], 2, "{embeddings}");
    assert_eq!(embeddings["secrets"]["withheldChunks"], 0);
    assert_eq!(embeddings["state"], "ready");
    assert_eq!(embeddings["embedded"], embeddings["total"], "{embeddings}");
}

#[test]
fn off_sends_the_text_as_it_is() {
    let api = MockApi::start(3);
    let fx = fixture(&api, Some("off"));
    fx.ok("index_vault", json!({}));
    assert!(sent(&api).contains(&planted_key()));
    assert_eq!(status(&fx)["secrets"]["found"], json!({}));
}

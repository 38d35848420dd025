//! MCP progress against the real binary with a real rmcp client: `index_vault` called with a
//! `progressToken` sends `notifications/progress` for that token, never decreasing, the last
//! one at the total, all before the result. (rmcp attaches a token to every request, so the
//! no-token path is the one every other test's `Dispatcher::call` takes.)
//! With a provider, the chunks it embeds follow the notes in the same count. Under a folder
//! ACL both counts are of what the caller may read: hidden notes change no report.

use std::sync::{Arc, Mutex};

use rmcp::model::{CallToolRequestParams, ProgressNotificationParam};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient};
use serde_json::json;

use crate::support::mcp::{stdio_client_with, structured, write_config};

/// A client that keeps every progress notification it receives.
#[derive(Clone, Default)]
struct Listener {
    received: Arc<Mutex<Vec<ProgressNotificationParam>>>,
}

impl ClientHandler for Listener {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        self.received.lock().expect("received").push(params);
    }
}

#[tokio::test]
async fn index_vault_reports_progress_for_the_callers_token() {
    let vault = vault_of_notes(40);
    // No start-up scan or watcher: index_vault does the indexing.
    let config = tempfile::tempdir().expect("config dir");
    let config_file = config.path().join("config.json");
    write_config(
        &config_file,
        vault.path(),
        json!({"cacheDir": config.path().join("cache"), "index": {"scanOnStart": false, "watch": false}}),
    );
    let config_arg = config_file.to_string_lossy().into_owned();
    let listener = Listener::default();
    let client = stdio_client_with(listener.clone(), &["serve", "--config", &config_arg]).await;

    let result = client
        .call_tool(CallToolRequestParams::new("index_vault"))
        .await
        .expect("index_vault answers");
    assert_eq!(structured(&result)["added"], 40, "{result:?}");
    // Sent before the result, so all are here once the call returned.
    let received = listener.received.lock().expect("received").clone();
    assert!(
        received.len() >= 2,
        "at least the first and the last report: {received:?}"
    );
    // rmcp puts its own token on every request; all reports carry that one.
    let token = received[0].progress_token.clone();
    for notification in &received {
        assert_eq!(notification.progress_token, token);
        assert_eq!(notification.message.as_deref(), Some("indexing notes"));
        assert_eq!(notification.total, Some(40.0));
    }
    let progress: Vec<f64> = received.iter().map(|n| n.progress).collect();
    assert!(
        progress.windows(2).all(|w| w[0] <= w[1]),
        "never decreases: {progress:?}"
    );
    assert_eq!(progress.last(), Some(&40.0));

    client.cancel().await.expect("close");
}

#[tokio::test]
async fn index_vault_reports_the_chunks_it_embeds_after_the_notes() {
    use rmcp::ServiceExt;
    use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};

    // Six readable notes at the root, four the caller may not read.
    let vault = vault_of_notes(6);
    std::fs::create_dir(vault.path().join("private")).expect("private folder");
    for i in 0..4 {
        std::fs::write(
            vault.path().join(format!("private/Secret {i}.md")),
            format!("# Secret {i}\n\nhidden words {i}\n\n## More\n\nmore hidden words\n"),
        )
        .expect("hidden note");
    }
    let config = tempfile::tempdir().expect("config dir");
    let config_file = config.path().join("config.json");
    let model = crate::support::hub_mirror::test_model();
    let config_json = json!({
        "vaults": [{"id": "main", "path": vault.path(), "acl": {"readPaths": ["Note *"]}}],
        "cacheDir": config.path().join("cache"),
        "index": {"scanOnStart": false, "watch": false},
        "embeddings": {"provider": "local", "modelPath": model}
    });
    std::fs::write(&config_file, config_json.to_string()).expect("config file");
    let command = tokio::process::Command::new(crate::support::mcp::BIN).configure(|c| {
        c.args(["serve", "--config"])
            .arg(&config_file)
            .env_remove("OBSIDIAN_TC_CONFIG")
            .env_remove("OBSIDIAN_TC_EMBEDDINGS_PROVIDER");
    });
    let listener = Listener::default();
    let client = listener
        .clone()
        .serve(TokioChildProcess::new(command).expect("spawn obsidian-tc"))
        .await
        .expect("initialize over stdio");

    let result = client
        .call_tool(CallToolRequestParams::new("index_vault"))
        .await
        .expect("index_vault answers");
    let chunks = structured(&result)["embeddings"]["chunks"]
        .as_f64()
        .unwrap_or_else(|| panic!("embedded: {result:?}"));
    let received = listener.received.lock().expect("received").clone();
    let embedding: Vec<&ProgressNotificationParam> = received
        .iter()
        .filter(|n| n.message.as_deref() == Some("embedding chunks"))
        .collect();
    assert!(!embedding.is_empty(), "{received:?}");
    let last = embedding.last().expect("a report");
    assert_eq!(
        last.progress,
        6.0 + chunks,
        "notes, then chunks: {received:?}"
    );
    assert_eq!(last.total, Some(6.0 + chunks));
    // One chunk per readable note: the hidden notes' chunks are in no count.
    assert_eq!(chunks, 6.0, "{result:?}");
    let indexing = received
        .iter()
        .filter(|n| n.message.as_deref() == Some("indexing notes"));
    assert!(
        indexing
            .clone()
            .all(|n| n.total == Some(6.0) && n.progress <= 6.0),
        "{received:?}"
    );
    let progress: Vec<f64> = received.iter().map(|n| n.progress).collect();
    assert!(progress.windows(2).all(|w| w[0] <= w[1]), "{progress:?}");
    client.cancel().await.expect("close");
}

/// A vault of `count` short notes, `Note 0.md` to `Note {count-1}.md`.
fn vault_of_notes(count: usize) -> tempfile::TempDir {
    let vault = tempfile::tempdir().expect("vault");
    for i in 0..count {
        std::fs::write(
            vault.path().join(format!("Note {i}.md")),
            format!("# Note {i}\n\nsome words about topic {i}\n"),
        )
        .expect("note");
    }
    vault
}

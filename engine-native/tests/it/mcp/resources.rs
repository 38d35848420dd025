//! MCP resources over the built binary and the rmcp client: notes as `obsidian-tc://` URIs
//! (paged listing, reads through `read_note` with its ACL, hard-deny and governor) and the
//! help resources generated from the registry.

use std::path::Path;

use rmcp::model::{ErrorCode, PaginatedRequestParams, ReadResourceRequestParams, ResourceContents};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::support::mcp::{arg, stdio_client, write_config};

type Client = RunningService<RoleClient, ()>;

/// A stdio client over `serve --config` for `vault` with `extra` config (throttle off).
async fn client_with(dir: &TempDir, vault: &Path, extra: Value) -> Client {
    let config = dir.path().join("config.json");
    let mut extra = extra;
    extra["throttle"] = json!({"enabled": false});
    write_config(&config, vault, extra);
    stdio_client(&["serve", "--config", &arg(&config)]).await
}

/// `resources/read` of `uri`: the text and MIME type, or the error.
async fn read(client: &Client, uri: &str) -> Result<(String, Option<String>), ServiceError> {
    let result = client
        .read_resource(ReadResourceRequestParams::new(uri))
        .await?;
    match result.contents.into_iter().next() {
        Some(ResourceContents::TextResourceContents {
            text, mime_type, ..
        }) => Ok((text, mime_type)),
        other => panic!("one text content expected, got {other:?}"),
    }
}

/// The JSON-RPC error of a failed request.
fn rpc_error(error: ServiceError) -> rmcp::ErrorData {
    match error {
        ServiceError::McpError(error) => error,
        other => panic!("a JSON-RPC error expected, got {other}"),
    }
}

/// Every resource URI, page after page; also returns how many pages there were.
async fn all_uris(client: &Client) -> (Vec<String>, usize) {
    let mut uris = Vec::new();
    let mut cursor = None;
    let mut pages = 0;
    loop {
        let page = client
            .list_resources(Some(PaginatedRequestParams::default().with_cursor(cursor)))
            .await
            .expect("resources/list");
        pages += 1;
        uris.extend(page.resources.into_iter().map(|r| r.uri));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return (uris, pages),
        }
    }
}

fn note_uris(uris: &[String]) -> Vec<&str> {
    uris.iter()
        .map(String::as_str)
        .filter(|uri| !uri.starts_with("obsidian-tc://help/"))
        .collect()
}

#[tokio::test]
async fn listing_pages_through_every_note_with_a_cursor() {
    let dir = tempfile::tempdir().expect("temp dir");
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(vault.join("Daily notes")).expect("folder");
    for i in 0..450 {
        std::fs::write(vault.join(format!("n{i:03}.md")), "x\n").expect("note");
    }
    std::fs::write(vault.join("Daily notes/Café #1.md"), "café\n").expect("note");
    let client = client_with(&dir, &vault, json!({})).await;

    let first = client.list_resources(None).await.expect("first page");
    let notes_on_first = note_uris(
        &first
            .resources
            .iter()
            .map(|r| r.uri.clone())
            .collect::<Vec<_>>(),
    )
    .len();
    assert_eq!(notes_on_first, 200, "a page holds 200 notes");
    let note = first
        .resources
        .iter()
        .find(|r| !r.uri.starts_with("obsidian-tc://help/"))
        .expect("a note");
    assert_eq!(note.mime_type.as_deref(), Some("text/markdown"));
    assert!(first.next_cursor.is_some(), "more pages follow");

    let (uris, pages) = all_uris(&client).await;
    assert_eq!(pages, 3, "451 notes in pages of 200");
    let notes = note_uris(&uris);
    assert_eq!(notes.len(), 451, "every note exactly once");
    let mut unique = notes.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), 451);
    let encoded = "obsidian-tc://main/Daily%20notes/Caf%C3%A9%20%231.md";
    assert!(notes.contains(&encoded), "path segments percent-encoded");

    let (text, mime) = read(&client, encoded).await.expect("read the listed note");
    assert_eq!(text, "café\n");
    assert_eq!(mime.as_deref(), Some("text/markdown"));
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_note_the_acl_denies_is_neither_listed_nor_readable() {
    let dir = tempfile::tempdir().expect("temp dir");
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(vault.join("Public")).expect("folder");
    std::fs::create_dir_all(vault.join("Private")).expect("folder");
    std::fs::create_dir_all(vault.join(".obsidian")).expect("folder");
    std::fs::write(vault.join("Public/open.md"), "open\n").expect("note");
    std::fs::write(vault.join("Private/secret.md"), "secret\n").expect("note");
    std::fs::write(vault.join(".obsidian/hidden.md"), "config\n").expect("note");
    let client = client_with(&dir, &vault, json!({"acl": {"readPaths": ["Public/**"]}})).await;

    let (uris, _) = all_uris(&client).await;
    assert_eq!(note_uris(&uris), ["obsidian-tc://main/Public/open.md"]);

    let error = rpc_error(
        read(&client, "obsidian-tc://main/Private/secret.md")
            .await
            .expect_err("denied read refused"),
    );
    assert_eq!(error.code, ErrorCode::INVALID_REQUEST);
    assert!(error.message.contains("acl_denied"), "{}", error.message);
    let data = error.data.expect("the tool error as data");
    assert_eq!(data["code"], "acl_denied");
    assert!(
        !error.message.contains("secret\n"),
        "no content leaks into the error"
    );
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn hard_denied_control_folders_are_never_listed_or_read() {
    let dir = tempfile::tempdir().expect("temp dir");
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(vault.join(".obsidian")).expect("folder");
    std::fs::write(vault.join(".obsidian/workspace.md"), "config\n").expect("note");
    std::fs::write(vault.join("note.md"), "note\n").expect("note");
    let client = client_with(&dir, &vault, json!({})).await;

    let (uris, _) = all_uris(&client).await;
    assert_eq!(note_uris(&uris), ["obsidian-tc://main/note.md"]);
    let error = read(&client, "obsidian-tc://main/.obsidian/workspace.md")
        .await
        .expect_err("hard-denied read refused");
    let error = rpc_error(error);
    let data = error.data.expect("the tool error as data");
    assert_eq!(data["code"], "acl_denied");
    assert_eq!(data["details"]["denied_by"], "hard_deny");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_note_over_the_byte_governor_is_an_overflow() {
    let dir = tempfile::tempdir().expect("temp dir");
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(&vault).expect("vault");
    std::fs::write(vault.join("big.md"), "a".repeat(1_000_001)).expect("note");
    let client = client_with(&dir, &vault, json!({})).await;

    let error = rpc_error(
        read(&client, "obsidian-tc://main/big.md")
            .await
            .expect_err("too big"),
    );
    assert!(error.message.contains("overflow"), "{}", error.message);
    assert_eq!(error.data.expect("data")["code"], "overflow");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn a_missing_note_is_resource_not_found_and_a_bad_uri_invalid_params() {
    let dir = tempfile::tempdir().expect("temp dir");
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(&vault).expect("vault");
    let client = client_with(&dir, &vault, json!({})).await;

    let missing = rpc_error(
        read(&client, "obsidian-tc://main/nowhere.md")
            .await
            .expect_err("missing"),
    );
    assert_eq!(missing.code, ErrorCode::RESOURCE_NOT_FOUND);
    assert_eq!(missing.code.0, -32002);
    let unknown_vault = rpc_error(
        read(&client, "obsidian-tc://elsewhere/a.md")
            .await
            .expect_err("no such vault"),
    );
    assert_eq!(unknown_vault.code, ErrorCode::RESOURCE_NOT_FOUND);
    let bad = rpc_error(
        read(&client, "file:///etc/passwd")
            .await
            .expect_err("foreign"),
    );
    assert_eq!(bad.code, ErrorCode::INVALID_PARAMS);
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn help_resources_describe_tools_and_domains_from_the_registry() {
    let dir = tempfile::tempdir().expect("temp dir");
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(&vault).expect("vault");
    let client = client_with(
        &dir,
        &vault,
        json!({"toolVisibility": {"hide": ["delete_note"]}}),
    )
    .await;

    let (uris, _) = all_uris(&client).await;
    assert!(uris.contains(&"obsidian-tc://help/tools/read_note".to_owned()));
    assert!(uris.contains(&"obsidian-tc://help/domains/notes".to_owned()));
    assert!(
        !uris.contains(&"obsidian-tc://help/tools/delete_note".to_owned()),
        "a hidden tool has no help page"
    );

    let (page, mime) = read(&client, "obsidian-tc://help/tools/read_note")
        .await
        .expect("tool help");
    assert_eq!(mime.as_deref(), Some("text/markdown"));
    assert!(page.contains("`path` (string, required)"), "{page}");
    assert!(page.contains("`vault` (string, optional)"), "{page}");
    assert!(
        page.contains(r#"{"arguments":{"path":"<path>"},"name":"read_note"}"#),
        "{page}"
    );
    assert!(page.contains("`acl_denied`"), "{page}");
    assert!(page.contains("`overflow`"), "{page}");
    assert!(
        !page.contains("`elicit_required`"),
        "read_note needs no confirmation: {page}"
    );

    let (domain, _) = read(&client, "obsidian-tc://help/domains/notes")
        .await
        .expect("domain help");
    assert!(domain.contains("- `read_note`: "), "{domain}");
    assert!(domain.contains("- `list_notes`: "), "{domain}");
    assert!(!domain.contains("delete_note"), "{domain}");

    let hidden = rpc_error(
        read(&client, "obsidian-tc://help/tools/delete_note")
            .await
            .expect_err("hidden tool"),
    );
    assert_eq!(hidden.code, ErrorCode::RESOURCE_NOT_FOUND);
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn templates_and_capabilities_are_declared() {
    let dir = tempfile::tempdir().expect("temp dir");
    let vault = dir.path().join("vault");
    std::fs::create_dir_all(&vault).expect("vault");
    let client = client_with(&dir, &vault, json!({})).await;
    let info = client.peer_info().expect("server info");
    assert!(
        info.capabilities.resources.is_some(),
        "resources capability"
    );
    assert!(info.capabilities.prompts.is_some(), "prompts capability");
    let templates = client
        .list_all_resource_templates()
        .await
        .expect("resources/templates/list");
    let uri_templates: Vec<&str> = templates.iter().map(|t| t.uri_template.as_str()).collect();
    assert!(uri_templates.contains(&"obsidian-tc://{vault}/{+path}"));
    assert!(uri_templates.contains(&"obsidian-tc://help/tools/{name}"));
    client.cancel().await.expect("close");
}

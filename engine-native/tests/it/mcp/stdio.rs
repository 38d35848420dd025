//! The built binary as an MCP server over stdio, driven by the rmcp client.

use serde_json::json;

use crate::support::mcp::{arg, call, run, stdio_client, structured, vault};

#[tokio::test]
async fn initialize_reports_obsidian_tc_and_its_version() {
    let vault = vault();
    let client = stdio_client(&[&arg(vault.path())]).await;
    let info = client.peer_info().expect("server info after initialize");
    let server = info.server_info.as_ref().expect("serverInfo");
    assert_eq!(server.name, "obsidian-tc");
    assert_eq!(server.version, env!("CARGO_PKG_VERSION"));
    assert!(info.capabilities.tools.is_some(), "tools capability");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn the_default_listing_is_the_triad_facade() {
    let vault = vault();
    let client = stdio_client(&["serve", &arg(vault.path())]).await;
    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    assert_eq!(
        names,
        [
            "find_capability",
            "describe_capability",
            "call_read_capability",
            "call_capability"
        ]
    );
    let read = call(&client, "read_note", json!({"path": "hello.md"})).await;
    assert_eq!(
        read.is_error,
        Some(false),
        "callable by name though not listed"
    );
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn list_tools_carries_schemas_and_annotations() {
    let vault = vault();
    let client = stdio_client(&["serve", "--tool-facade", "flat", &arg(vault.path())]).await;
    let tools = client.list_all_tools().await.expect("tools/list");
    let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    for expected in ["read_note", "note_exists", "delete_note", "server_health"] {
        assert!(
            names.contains(&expected),
            "{expected} missing from {names:?}"
        );
    }
    let read = tools
        .iter()
        .find(|t| t.name == "read_note")
        .expect("read_note");
    assert_eq!(read.input_schema.get("type"), Some(&json!("object")));
    assert!(read.input_schema["properties"].get("path").is_some());
    assert!(read.title.is_some() && read.description.is_some());
    let annotations = read.annotations.as_ref().expect("annotations");
    assert_eq!(annotations.read_only_hint, Some(true));
    assert_eq!(annotations.destructive_hint, Some(false));
    let delete = tools
        .iter()
        .find(|t| t.name == "delete_note")
        .expect("delete_note");
    let annotations = delete.annotations.as_ref().expect("annotations");
    assert_eq!(annotations.read_only_hint, Some(false));
    assert_eq!(annotations.destructive_hint, Some(true));
    assert_eq!(annotations.open_world_hint, Some(false));
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn read_note_and_note_exists_answer_structured_content() {
    let vault = vault();
    let client = stdio_client(&[&arg(vault.path())]).await;
    let read = call(&client, "read_note", json!({"path": "hello.md"})).await;
    assert_eq!(read.is_error, Some(false));
    let content = structured(&read);
    assert_eq!(content["content"], json!("# Hello\n"));
    let text = read.content[0].as_text().expect("text block").text.clone();
    let parsed: serde_json::Value = serde_json::from_str(&text).expect("text is the JSON");
    assert_eq!(&parsed, content);
    let exists = call(&client, "note_exists", json!({"path": "nope.md"})).await;
    assert_eq!(exists.is_error, Some(false));
    assert_eq!(structured(&exists)["exists"], json!(false));
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn unknown_tool_is_a_tool_error_not_found() {
    let vault = vault();
    let client = stdio_client(&[&arg(vault.path())]).await;
    let result = call(&client, "no_such_tool", json!({})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(structured(&result)["code"], json!("not_found"));
    assert!(!result.content.is_empty(), "the error has a text rendering");
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn delete_needs_one_out_of_band_approval_per_call() {
    let vault = vault();
    let client = stdio_client(&[&arg(vault.path())]).await;
    let args = json!({"path": "gone.md"});
    let refused = call(&client, "delete_note", args.clone()).await;
    assert_eq!(refused.is_error, Some(true));
    let error = structured(&refused);
    assert_eq!(error["code"], json!("elicit_required"));
    let hash = error["details"]["args_hash"]
        .as_str()
        .expect("details.args_hash")
        .to_owned();
    assert!(vault.path().join("gone.md").exists(), "nothing deleted yet");

    let listed = run(&["elicit", "list", &arg(vault.path())]);
    assert!(listed.status.success());
    assert!(String::from_utf8_lossy(&listed.stdout).contains(&hash));
    let approved = run(&["elicit", "approve", &hash, &arg(vault.path())]);
    assert!(
        approved.status.success(),
        "approve failed: {}",
        String::from_utf8_lossy(&approved.stderr)
    );
    let said = String::from_utf8_lossy(&approved.stdout);
    assert!(
        said.contains("delete_note") && said.contains(" s"),
        "{said}"
    );

    let done = call(&client, "delete_note", args.clone()).await;
    assert_eq!(done.is_error, Some(false), "{:?}", done.structured_content);
    assert!(
        !vault.path().join("gone.md").exists(),
        "the note was deleted"
    );

    std::fs::write(vault.path().join("gone.md"), "again\n").expect("recreate");
    let again = call(&client, "delete_note", args).await;
    assert_eq!(again.is_error, Some(true));
    assert_eq!(structured(&again)["code"], json!("elicit_required"));
    assert!(
        vault.path().join("gone.md").exists(),
        "the approval was used once"
    );
    client.cancel().await.expect("close");
}

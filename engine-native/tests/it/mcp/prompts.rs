//! The built-in prompt templates over the built binary and the rmcp client: listed with
//! their arguments, filled in by `prompts/get`, bad arguments refused as invalid params.

use rmcp::model::{ErrorCode, GetPromptRequestParams, Role};
use rmcp::service::{RoleClient, RunningService, ServiceError};
use serde_json::{Value, json};

use crate::support::mcp::{arg, stdio_client, vault};

type Client = RunningService<RoleClient, ()>;

/// A prompt's name and its arguments' names with `required`.
type PromptSummary<'a> = (&'a str, Vec<(&'a str, Option<bool>)>);

/// `prompts/get` of `name` with the object `args`.
async fn get(client: &Client, name: &str, args: Value) -> Result<String, ServiceError> {
    let Value::Object(args) = args else {
        panic!("arguments must be an object")
    };
    let result = client
        .get_prompt(GetPromptRequestParams::new(name).with_arguments(args))
        .await?;
    assert_eq!(result.messages.len(), 1);
    let message = &result.messages[0];
    assert_eq!(message.role, Role::User);
    let text = message.content.as_text().expect("a text message");
    Ok(text.text.clone())
}

/// The JSON-RPC error code of a failed request.
fn code(error: ServiceError) -> ErrorCode {
    match error {
        ServiceError::McpError(error) => error.code,
        other => panic!("a JSON-RPC error expected, got {other}"),
    }
}

#[tokio::test]
async fn prompts_are_listed_with_their_arguments() {
    let vault = vault();
    let client = stdio_client(&[&arg(vault.path())]).await;
    let prompts = client.list_all_prompts().await.expect("prompts/list");
    let summary: Vec<PromptSummary> = prompts
        .iter()
        .map(|p| {
            let args = p
                .arguments
                .iter()
                .flatten()
                .map(|a| (a.name.as_str(), a.required))
                .collect();
            (p.name.as_str(), args)
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("summarize_note", vec![("path", Some(true))]),
            ("daily_review", vec![("date", Some(false))]),
            ("suggest_links", vec![("path", Some(true))]),
        ]
    );
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn prompts_name_the_note_and_only_tools_the_server_has() {
    let vault = vault();
    // Flat: tools/list then names every tool (the prompts call tools by name, which works in
    // every facade mode).
    let client = stdio_client(&["--tool-facade", "flat", &arg(vault.path())]).await;
    let tools: Vec<String> = client
        .list_all_tools()
        .await
        .expect("tools/list")
        .into_iter()
        .map(|t| t.name.into_owned())
        .collect();
    let texts = [
        get(
            &client,
            "summarize_note",
            json!({"path": "Projects/Plan.md"}),
        )
        .await
        .expect("summarize_note"),
        get(&client, "daily_review", json!({"date": "2026-11-21"}))
            .await
            .expect("daily_review"),
        get(&client, "daily_review", json!({}))
            .await
            .expect("daily_review without a date"),
        get(
            &client,
            "suggest_links",
            json!({"path": "Projects/Plan.md"}),
        )
        .await
        .expect("suggest_links"),
    ];
    assert!(texts[0].contains("`Projects/Plan.md`"));
    assert!(texts[1].contains("2026-11-21"));
    assert!(texts[2].contains("today"));
    for text in &texts {
        for quoted in text.split('`').skip(1).step_by(2) {
            let is_tool_name = quoted.contains('_') && !quoted.contains(['/', ' ', '.']);
            if is_tool_name && quoted != "modified_ms" {
                assert!(tools.iter().any(|t| t == quoted), "{quoted} is not a tool");
            }
        }
    }
    client.cancel().await.expect("close");
}

#[tokio::test]
async fn bad_prompt_requests_are_invalid_params() {
    let vault = vault();
    let client = stdio_client(&[&arg(vault.path())]).await;
    for (name, args) in [
        ("summarize_note", json!({})),
        ("suggest_links", json!({"path": ""})),
        ("summarize_note", json!({"path": "a.md", "extra": "x"})),
        ("summarize_note", json!({"path": 3})),
        ("daily_review", json!({"date": "21/11/2026"})),
        ("no_such_prompt", json!({})),
    ] {
        let error = get(&client, name, args.clone()).await.expect_err("refused");
        assert_eq!(code(error), ErrorCode::INVALID_PARAMS, "{name} {args}");
    }
    client.cancel().await.expect("close");
}

//! Destructive calls under protocol 2026-07-28 (SEP-2322): a client that speaks 2026-07-28 and
//! declared form elicitation gets the HITL trip as an input-required result (an elicitation
//! plus sealed request state), and its retry with the user's answer runs that exact call once.
//! Real rmcp clients against the real binary over stdio and Streamable HTTP. (A 2026-07-28
//! client without elicitation keeps the classic `elicit_required`: `e2e_rmcp` auto runs.)

use std::sync::{Arc, Mutex};
use std::time::Duration;

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::{ErrorCode, ToolError};
use obsidian_tc::mcp::confirmation::{self, CONFIRM};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationCapability,
    FormElicitationCapability, Implementation, InputRequest, InputRequiredResult, InputResponses,
    ProtocolVersion,
};
use rmcp::service::{ClientServiceExt, RequestContext, RunningService};
use rmcp::transport::{ConfigureCommandExt, StreamableHttpClientTransport, TokioChildProcess};
use rmcp::{ClientHandler, ErrorData as McpError, RoleClient};
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::support::mcp::{HttpServer, arg, bin, discover_first};

/// A client that declares form elicitation and answers every confirmation the same way,
/// remembering the messages it was shown.
#[derive(Clone)]
struct User {
    action: ElicitationAction,
    confirm: bool,
    shown: Arc<Mutex<Vec<String>>>,
    lifecycle: Lifecycle,
}

impl User {
    fn says(action: ElicitationAction, confirm: bool, lifecycle: Lifecycle) -> User {
        User {
            action,
            confirm,
            shown: Arc::default(),
            lifecycle,
        }
    }

    fn shown(&self) -> Vec<String> {
        self.shown.lock().expect("messages").clone()
    }
}

impl ClientHandler for User {
    fn get_info(&self) -> ClientConfig {
        let mut capabilities = ClientCapabilities::default();
        capabilities.elicitation =
            Some(ElicitationCapability::new().with_form(FormElicitationCapability::new()));
        let config = ClientConfig::new(capabilities, Implementation::new("user", "1"));
        match self.lifecycle {
            Lifecycle::Legacy => config.with_protocol_version(ProtocolVersion::V_2025_11_25),
            Lifecycle::Auto => config,
        }
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, McpError> {
        if let ElicitRequestParams::FormElicitationParams { message, .. } = request {
            self.shown.lock().expect("messages").push(message);
        }
        Ok(ElicitResult::new(self.action.clone()).with_content(json!({ CONFIRM: self.confirm })))
    }
}

/// How the client connects.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Lifecycle {
    /// `initialize` at 2025-11-25.
    Legacy,
    /// `server/discover` first: 2026-07-28.
    Auto,
}

/// The transport and the server behind it (kept alive with the client).
enum Transport {
    Stdio,
    Http,
}

/// A client, the server it talks to (HTTP), and the vault.
struct Session {
    client: RunningService<RoleClient, User>,
    server: Option<HttpServer>,
    vault: TempDir,
}

impl Session {
    async fn open(transport: Transport, user: User) -> Session {
        let vault = tempfile::tempdir().expect("vault");
        for name in ["Doomed.md", "Other.md"] {
            std::fs::write(vault.path().join(name), format!("# {name}\n")).expect("note");
        }
        let mode = discover_first();
        let lifecycle = user.lifecycle;
        let (client, server) = match transport {
            Transport::Stdio => {
                let command = tokio::process::Command::new(bin()).configure(|c| {
                    c.arg(arg(vault.path()))
                        .env_remove("OBSIDIAN_TC_CONFIG")
                        .envs(crate::support::cache_home::cache_env(
                            &crate::support::cache_home::test_cache_root(),
                        ));
                });
                let child = TokioChildProcess::new(command).expect("spawn obsidian-tc");
                let client = match lifecycle {
                    Lifecycle::Auto => user.serve_with_lifecycle(child, mode).await,
                    Lifecycle::Legacy => rmcp::ServiceExt::serve(user, child).await,
                };
                (client.expect("connect over stdio"), None)
            }
            Transport::Http => {
                let server = HttpServer::serve_vault(vault.path());
                let http = StreamableHttpClientTransport::from_uri(server.url());
                let client = match lifecycle {
                    Lifecycle::Auto => user.serve_with_lifecycle(http, mode).await,
                    Lifecycle::Legacy => rmcp::ServiceExt::serve(user, http).await,
                };
                (client.expect("connect over HTTP"), Some(server))
            }
        };
        Session {
            client,
            server,
            vault,
        }
    }

    fn exists(&self, note: &str) -> bool {
        self.vault.path().join(note).exists()
    }

    fn trashed(&self, note: &str) -> bool {
        self.vault.path().join(".trash").join(note).exists()
    }

    async fn close(self) {
        self.client.cancel().await.expect("close");
        if let Some(server) = self.server {
            server.stop();
        }
    }
}

fn delete(path: &str) -> CallToolRequestParams {
    let Value::Object(args) = json!({ "path": path }) else {
        unreachable!()
    };
    CallToolRequestParams::new("delete_note").with_arguments(args)
}

/// One round without driving the follow-up.
async fn once(session: &Session, params: CallToolRequestParams) -> CallToolResponse {
    session
        .client
        .call_tool_once(params)
        .await
        .expect("tools/call answers")
}

fn input_required(response: CallToolResponse) -> InputRequiredResult {
    match response {
        CallToolResponse::InputRequired(result) => result,
        other => panic!("expected an input-required result, got {other:?}"),
    }
}

fn complete(response: CallToolResponse) -> CallToolResult {
    match response {
        CallToolResponse::Complete(result) => result,
        other => panic!("expected a complete result, got {other:?}"),
    }
}

fn error_code(result: &CallToolResult) -> String {
    assert_eq!(result.is_error, Some(true), "{result:?}");
    result
        .structured_content
        .as_ref()
        .expect("structured error")["code"]
        .as_str()
        .expect("code")
        .to_owned()
}

fn accepted() -> InputResponses {
    InputResponses::from([(
        CONFIRM.to_owned(),
        json!({ "action": "accept", "content": { CONFIRM: true } }),
    )])
}

/// The user says yes in the client: the rmcp client drives the round trip itself and the
/// note goes to the trash; the user saw which tool and which note.
async fn confirmed_delete_runs(transport: Transport) {
    let user = User::says(ElicitationAction::Accept, true, Lifecycle::Auto);
    let session = Session::open(transport, user.clone()).await;
    let result = session
        .client
        .call_tool(delete("Doomed.md"))
        .await
        .expect("tools/call");
    assert_ne!(result.is_error, Some(true), "{result:?}");
    assert!(!session.exists("Doomed.md") && session.trashed("Doomed.md"));
    assert!(session.exists("Other.md"));
    let shown = user.shown();
    assert_eq!(shown.len(), 1, "{shown:?}");
    assert!(shown[0].contains("delete_note") && shown[0].contains("Doomed.md"));
    session.close().await;
}

#[tokio::test]
async fn a_confirmed_delete_runs_over_stdio() {
    confirmed_delete_runs(Transport::Stdio).await;
}

#[tokio::test]
async fn a_confirmed_delete_runs_over_http() {
    confirmed_delete_runs(Transport::Http).await;
}

#[tokio::test]
async fn a_declined_or_unticked_confirmation_is_aborted_and_changes_nothing() {
    for (action, confirm) in [
        (ElicitationAction::Decline, false),
        (ElicitationAction::Cancel, false),
        (ElicitationAction::Accept, false),
    ] {
        let user = User::says(action.clone(), confirm, Lifecycle::Auto);
        let session = Session::open(Transport::Http, user).await;
        let result = session
            .client
            .call_tool(delete("Doomed.md"))
            .await
            .expect("tools/call");
        assert_eq!(error_code(&result), "aborted", "{action:?}");
        assert!(session.exists("Doomed.md"), "{action:?}");
        session.close().await;
    }
}

/// The rounds by hand: the first answer's shape, then a yes replayed for other arguments, a
/// tampered state, the real retry, and the same yes a second time.
#[tokio::test]
async fn a_confirmation_authorises_its_exact_call_once_and_nothing_else() {
    let user = User::says(ElicitationAction::Accept, true, Lifecycle::Auto);
    let session = Session::open(Transport::Http, user).await;

    let asked = input_required(once(&session, delete("Doomed.md")).await);
    let requests = asked.input_requests.as_ref().expect("inputRequests");
    assert!(
        matches!(requests.get(CONFIRM), Some(InputRequest::Elicitation(_))),
        "{requests:?}"
    );
    let state = asked.request_state.clone().expect("requestState");
    assert!(session.exists("Doomed.md"), "nothing runs before the yes");

    // Other.md is asked about too (and never answered); the yes for Doomed.md, presented
    // with Other.md: refused, both notes stay.
    input_required(once(&session, delete("Other.md")).await);
    let other = delete("Other.md")
        .with_input_responses(accepted())
        .with_request_state(state.clone());
    let refused = complete(once(&session, other).await);
    assert_eq!(error_code(&refused), "elicit_invalid");
    assert!(session.exists("Doomed.md") && session.exists("Other.md"));

    // A tampered state is a protocol error.
    let tampered = delete("Doomed.md")
        .with_input_responses(accepted())
        .with_request_state(format!("{state}x"));
    let error = session
        .client
        .call_tool_once(tampered)
        .await
        .expect_err("a tampered state is refused");
    assert!(error.to_string().contains("requestState"), "{error}");
    assert!(session.exists("Doomed.md"));

    // The real retry runs the delete.
    let retry = delete("Doomed.md")
        .with_input_responses(accepted())
        .with_request_state(state.clone());
    let done = complete(once(&session, retry).await);
    assert_ne!(done.is_error, Some(true), "{done:?}");
    assert!(session.trashed("Doomed.md"));

    // The same yes again: single use.
    std::fs::write(session.vault.path().join("Doomed.md"), "# back\n").expect("recreate");
    let replay = delete("Doomed.md")
        .with_input_responses(accepted())
        .with_request_state(state);
    let replayed = complete(once(&session, replay).await);
    assert_eq!(error_code(&replayed), "elicit_invalid");
    assert!(session.exists("Doomed.md"));
    session.close().await;
}

#[tokio::test]
async fn a_retry_without_an_answer_is_asked_again() {
    let user = User::says(ElicitationAction::Accept, true, Lifecycle::Auto);
    let session = Session::open(Transport::Stdio, user).await;
    let first = input_required(once(&session, delete("Doomed.md")).await);
    let unanswered = delete("Doomed.md").with_request_state(first.request_state.expect("state"));
    let again = input_required(once(&session, unanswered).await);
    assert!(again.input_requests.is_some());
    assert!(session.exists("Doomed.md"));
    session.close().await;
}

#[tokio::test]
async fn a_2025_11_25_client_with_elicitation_keeps_the_classic_error() {
    let user = User::says(ElicitationAction::Accept, true, Lifecycle::Legacy);
    let session = Session::open(Transport::Http, user.clone()).await;
    let result = session
        .client
        .call_tool(delete("Doomed.md"))
        .await
        .expect("tools/call");
    assert_eq!(error_code(&result), "elicit_required");
    assert!(user.shown().is_empty());
    assert!(session.exists("Doomed.md"));
    session.close().await;
}

#[test]
fn a_state_opens_only_for_the_caller_it_was_sealed_for() {
    let alice = Caller {
        id: "alice".to_owned(),
        ..Caller::stdio()
    };
    let bob = Caller {
        id: "bob".to_owned(),
        ..Caller::stdio()
    };
    let trip = ToolError::elicit_required("a1b2", "delete_note", json!({ "path": "N.md" }));
    let asked = confirmation::ask(&trip, &alice, Duration::from_secs(60)).expect("asked");
    let state = asked.request_state.as_deref();
    let responses = accepted();
    let confirmed = confirmation::answer(state, Some(&responses), &alice).expect("valid state");
    assert_eq!(confirmed.expect("confirmed"), Some("a1b2".to_owned()));
    assert!(confirmation::answer(state, Some(&responses), &bob).is_err());
    // Only elicit_required asks.
    let other = ToolError::new(ErrorCode::NotFound, "gone");
    assert!(confirmation::ask(&other, &alice, Duration::from_secs(60)).is_none());
}

#[test]
fn an_expired_state_is_refused() {
    let alice = Caller::stdio();
    let trip = ToolError::elicit_required("a1b2", "delete_note", json!({}));
    let asked = confirmation::ask(&trip, &alice, Duration::from_secs(1)).expect("asked");
    std::thread::sleep(Duration::from_millis(2100));
    let responses = accepted();
    let opened = confirmation::answer(asked.request_state.as_deref(), Some(&responses), &alice);
    assert!(opened.is_err());
}

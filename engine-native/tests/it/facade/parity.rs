//! The facade bypasses nothing: for every gate, a call through `call_capability`, through
//! `call_read_capability` (when every tool of the scenario is read-only) and through the
//! domain tool has the same outcome and leaves the same audit row as the call by name
//! (every column but id, timestamp and duration), and an approval given for one path
//! authorises exactly the same call on the others.

use obsidian_tc::auth::Caller;
use obsidian_tc::dispatch::CallOutcome;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::facade::reads_only;
use obsidian_tc::runtime::Tool;
use obsidian_tc::store::Event;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

/// How a call reaches its tool.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Via {
    Name,
    CallCapability,
    CallReadCapability,
    Domain,
}

const ALL_WAYS: [Via; 4] = [
    Via::Name,
    Via::CallCapability,
    Via::CallReadCapability,
    Via::Domain,
];

/// One step of a scenario.
enum Step {
    /// A call by this caller to this tool with these arguments.
    Call(Caller, &'static str, Value),
    /// A human approves the call the last `elicit_required` was about.
    ApproveLast,
}

/// The domain tool of `tool` (an unknown tool goes through `notes`).
fn domain_of(fx: &Fixture, tool: &str) -> &'static str {
    fx.server
        .runtime()
        .registry()
        .get(tool)
        .map_or("notes", |tool| tool.def.domain)
}

/// The call as `via` makes it: (name, arguments).
fn wrap(fx: &Fixture, via: Via, tool: &str, args: Value) -> (String, Value) {
    match via {
        Via::Name => (tool.to_owned(), args),
        Via::CallCapability => (
            "call_capability".to_owned(),
            json!({"name": tool, "arguments": args}),
        ),
        Via::CallReadCapability => (
            "call_read_capability".to_owned(),
            json!({"name": tool, "arguments": args}),
        ),
        Via::Domain => (
            domain_of(fx, tool).to_owned(),
            json!({"action": tool, "args": args}),
        ),
    }
}

/// An audit row without its id, timestamp and duration.
fn comparable(mut event: Event) -> Event {
    event.ts = 0;
    event.duration_ms = 0;
    event
}

/// Runs `steps` on a fresh fixture (`config`, files written by `setup`) the way `via` calls;
/// returns each call's outcome (duration zeroed) and the audit rows.
fn run(
    config: &Value,
    setup: &dyn Fn(&Fixture),
    steps: &[Step],
    via: Via,
) -> (Vec<CallOutcome>, Vec<Event>) {
    let fx = Fixture::new(config.clone());
    setup(&fx);
    pin_modification_times(&fx);
    let mut outcomes: Vec<CallOutcome> = Vec::new();
    for step in steps {
        match step {
            Step::Call(who, tool, args) => {
                let (name, args) = wrap(&fx, via, tool, args.clone());
                let mut outcome = fx.call(who, &name, args);
                outcome.duration_ms = 0;
                outcome.result = outcome
                    .result
                    .map(|value| without_temp_dir(&fx, value))
                    .map_err(|mut error| {
                        // Some errors name the vault's folder (plugin_missing's install hint).
                        let dir = fx.dir.path().to_string_lossy().into_owned();
                        error.message = error.message.replace(&dir, "<tmp>");
                        error.recovery = error.recovery.replace(&dir, "<tmp>");
                        error.details = without_temp_dir(&fx, error.details);
                        error
                    });
                outcomes.push(outcome);
            }
            Step::ApproveLast => {
                let error = outcomes
                    .last()
                    .and_then(|outcome| outcome.result.clone().err())
                    .expect("an elicit_required to approve");
                assert_eq!(error.code, ErrorCode::ElicitRequired, "{error}");
                fx.approve_error(&error);
            }
        }
    }
    let events = fx
        .events()
        .into_iter()
        .map(|row| comparable(row.event))
        .collect();
    (outcomes, events)
}

/// Whether every tool `steps` call is read-only (or not a registered tool), so that
/// `call_read_capability` may carry them all.
fn read_only_steps(steps: &[Step]) -> bool {
    let fx = Fixture::new(json!({}));
    let registry = fx.server.runtime().registry();
    steps.iter().all(|step| match step {
        Step::Call(_, tool, _) => registry.get(tool).is_none_or(reads_only),
        Step::ApproveLast => true,
    })
}

/// Every way of calling gives the same outcomes and audit rows; returns the outcomes.
fn assert_parity(config: Value, setup: &dyn Fn(&Fixture), steps: &[Step]) -> Vec<CallOutcome> {
    let (by_name, rows) = run(&config, setup, steps, Via::Name);
    assert_eq!(rows.len(), by_name.len(), "one audit row per call");
    let ways = ALL_WAYS
        .into_iter()
        .filter(|via| *via != Via::Name)
        .filter(|via| *via != Via::CallReadCapability || read_only_steps(steps));
    for via in ways {
        let (outcomes, other_rows) = run(&config, setup, steps, via);
        assert_eq!(outcomes, by_name, "outcomes via {via:?}");
        assert_eq!(other_rows, rows, "audit rows via {via:?}");
    }
    by_name
}

fn stdio(tool: &'static str, args: Value) -> Step {
    Step::Call(Caller::stdio(), tool, args)
}

fn no_setup(_: &Fixture) {}

/// Every file of both vaults gets the same modification time, so results that report it
/// compare across fixtures.
fn pin_modification_times(fx: &Fixture) {
    fn walk(dir: &std::path::Path) {
        for entry in std::fs::read_dir(dir).expect("vault folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path);
            } else {
                let file = std::fs::File::options()
                    .write(true)
                    .open(&path)
                    .expect("file");
                let pinned = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_767_225_600);
                file.set_modified(pinned).expect("set mtime");
            }
        }
    }
    for vault in ["main", "other"] {
        walk(&fx.vault_dir(vault));
    }
}

/// `value` with the fixture's temp folder (which differs between fixtures) written `<tmp>`,
/// and a random session id `<session>`.
fn without_temp_dir(fx: &Fixture, value: Value) -> Value {
    let dir = fx.dir.path().to_string_lossy().into_owned();
    let mut text = value.to_string().replace(&dir, "<tmp>");
    // a session's id is random (start_session): the same session under another id
    if let Some(id) = value.get("session_id").and_then(Value::as_str) {
        text = text.replace(id, "<session>");
    }
    // so are work-memory episode ids and the session ids episodes carry
    for (random, same) in [
        ("ep_[0-9a-f]{18}", "ep_<id>"),
        (
            r#""session_id":"[0-9a-f]{32}""#,
            r#""session_id":"<session>""#,
        ),
    ] {
        let pattern = regex::Regex::new(random).expect("regex");
        text = pattern.replace_all(&text, same).into_owned();
    }
    serde_json::from_str(&text).expect("JSON")
}

fn note(fx: &Fixture) {
    fx.write("main", "a.md", "# A\n\nhello\n");
}

fn code(outcome: &CallOutcome) -> Option<ErrorCode> {
    outcome.result.as_ref().err().map(|error| error.code)
}

#[test]
fn unknown_hidden_and_disabled_tools() {
    let outcomes = assert_parity(
        json!({"toolVisibility": {"hide": ["list_vaults"], "disable": ["get_vault"]}}),
        &no_setup,
        &[
            stdio("no_such_tool", json!({})),
            stdio("list_vaults", json!({})),
            stdio("get_vault", json!({"id": "main"})),
        ],
    );
    assert!(
        outcomes
            .iter()
            .all(|o| code(o) == Some(ErrorCode::NotFound))
    );
}

#[test]
fn validation_error() {
    let outcomes = assert_parity(
        json!({}),
        &no_setup,
        &[stdio("read_note", json!({"paht": "a.md"}))],
    );
    assert_eq!(code(&outcomes[0]), Some(ErrorCode::ValidationError));
}

#[test]
fn forbidden_scope_and_vault_binding() {
    let reader = caller("alice", &["read:notes"], None);
    let bound = caller("bob", &["read:notes", "read:vault"], Some("other"));
    let outcomes = assert_parity(
        json!({}),
        &note,
        &[
            Step::Call(reader, "delete_note", json!({"path": "a.md"})),
            Step::Call(bound, "read_note", json!({"path": "a.md", "vault": "main"})),
        ],
    );
    assert_eq!(code(&outcomes[0]), Some(ErrorCode::Forbidden));
    assert_eq!(code(&outcomes[1]), Some(ErrorCode::Forbidden));
}

#[test]
fn acl_denied() {
    let outcomes = assert_parity(
        json!({"acl": {"readPaths": ["Public/**"]}}),
        &|fx: &Fixture| fx.write("main", "Private/b.md", "secret"),
        &[stdio("read_note", json!({"path": "Private/b.md"}))],
    );
    assert_eq!(code(&outcomes[0]), Some(ErrorCode::AclDenied));
}

#[test]
fn read_only_mode() {
    let outcomes = assert_parity(
        json!({"acl": {"readOnly": true}}),
        &no_setup,
        &[stdio("write_note", json!({"path": "b.md", "content": "x"}))],
    );
    assert_eq!(code(&outcomes[0]), Some(ErrorCode::ReadOnlyMode));
}

#[test]
fn idempotency_replay_and_mismatch() {
    let append = |content: &str| {
        stdio(
            "append_note",
            json!({"path": "a.md", "content": content, "idempotency_key": "k1"}),
        )
    };
    let outcomes = assert_parity(
        json!({}),
        &note,
        &[append("one"), append("one"), append("two")],
    );
    assert!(outcomes[0].result.is_ok() && !outcomes[0].replayed);
    assert!(outcomes[1].replayed);
    assert_eq!(code(&outcomes[2]), Some(ErrorCode::IdempotencyKeyMismatch));
}

#[test]
fn throttled() {
    let read = || stdio("read_note", json!({"path": "a.md"}));
    let outcomes = assert_parity(
        json!({"throttle": {"tiers": {"read": {"perMinute": 60, "burst": 2}}}}),
        &note,
        &[read(), read(), read()],
    );
    assert_eq!(code(&outcomes[2]), Some(ErrorCode::Throttled));
}

#[test]
fn elicit_required_approve_and_consume() {
    let delete = || stdio("delete_note", json!({"path": "a.md"}));
    let outcomes = assert_parity(
        json!({}),
        &note,
        &[delete(), Step::ApproveLast, delete(), delete()],
    );
    assert_eq!(code(&outcomes[0]), Some(ErrorCode::ElicitRequired));
    assert_eq!(
        outcomes[1].result.as_ref().ok().map(|v| &v["deleted"]),
        Some(&json!(true))
    );
    assert_eq!(code(&outcomes[2]), Some(ErrorCode::ElicitRequired));
}

#[test]
fn overflow_and_success() {
    let outcomes = assert_parity(
        json!({"governor": {"maxResponseBytes": 400}}),
        &|fx: &Fixture| {
            fx.write("main", "big.md", &"word ".repeat(200));
            fx.write("main", "small.md", "hi\n");
        },
        &[
            stdio("read_note", json!({"path": "big.md"})),
            stdio("note_exists", json!({"path": "small.md"})),
        ],
    );
    assert_eq!(code(&outcomes[0]), Some(ErrorCode::Overflow));
    assert!(outcomes[1].result.is_ok());
}

/// An approval is for the call, not for the path it came by: approving the hash a call by
/// name was refused with authorises the same call through `call_capability`, once.
#[test]
fn an_approval_on_one_path_authorises_the_same_call_on_another() {
    for (ask, complete) in [
        (Via::Name, Via::CallCapability),
        (Via::CallCapability, Via::Domain),
        (Via::Domain, Via::Name),
    ] {
        let fx = Fixture::new(json!({}));
        note(&fx);
        let call = |via| {
            let (name, args) = wrap(&fx, via, "delete_note", json!({"path": "a.md"}));
            fx.call(&Caller::stdio(), &name, args)
        };
        let refused = call(ask);
        let error = refused.result.expect_err("elicit_required");
        assert_eq!(error.code, ErrorCode::ElicitRequired);
        fx.approve_error(&error);
        let done = call(complete);
        assert!(done.result.is_ok(), "{ask:?} then {complete:?}");
        assert_eq!(done.args_hash, refused.args_hash);
        assert!(!fx.exists("main", "a.md"));
    }
}

/// A call with the arguments `{}` to each catalog tool listed to the stdio caller for which
/// `keep` holds.
fn empty_calls(keep: &dyn Fn(&Tool) -> bool) -> Vec<Step> {
    let fx = Fixture::new(json!({}));
    let names: Vec<&'static str> = fx
        .server
        .runtime()
        .registry()
        .visible_tools(&Caller::stdio())
        .into_iter()
        .filter(|tool| tool.def.domain != "facade" && keep(tool))
        .map(|tool| tool.name())
        .collect();
    assert!(names.len() > 20, "{names:?}");
    names.iter().map(|name| stdio(name, json!({}))).collect()
}

/// Every listed catalog tool answers the same through each way (at least as far as the
/// arguments `{}` take it).
#[test]
fn every_tool_with_empty_arguments() {
    assert_parity(json!({}), &no_setup, &empty_calls(&|_| true));
}

/// Every read-only catalog tool answers the same through `call_read_capability` as by name
/// (the scenario above holds write tools too, so it leaves that way out).
#[test]
fn every_read_only_tool_through_the_read_only_envelope() {
    let steps = empty_calls(&reads_only);
    assert!(read_only_steps(&steps));
    assert_parity(json!({}), &no_setup, &steps);
}

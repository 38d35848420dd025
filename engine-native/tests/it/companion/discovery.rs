//! Zero-config discovery of TC Bridge: a vault without a `companion` entry uses the port and
//! token of the plugin's own `.obsidian/plugins/tc-bridge/data.json`, on 127.0.0.1 only, and
//! follows the file when the plugin rewrites it (a regenerated token, a new port), including a
//! rewrite its modification time and size do not show. `companion: false` turns this off; a
//! malformed file is no companion, with the reason. The first test drives the real binary
//! (`obsidian-tc <vault>` over stdio), the others a server in this process.

use std::path::Path;
use std::time::Duration;

use obsidian_tc::auth::Caller;
use obsidian_tc::errors::{ErrorCode, ToolError};
use serde_json::{Value, json};

use crate::support::companion::{
    Decision, FakeCompanion, Mode, TOKEN, closed_url, write_plugin_data, write_plugin_file,
};
use crate::support::dispatch::Fixture;
use crate::support::mcp::{arg, call, product_stdio_client, structured};

const LIST: &str = "/obsidian-tc/v1/commands/list";

/// A token TC Bridge could regenerate: 64 hex characters, as the plugin makes them.
const NEW_TOKEN: &str = "9f1c2b3a4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708192a3b4c5d6e7f8";

/// The same length as [`TOKEN`], so a rewrite keeps the file's size.
const SAME_LENGTH_TOKEN: &str = "test-tokeN";

#[tokio::test(flavor = "multi_thread")]
async fn zero_config_stdio_finds_tc_bridge_and_follows_its_settings() {
    let first = FakeCompanion::start(Mode::Reachable);
    let vault = crate::support::mcp::vault();
    write_plugin_data(vault.path(), first.port(), TOKEN, json!({}));
    let client = product_stdio_client(&[&arg(vault.path())]).await;

    let answer = call(&client, "list_commands", json!({"query": "bold"})).await;
    assert_ne!(answer.is_error, Some(true), "{answer:?}");
    assert_eq!(structured(&answer)["route"], LIST);
    assert_eq!(first.requests_to(LIST).len(), 1);

    // the user regenerates the token in TC Bridge's settings: the plugin takes only the new
    // one and rewrites its file; the next call works
    first.set_token(NEW_TOKEN);
    write_plugin_data(vault.path(), first.port(), NEW_TOKEN, json!({}));
    let answer = call(&client, "list_commands", json!({})).await;
    assert_ne!(answer.is_error, Some(true), "{answer:?}");
    assert_eq!(first.requests_to(LIST).len(), 2);

    // and moves TC Bridge to another port: the old one closes
    let moved = FakeCompanion::start(Mode::Reachable);
    moved.set_token(NEW_TOKEN);
    write_plugin_data(vault.path(), moved.port(), NEW_TOKEN, json!({}));
    first.stop();
    let answer = call(&client, "list_commands", json!({})).await;
    assert_ne!(answer.is_error, Some(true), "{answer:?}");
    assert_eq!(moved.requests_to(LIST).len(), 1);
    assert_eq!(first.requests_to(LIST).len(), 2);
    client.cancel().await.expect("stop the client");
}

/// Vaults `main` and `other` with no `companion` entry (or `main`'s set to `companion`).
fn fixture(companion: Option<Value>) -> Fixture {
    let mut main = json!({"id": "main", "path": "main"});
    if let Some(companion) = companion {
        main["companion"] = companion;
    }
    let fx = Fixture::new(json!({"vaults": [main, {"id": "other", "path": "other"}]}));
    fx.write("main", "Inbox/a.md", "one\n");
    fx
}

/// Calls `tool` as the stdio caller a minute after the previous call (clear of rate limits).
fn call_at_leisure(fx: &Fixture, tool: &str, args: Value) -> Result<Value, ToolError> {
    fx.clock.advance(60_000);
    fx.call(&Caller::stdio(), tool, args).result
}

fn refused(result: Result<Value, ToolError>, code: ErrorCode) -> ToolError {
    match result {
        Ok(value) => panic!("expected {code}, got {value}"),
        Err(error) => {
            assert_eq!(error.code, code, "{error}");
            error
        }
    }
}

/// A fixture whose vault `main` found `fake` through its settings file and called it once.
fn serving_through(fake: &FakeCompanion) -> Fixture {
    let fx = fixture(None);
    write_plugin_data(&fx.vault_dir("main"), fake.port(), TOKEN, json!({}));
    call_at_leisure(&fx, "list_commands", json!({})).expect("through the file's companion");
    fx
}

/// Rewrites `vault`'s settings file with `port` and `token`, its modification time `later`
/// than before. With `Duration::ZERO`, and the size kept too, nothing in the file's stamp
/// shows the change (as a rewrite within a coarse timestamp's tick).
fn rewrite_dated(vault: &Path, port: u16, token: &str, later: Duration) {
    let file = vault.join(".obsidian/plugins/tc-bridge/data.json");
    let stamp = std::fs::metadata(&file)
        .expect("data.json")
        .modified()
        .expect("mtime");
    write_plugin_data(vault, port, token, json!({}));
    let handle = std::fs::File::options()
        .write(true)
        .open(&file)
        .expect("open");
    handle.set_modified(stamp + later).expect("set the mtime");
}

#[test]
fn a_rewritten_settings_file_is_read_again_before_the_next_call() {
    let first = FakeCompanion::start(Mode::Reachable);
    let fx = serving_through(&first);
    // TC Bridge names another port; the old one still answers, so only the file can tell
    let moved = FakeCompanion::start(Mode::Reachable);
    rewrite_dated(
        &fx.vault_dir("main"),
        moved.port(),
        TOKEN,
        Duration::from_secs(1),
    );

    call_at_leisure(&fx, "list_commands", json!({})).expect("through the new port");
    assert_eq!(moved.requests_to(LIST).len(), 1);
    assert_eq!(
        first.requests_to(LIST).len(),
        1,
        "the old port is not called again"
    );
    assert_eq!(first.refused() + moved.refused(), 0);
}

#[test]
fn a_rewrite_its_stamp_hides_is_caught_by_the_refused_token() {
    let fake = FakeCompanion::start(Mode::Reachable);
    let fx = serving_through(&fake);
    fake.set_token(SAME_LENGTH_TOKEN);
    rewrite_dated(
        &fx.vault_dir("main"),
        fake.port(),
        SAME_LENGTH_TOKEN,
        Duration::ZERO,
    );
    let refused_before = fake.refused();

    call_at_leisure(&fx, "list_commands", json!({})).expect("read again after the 401");
    assert_eq!(
        fake.refused(),
        refused_before + 1,
        "one refusal, then the new token"
    );
    assert_eq!(fake.requests_to(LIST).len(), 3);
}

#[test]
fn only_loopback_is_dialled_whatever_the_file_says() {
    let fake = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(None);
    let elsewhere = json!({"host": "192.0.2.7", "url": "http://192.0.2.7:80", "bind": "0.0.0.0"});
    write_plugin_data(&fx.vault_dir("main"), fake.port(), TOKEN, elsewhere);
    let answer = call_at_leisure(&fx, "list_commands", json!({})).expect("on 127.0.0.1");
    assert_eq!(answer["route"], LIST);
    assert_eq!(fake.requests_to(LIST).len(), 1);
}

#[test]
fn companion_false_turns_discovery_off() {
    let fake = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(Some(json!(false)));
    write_plugin_data(&fx.vault_dir("main"), fake.port(), TOKEN, json!({}));
    let error = refused(
        call_at_leisure(&fx, "list_commands", json!({})),
        ErrorCode::PluginMissing,
    );
    assert!(error.message.contains("companion: false"), "{error}");
    assert!(
        error.recovery.contains("companion: false"),
        "{}",
        error.recovery
    );
    let report = call_at_leisure(&fx, "refresh_plugin_capabilities", json!({})).expect("report");
    assert_eq!(report["status"], "off", "{report}");
    assert!(fake.requests().is_empty(), "{:?}", fake.requests());
}

#[test]
fn a_malformed_or_tokenless_file_is_no_companion_with_the_reason() {
    let fake = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(None);
    let main = fx.vault_dir("main");

    write_plugin_file(&main, "{\"port\": 27190, \"token\": ");
    let error = refused(
        call_at_leisure(&fx, "list_commands", json!({})),
        ErrorCode::PluginMissing,
    );
    assert!(error.message.contains("data.json"), "{error}");
    assert!(error.message.contains("not a JSON object"), "{error}");
    let report = call_at_leisure(&fx, "refresh_plugin_capabilities", json!({})).expect("report");
    assert_eq!(report["status"], "not_configured", "{report}");
    assert!(
        report["reason"]
            .as_str()
            .expect("reason")
            .contains("data.json"),
        "{report}"
    );

    write_plugin_file(
        &main,
        &format!("{{\"port\": \"{}\", \"token\": \"x\"}}", fake.port()),
    );
    let error = refused(
        call_at_leisure(&fx, "list_commands", json!({})),
        ErrorCode::PluginMissing,
    );
    assert!(error.message.contains("not a port number"), "{error}");

    write_plugin_file(&main, &format!("{{\"port\": {}}}", fake.port()));
    let error = refused(
        call_at_leisure(&fx, "list_commands", json!({})),
        ErrorCode::PluginMissing,
    );
    assert!(error.message.contains("no token yet"), "{error}");
    assert!(fake.requests().is_empty(), "{:?}", fake.requests());

    // the plugin writes its settings in full: the next call uses them
    write_plugin_data(&main, fake.port(), TOKEN, json!({}));
    call_at_leisure(&fx, "list_commands", json!({})).expect("fixed file");
}

#[test]
fn no_settings_file_is_no_companion_and_the_other_vault_is_unaffected() {
    let fake = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(None);
    write_plugin_data(&fx.vault_dir("main"), fake.port(), TOKEN, json!({}));
    let error = refused(
        call_at_leisure(&fx, "list_commands", json!({"vault": "other"})),
        ErrorCode::PluginMissing,
    );
    assert!(error.message.contains("no TC Bridge settings"), "{error}");
    assert!(
        error.recovery.contains("plugin install"),
        "{}",
        error.recovery
    );
    call_at_leisure(&fx, "list_commands", json!({})).expect("main has one");
}

#[test]
fn a_port_change_its_stamp_hides_is_caught_by_the_closed_old_port() {
    let first = FakeCompanion::start(Mode::Reachable);
    let fx = serving_through(&first);
    // TC Bridge moves to a port of as many digits; the old port closes
    let moved = loop {
        let moved = FakeCompanion::start(Mode::Reachable);
        if moved.port().to_string().len() == first.port().to_string().len() {
            break moved;
        }
    };
    rewrite_dated(&fx.vault_dir("main"), moved.port(), TOKEN, Duration::ZERO);
    first.stop();

    call_at_leisure(&fx, "list_commands", json!({})).expect("read again: nothing listens");
    assert_eq!(moved.requests_to(LIST).len(), 1);
}

#[test]
fn a_settings_file_naming_a_closed_port_is_unreachable_until_tc_bridge_is_back() {
    let fx = fixture(None);
    let closed = closed_url();
    let port: u16 = closed
        .rsplit(':')
        .next()
        .and_then(|p| p.parse().ok())
        .expect("port");
    write_plugin_data(&fx.vault_dir("main"), port, TOKEN, json!({}));
    refused(
        call_at_leisure(&fx, "list_commands", json!({})),
        ErrorCode::PluginUnreachable,
    );
    let fake = FakeCompanion::start(Mode::Reachable);
    write_plugin_data(&fx.vault_dir("main"), fake.port(), TOKEN, json!({}));
    call_at_leisure(&fx, "list_commands", json!({})).expect("TC Bridge came up");
}

#[test]
fn a_destructive_call_is_approved_in_obsidian_through_the_found_companion() {
    let fake = FakeCompanion::start(Mode::Reachable);
    fake.decide(&[Decision::Approved]);
    let fx = fixture(None);
    write_plugin_data(&fx.vault_dir("main"), fake.port(), TOKEN, json!({}));
    let done = call_at_leisure(&fx, "delete_note", json!({"path": "Inbox/a.md"}))
        .expect("approved in Obsidian");
    assert_eq!(done["trashed_to"], ".trash/Inbox/a.md");
    assert!(!fx.exists("main", "Inbox/a.md"));
    let asked = fake.requests_to("/obsidian-tc/v1/confirm");
    assert_eq!(asked.len(), 1);
    assert_eq!(asked[0]["tool"], "delete_note");
    assert_eq!(asked[0]["path"], "Inbox/a.md");

    // denied: the call stays held and nothing is deleted
    fx.write("main", "Inbox/b.md", "two\n");
    fake.decide(&[Decision::Denied]);
    refused(
        call_at_leisure(&fx, "delete_note", json!({"path": "Inbox/b.md"})),
        ErrorCode::ElicitRequired,
    );
    assert!(fx.exists("main", "Inbox/b.md"));
}

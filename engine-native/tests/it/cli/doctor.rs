//! `obsidian-tc doctor` probes each vault's companion plugin (TC Bridge) over real HTTP: a
//! fake companion in this test answers `GET /obsidian-tc/v1/probe` like the plugin does.

use std::path::Path;

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::get;
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::support;
use crate::support::mcp::{arg, free_port, run};

const TOKEN: &str = "tc-bridge-token-0123456789";

/// What the fake companion reports.
#[derive(Clone)]
struct Reports {
    api_version: &'static str,
    shape_ok: bool,
}

async fn probe(State(reports): State<Reports>, headers: HeaderMap) -> (StatusCode, Json<Value>) {
    let bearer = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if bearer != Some(TOKEN) {
        return (
            StatusCode::UNAUTHORIZED,
            Json(json!({"ok": false, "code": "unauthorized", "message": "bad token"})),
        );
    }
    let warnings: Vec<&str> = if reports.shape_ok {
        vec![]
    } else {
        vec!["app.internalPlugins changed shape"]
    };
    (
        StatusCode::OK,
        Json(json!({"ok": true, "result": {
            "plugin_version": "0.3.1", "obsidian_version": "1.9.12",
            "obsidianTcApiVersion": reports.api_version, "vault_path": "Notes",
            "capabilities": {"dataview": {"installed": true, "version": "0.5.68"},
                             "tasks": {"installed": false}},
            "shape_ok": reports.shape_ok, "shape_warnings": warnings,
            "a_field_from_the_future": 1
        }})),
    )
}

/// Serves a fake companion on a free port (in a thread with its own runtime); its URL.
fn fake_companion(reports: Reports) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    listener.set_nonblocking(true).expect("nonblocking");
    std::thread::spawn(move || {
        let runtime = tokio::runtime::Runtime::new().expect("runtime");
        runtime.block_on(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
            let app = axum::Router::new()
                .route("/obsidian-tc/v1/probe", get(probe))
                .with_state(reports);
            axum::serve(listener, app).await.expect("serve");
        });
    });
    format!("http://127.0.0.1:{port}")
}

/// A config file (in a temp folder the returned guards keep) with one vault per
/// `(id, companion)`, all on one temp vault folder.
fn config(companions: &[(&str, Value)]) -> (String, [TempDir; 2]) {
    let vault = support::mcp::vault();
    let dir = tempfile::tempdir().expect("temp dir");
    let file = write_config(dir.path(), vault.path(), companions);
    (file, [vault, dir])
}

/// Writes the config file of [`config`] into `dir`.
fn write_config(dir: &Path, vault: &Path, companions: &[(&str, Value)]) -> String {
    let vaults: Vec<Value> = companions
        .iter()
        .map(|(id, companion)| {
            let mut entry = json!({"id": id, "path": arg(vault)});
            if !companion.is_null() {
                entry["companion"] = companion.clone();
            }
            entry
        })
        .collect();
    let file = dir.join("obsidian-tc.json");
    std::fs::write(&file, json!({"vaults": vaults}).to_string()).expect("write config");
    arg(&file)
}

#[test]
fn doctor_reports_each_companion_with_what_to_do() {
    let good = fake_companion(Reports {
        api_version: "1",
        shape_ok: true,
    });
    let newer = fake_companion(Reports {
        api_version: "2",
        shape_ok: true,
    });
    let broken = fake_companion(Reports {
        api_version: "1",
        shape_ok: false,
    });
    let closed = format!("http://127.0.0.1:{}", free_port());
    let (file, _dirs) = config(&[
        ("none", Value::Null),
        ("good", json!({"url": good, "token": TOKEN})),
        ("badtoken", json!({"url": good, "token": "wrong"})),
        ("newer", json!({"url": newer, "token": TOKEN})),
        ("broken", json!({"url": broken, "token": TOKEN})),
        ("closed", json!({"url": closed, "token": TOKEN})),
    ]);
    let out = run(&["doctor", "--config", &file]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let line = |id: &str| -> String {
        said.lines()
            .skip_while(|l| !l.contains(&format!("vault {id}: ")))
            .take(2)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(
        line("none").starts_with("OK   vault none: no companion (no TC Bridge settings at "),
        "{said}"
    );
    assert!(
        line("good").starts_with("OK   vault good: TC Bridge 0.3.1 on Obsidian 1.9.12 answers"),
        "{said}"
    );
    let bad_token = line("badtoken");
    assert!(
        bad_token.starts_with("FAIL") && bad_token.contains("token was refused"),
        "{said}"
    );
    assert!(bad_token.contains("hint: copy the token"), "{said}");
    let newer = line("newer");
    assert!(
        newer.contains("speaks Companion API 2, this server speaks 1"),
        "{said}"
    );
    assert!(newer.contains("hint: update TC Bridge"), "{said}");
    let broken = line("broken");
    assert!(
        broken.starts_with("FAIL") && broken.contains("app.internalPlugins"),
        "{said}"
    );
    let closed = line("closed");
    assert!(
        closed.starts_with("FAIL") && closed.contains("not reachable"),
        "{said}"
    );
    assert!(
        closed.contains("hint: open the vault in Obsidian"),
        "{said}"
    );
}

#[test]
fn a_companion_beyond_loopback_is_refused_at_load() {
    let (file, _dirs) = config(&[(
        "main",
        json!({"url": "http://192.168.1.20:27125", "token": TOKEN}),
    )]);
    let out = run(&["config", "validate", "--config", &file]);
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("vaults[0].companion.url"), "{said}");
    assert!(said.contains("not a loopback HTTP address"), "{said}");
}

#[test]
fn get_server_config_never_shows_the_companion_token() {
    let (file, _dirs) = config(&[(
        "main",
        json!({"url": "http://127.0.0.1:27125", "token": TOKEN}),
    )]);
    let out = run(&["call", "get_server_config", "--config", &file]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(!said.contains(TOKEN), "{said}");
    let shown: Value = serde_json::from_slice(&out.stdout).expect("JSON");
    assert_eq!(shown["vaults"][0]["companion"]["token"], "[redacted]");
    assert_eq!(shown["vaults"][0]["companion"]["probeTimeoutMs"], 500);
}

#[test]
fn doctor_says_what_it_found_in_tc_bridge_settings_and_never_the_token() {
    use crate::support::companion::{
        FakeCompanion, Mode, TOKEN as PLUGIN_TOKEN, closed_url, write_plugin_data,
        write_plugin_file,
    };
    let fake = FakeCompanion::start(Mode::Reachable);
    let vault = support::mcp::vault();
    let file = vault.path().join(".obsidian/plugins/tc-bridge/data.json");
    let doctor = || {
        let out = run(&["doctor", &arg(vault.path())]);
        let said = String::from_utf8_lossy(&out.stdout).into_owned();
        assert!(!said.contains(PLUGIN_TOKEN), "the token is shown: {said}");
        let line = said
            .lines()
            .skip_while(|l| !l.contains("vault main: ") || l.contains("readable"))
            .take(2)
            .collect::<Vec<_>>()
            .join("\n");
        (out.status.code(), line)
    };

    let (code, line) = doctor();
    assert_eq!(code, Some(0), "{line}");
    assert!(
        line.starts_with(&format!(
            "OK   vault main: no companion (no TC Bridge settings at {}",
            file.display()
        )),
        "{line}"
    );

    write_plugin_data(vault.path(), fake.port(), PLUGIN_TOKEN, json!({}));
    let (code, line) = doctor();
    assert_eq!(code, Some(0), "{line}");
    assert_eq!(
        line,
        format!(
            "OK   vault main: TC Bridge 1.0.0 on Obsidian 1.8.9 answers at {} (found in {}, \
             token present)",
            fake.url,
            file.display()
        )
    );

    let closed: u16 = closed_url()
        .rsplit(':')
        .next()
        .and_then(|port| port.parse().ok())
        .expect("port");
    write_plugin_data(vault.path(), closed, PLUGIN_TOKEN, json!({}));
    let (code, line) = doctor();
    assert_eq!(code, Some(1), "{line}");
    assert!(
        line.starts_with(&format!(
            "FAIL vault main: TC Bridge at http://127.0.0.1:{closed} (found in {}, token \
             present) not reachable",
            file.display()
        )),
        "{line}"
    );
    assert!(line.contains("hint: open the vault in Obsidian"), "{line}");

    write_plugin_file(vault.path(), "{\"port\": 27190, \"token\": ");
    let (code, line) = doctor();
    assert_eq!(code, Some(1), "{line}");
    assert!(
        line.starts_with("FAIL vault main: no companion: TC Bridge's settings at "),
        "{line}"
    );
    assert!(line.contains("not a JSON object"), "{line}");
    assert!(
        line.contains("hint: open the vault in Obsidian with TC Bridge enabled"),
        "{line}"
    );
}

#[test]
fn doctor_reports_a_companion_turned_off() {
    let (file, _dirs) = config(&[("main", json!(false))]);
    let out = run(&["doctor", "--config", &file]);
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains("OK   vault main: companion turned off (companion: false)"),
        "{said}"
    );
}

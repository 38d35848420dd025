//! A fake TC Bridge for the companion tests: an HTTP server on loopback (axum on a runtime of
//! its own thread) that plays the companion in each state — reachable (the probe and every
//! route answer), missing (404 everywhere, not the Companion API), incompatible (API "2"),
//! sleeping (answers after the client gave up) — and answers `/confirm` with the decisions
//! queued for it. It records every request it got. Like TC Bridge, it serves only the paths of
//! the Companion API contract (`contract/companion-api.json`, read here as the plugin reads
//! it): any other path under the prefix answers 404 `not_found`.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::net::TcpListener;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Bytes;
use axum::http::{StatusCode, Uri};
use axum::response::IntoResponse;
use serde_json::{Value, json};

/// How the fake companion behaves.
#[derive(Debug, Clone, PartialEq)]
pub enum Mode {
    /// The probe and every route answer.
    Reachable,
    /// Something that is not TC Bridge: 404 with a plain body.
    Missing,
    /// TC Bridge speaking Companion API "2".
    Incompatible,
    /// Answers only after this long.
    Sleeping(Duration),
}

/// A `/confirm` answer.
#[derive(Debug, Clone, PartialEq)]
pub enum Decision {
    /// `{decision: "approved"}`.
    Approved,
    /// `{decision: "denied"}`.
    Denied,
    /// `{decision: "timed_out"}`.
    TimedOut,
    /// No answer before the server stops waiting.
    Silent(Duration),
}

#[derive(Default)]
struct Shared {
    mode: Mutex<Option<Mode>>,
    token: Mutex<String>,
    refused: Mutex<usize>,
    vault: Mutex<Option<std::path::PathBuf>>,
    decisions: Mutex<VecDeque<Decision>>,
    requests: Mutex<Vec<(String, Value)>>,
    probe: Mutex<Option<Value>>,
}

/// The Companion API contract, as TC Bridge imports it.
pub const CONTRACT: &str = include_str!("../../../contract/companion-api.json");

/// The contract, parsed.
pub fn contract() -> Value {
    serde_json::from_str(CONTRACT).expect("contract/companion-api.json is JSON")
}

/// Every full path the contract serves: its endpoints and its routes.
pub fn contract_paths() -> Vec<String> {
    let contract = contract();
    let prefix = contract["prefix"].as_str().expect("prefix");
    let endpoints = contract["endpoints"]
        .as_object()
        .expect("endpoints")
        .values();
    let routes = contract["routes"].as_array().expect("routes").iter();
    endpoints
        .chain(routes)
        .map(|entry| format!("{prefix}{}", entry["path"].as_str().expect("path")))
        .collect()
}

/// A fake TC Bridge listening on `url`.
pub struct FakeCompanion {
    pub url: String,
    shared: Arc<Shared>,
    stop: Mutex<
        Option<(
            tokio::sync::oneshot::Sender<()>,
            std::thread::JoinHandle<()>,
        )>,
    >,
}

pub const TOKEN: &str = "test-token";

impl FakeCompanion {
    pub fn start(mode: Mode) -> FakeCompanion {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        listener.set_nonblocking(true).expect("nonblocking");
        let url = format!("http://{}", listener.local_addr().expect("addr"));
        let shared = Arc::new(Shared::default());
        *shared.mode.lock().unwrap() = Some(mode);
        *shared.token.lock().unwrap() = TOKEN.to_owned();
        let state = Arc::clone(&shared);
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_multi_thread()
                .worker_threads(2)
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(async move {
                let listener = tokio::net::TcpListener::from_std(listener).expect("listener");
                let app = Router::new().fallback(
                    move |uri: Uri, headers: axum::http::HeaderMap, body: Bytes| {
                        let state = Arc::clone(&state);
                        async move { answer(&state, uri, headers, body).await }
                    },
                );
                axum::serve(listener, app)
                    .with_graceful_shutdown(async move {
                        let _ = stopped.await;
                    })
                    .await
                    .expect("serve");
            });
        });
        FakeCompanion {
            url,
            shared,
            stop: Mutex::new(Some((stop, thread))),
        }
    }

    /// Stops listening (as TC Bridge moving to another port, or Obsidian quitting): returns
    /// once its port is closed.
    pub fn stop(&self) {
        if let Some((stop, thread)) = self.stop.lock().unwrap().take() {
            let _ = stop.send(());
            thread.join().expect("the fake companion's thread");
        }
    }

    pub fn set_mode(&self, mode: Mode) {
        *self.shared.mode.lock().unwrap() = Some(mode);
    }

    /// From now on, accepts only `token` (as TC Bridge after the user regenerated it).
    pub fn set_token(&self, token: &str) {
        *self.shared.token.lock().unwrap() = token.to_owned();
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.url
            .rsplit(':')
            .next()
            .and_then(|port| port.parse().ok())
            .expect("the url ends in the port")
    }

    /// How many requests it refused for a wrong or missing token.
    pub fn refused(&self) -> usize {
        *self.shared.refused.lock().unwrap()
    }

    /// Plays Obsidian writing into the vault folder `dir`: `/excalidraw/write` then writes
    /// [`DRAWN`] followed by its `mode` to the file its `path` names, as Excalidraw would.
    pub fn write_into(&self, dir: std::path::PathBuf) {
        *self.shared.vault.lock().unwrap() = Some(dir);
    }

    /// From now on, the probe reports `result` (the default is [`probe_result`]).
    pub fn report(&self, result: Value) {
        *self.shared.probe.lock().unwrap() = Some(result);
    }

    /// Queues `/confirm` answers (an empty queue answers denied).
    pub fn decide(&self, decisions: &[Decision]) {
        self.shared
            .decisions
            .lock()
            .unwrap()
            .extend(decisions.iter().cloned());
    }

    /// Every request so far: (path, JSON body or null).
    pub fn requests(&self) -> Vec<(String, Value)> {
        self.shared.requests.lock().unwrap().clone()
    }

    /// The requests to `path`.
    pub fn requests_to(&self, path: &str) -> Vec<Value> {
        self.requests()
            .into_iter()
            .filter(|(p, _)| p == path)
            .map(|(_, body)| body)
            .collect()
    }

    /// The `companion` config of a vault using this fake, with short timeouts.
    pub fn config(&self) -> Value {
        companion_config(&self.url)
    }
}

/// A `companion` config for `url` with the test token and short timeouts.
pub fn companion_config(url: &str) -> Value {
    json!({
        "url": url,
        "token": TOKEN,
        "probeTimeoutMs": 500,
        "callTimeoutMs": 500,
        "slowCallTimeoutMs": 500,
        "confirmTimeoutMs": 300,
    })
}

/// Writes TC Bridge's settings file into the vault folder `vault` as the plugin does:
/// `port`, `token`, and `extra` merged in (other settings, or fields a client must ignore).
pub fn write_plugin_data(vault: &std::path::Path, port: u16, token: &str, extra: Value) {
    let mut data = json!({"port": port, "token": token, "allowWrites": false});
    if let (Some(data), Value::Object(extra)) = (data.as_object_mut(), extra) {
        data.extend(extra);
    }
    write_plugin_file(vault, &data.to_string());
}

/// Writes `text` as TC Bridge's settings file in the vault folder `vault`.
pub fn write_plugin_file(vault: &std::path::Path, text: &str) {
    let file = vault.join(".obsidian/plugins/tc-bridge/data.json");
    std::fs::create_dir_all(file.parent().expect("folder")).expect("plugin folder");
    std::fs::write(file, text).expect("data.json");
}

/// What the fake's Excalidraw writes into a drawing (then the write's mode).
pub const DRAWN: &str = "drawn in Obsidian: ";

/// The DQL query the fake answers with [`dql_table`].
pub const DQL_TABLE: &str = "TABLE priority FROM \"Projects\" OR \"Private\" SORT priority DESC";

/// Dataview's answer to [`DQL_TABLE`] as TC Bridge relays it: rows by priority, a row
/// naming `Projects/Mars.md` twice (grouped), one in `Private/`, a TASK-like row with its
/// own `path`.
pub fn dql_table() -> Value {
    let link = |path: &str| json!({"type": "link", "path": path, "embed": false});
    json!({
        "type": "table",
        "headers": ["File", "priority"],
        "values": [
            [link("Projects/Moon.md"), 3],
            [link("Private/diary.md"), 2],
            [link("Projects/Mars.md"), 1],
            [link("Projects/Mars.md"), 1],
            [{"path": "Notes/tiny.md", "text": "a task", "line": 3}, null]
        ]
    })
}

/// When the fake's Remotely Save last synced (ms); its trigger fires a millisecond later.
pub const LAST_SYNC: i64 = 1_700_000_000_000;

/// The one field the fake's Metadata Menu finds in every note.
pub static METADATA_STATUS: std::sync::LazyLock<Value> = std::sync::LazyLock::new(
    || json!({"value": "draft", "type": "Select", "is_valid": true, "source_type": "fileClass", "file_class": "doc"}),
);

/// Datacore's rows as TC Bridge relays them for the query `args` asked (what TC Bridge's own
/// folder access lets through, so the server's ACL decides): four pages tagged `#plan`, one in
/// `Private/`, one whose frontmatter links into `Private/`, and a row of no note; `total` counts
/// them all, `items` stops at the `limit` asked.
pub fn datacore_rows(args: &Value) -> Value {
    let page = |path: &str, fields: Value| {
        json!({"path": path, "name": path.trim_end_matches(".md").rsplit('/').next(),
               "tags": ["#plan"], "types": ["file", "markdown", "page"], "fields": fields})
    };
    let link = |path: &str| json!({"type": "link", "path": path, "embed": false});
    let rows = [
        page(
            "Projects/Moon.md",
            json!({"status": "active", "related": [link("Projects/Mars.md")]}),
        ),
        page("Private/diary.md", json!({"mood": "secret"})),
        page(
            "Projects/Mars.md",
            json!({"source": link("Private/diary.md")}),
        ),
        json!({"path": null, "name": "virtual", "tags": ["#plan"], "types": ["page"], "fields": {}}),
        page("Projects/Venus.md", json!({})),
    ];
    let limit = args["limit"].as_u64().unwrap_or(500) as usize;
    json!({
        "items": rows.iter().take(limit).collect::<Vec<_>>(),
        "total": rows.len(),
        "query": args["query"],
    })
}

/// A loopback URL where nothing listens.
pub fn closed_url() -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let url = format!("http://{}", listener.local_addr().expect("addr"));
    drop(listener);
    url
}

/// The probe result of a reachable TC Bridge: Dataview usable, Templater installed but
/// disabled, QuickAdd not installed, the rest installed and (by an absent `enabled`) enabled.
pub fn probe_result(api_version: &str) -> Value {
    json!({
        "plugin_version": "1.0.0",
        "obsidian_version": "1.8.9",
        "obsidianTcApiVersion": api_version,
        "vault_path": "main",
        "capabilities": {
            "dataview": {"installed": true, "enabled": true, "version": "0.5.67"},
            "templater": {"installed": true, "enabled": false, "version": "2.9.1"},
            "quickadd": {"installed": false},
            "tasks": {"installed": true},
            "excalidraw": {"installed": true, "enabled": true},
            "text-extractor": {"installed": true, "enabled": true},
            "make-md": {"installed": true, "enabled": true},
            "omnisearch": {"installed": true, "enabled": true},
            "remotely-save": {"installed": true, "enabled": true},
            "datacore": {"installed": true, "enabled": true},
            "metadata-menu": {"installed": true, "enabled": true}
        },
        "shape_ok": true,
        "shape_warnings": []
    })
}

async fn answer(
    shared: &Shared,
    uri: Uri,
    headers: axum::http::HeaderMap,
    body: Bytes,
) -> axum::response::Response {
    let path = uri.path().to_owned();
    let parsed: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
    shared
        .requests
        .lock()
        .unwrap()
        .push((path.clone(), parsed.clone()));
    let mode = shared.mode.lock().unwrap().clone().expect("mode");
    if let Mode::Sleeping(pause) = &mode {
        tokio::time::sleep(*pause).await;
    }
    let expected = format!("Bearer {}", shared.token.lock().unwrap());
    let authorized = headers.get("authorization").and_then(|v| v.to_str().ok()) == Some(&expected);
    if !authorized {
        *shared.refused.lock().unwrap() += 1;
        return reply(
            401,
            json!({"ok": false, "code": "unauthorized", "message": "bad token"}),
        );
    }
    match mode {
        Mode::Missing => (StatusCode::NOT_FOUND, "Not Found").into_response(),
        Mode::Incompatible if path == "/obsidian-tc/v1/probe" => {
            reply(200, json!({"ok": true, "result": probe_result("2")}))
        }
        _ if !contract_paths().contains(&path) => reply(
            404,
            json!({"ok": false, "code": "not_found", "message": format!("No route {path}")}),
        ),
        _ if path == "/obsidian-tc/v1/probe" => {
            let reported = shared.probe.lock().unwrap().clone();
            let result = reported.unwrap_or_else(|| probe_result("1"));
            reply(200, json!({"ok": true, "result": result}))
        }
        _ if path == "/obsidian-tc/v1/confirm" => {
            let next = shared.decisions.lock().unwrap().pop_front();
            let decision = match next.unwrap_or(Decision::Denied) {
                Decision::Approved => "approved",
                Decision::Denied => "denied",
                Decision::TimedOut => "timed_out",
                Decision::Silent(pause) => {
                    tokio::time::sleep(pause).await;
                    "approved"
                }
            };
            reply(200, json!({"ok": true, "result": {"decision": decision}}))
        }
        _ if path == "/obsidian-tc/v1/dataview/dql" && parsed["query"] == DQL_TABLE => {
            reply(200, json!({"ok": true, "result": dql_table()}))
        }
        _ if path == "/obsidian-tc/v1/dataview/dql" && parsed["query"] == "BROKEN" => reply(
            200,
            json!({"ok": false, "code": "dql_error", "message": "Dataview: parse error", "details": {"line": 1}}),
        ),
        _ if path == "/obsidian-tc/v1/excalidraw/write"
            && shared.vault.lock().unwrap().is_some() =>
        {
            let dir = shared.vault.lock().unwrap().clone().expect("vault");
            let file = dir.join(parsed["path"].as_str().expect("path"));
            std::fs::write(
                &file,
                format!("{DRAWN}{}", parsed["mode"].as_str().unwrap_or("")),
            )
            .expect("write the drawing");
            reply(
                200,
                json!({"ok": true, "result": {"path": parsed["path"], "written": true}}),
            )
        }
        _ if path == "/obsidian-tc/v1/workspaces/open" => reply(
            200,
            json!({"ok": true, "result": {"name": parsed["name"], "opened": true, "active": parsed["name"]}}),
        ),
        _ if path == "/obsidian-tc/v1/remotely-save/status" => reply(
            200,
            json!({"ok": true, "result": {"sync_status": "idle", "last_success_sync": LAST_SYNC}}),
        ),
        _ if path == "/obsidian-tc/v1/remotely-save/trigger" => reply(
            200,
            json!({"ok": true, "result": {"triggered": true, "fired_at": LAST_SYNC + 1}}),
        ),
        _ if path == "/obsidian-tc/v1/datacore/query" => {
            reply(200, json!({"ok": true, "result": datacore_rows(&parsed)}))
        }
        _ if path == "/obsidian-tc/v1/metadata-menu/fields" => {
            let asked = parsed["path"].as_str().unwrap_or_default();
            let path = if asked.ends_with(".md") {
                asked.to_owned()
            } else {
                format!("{asked}.md")
            };
            reply(
                200,
                json!({"ok": true, "result": {"path": path, "fields": {"status": METADATA_STATUS.clone()}, "total": 1}}),
            )
        }
        _ if path == "/obsidian-tc/v1/daily-notes/resolve" => reply(
            404,
            json!({"ok": false, "code": "plugin_missing", "message": "Daily notes is off", "details": {"plugin": "daily-notes"}}),
        ),
        _ => reply(
            200,
            json!({"ok": true, "result": {"route": path, "args": parsed}}),
        ),
    }
}

fn reply(status: u16, body: Value) -> axum::response::Response {
    let status = StatusCode::from_u16(status).expect("status");
    (
        status,
        [("content-type", "application/json")],
        body.to_string(),
    )
        .into_response()
}

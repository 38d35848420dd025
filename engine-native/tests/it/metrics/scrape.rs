//! A scripted session over real HTTP (static-token auth, a small read tier), then a scrape of
//! `/metrics`: the call counters equal exactly the calls the script made, by vault, tool,
//! class, outcome and code (a gated call approved out of band among them); the latency histogram, throttle trips, HITL waits, sessions,
//! index and process gauges are there; `get_metrics` reads the same counts; promtool passes.

use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::service::{RoleClient, RunningService};
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

use super::{CALLS, calls, family, promtool_check, sample, series};
use crate::support::mcp::{HttpServer, arg, call, free_port, run, structured, vault, write_config};

/// The static bearer token of the server.
const TOKEN: &str = "metrics-test-token-0123456789abcdef0123456789";

/// A server on `port` serving `vault` under static-token auth, with the read tier at
/// `burst` calls (refilled at one a minute, so a burst beyond it is refused).
fn start(vault: &std::path::Path, burst: u32, extra: Value) -> (HttpServer, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("temp dir");
    let port = free_port();
    let mut config = json!({
        "auth": {"mode": "token", "token": TOKEN},
        "throttle": {"tiers": {"read": {"perMinute": 1, "burst": burst}}},
        "transports": {"http": {"port": port}},
    });
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    let file = dir.path().join("c.json");
    write_config(&file, vault, config);
    let server = HttpServer::start(&["serve", "--http", "--config", &arg(&file)], port);
    (server, dir)
}

/// `GET /metrics` of `server` with the static token.
pub async fn scrape(server: &HttpServer, token: Option<&str>) -> reqwest::Response {
    let url = server.url().replace("/mcp", "/metrics");
    let mut request = reqwest::Client::new().get(url);
    if let Some(token) = token {
        request = request.bearer_auth(token);
    }
    request.send().await.expect("the server answers")
}

/// The text of a scrape that succeeded.
async fn scrape_text(server: &HttpServer) -> String {
    let response = scrape(server, Some(TOKEN)).await;
    assert_eq!(response.status(), 200);
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_owned();
    assert_eq!(content_type, "text/plain; version=0.0.4; charset=utf-8");
    response.text().await.expect("body")
}

async fn client(server: &HttpServer) -> RunningService<RoleClient, ()> {
    let config = StreamableHttpClientTransportConfig::with_uri(server.url()).auth_header(TOKEN);
    ().serve(StreamableHttpClientTransport::from_config(config))
        .await
        .expect("initialize over HTTP")
}

/// The error code of a failed call.
fn code(result: &rmcp::model::CallToolResult) -> String {
    if result.is_error != Some(true) {
        return "ok".to_owned();
    }
    structured(result)["code"]
        .as_str()
        .expect("a code")
        .to_owned()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_scrape_counts_exactly_the_calls_of_a_scripted_session() {
    let vault = vault();
    let (server, config_dir) = start(vault.path(), 4, json!({}));
    let client = client(&server).await;

    // The script: each call's code is checked as it runs, so the expected counters below
    // are the calls made.
    let script: [(&str, Value, &str); 9] = [
        ("read_note", json!({"path": "hello.md"}), "ok"),
        ("read_note", json!({"path": "missing.md"}), "not_found"),
        ("read_note", json!({}), "validation_error"),
        ("no_such_tool", json!({}), "not_found"),
        // the read tier has 4 tokens: the two read_notes above that got past validation took
        // two, so of these four the last two are throttled
        ("server_health", json!({}), "ok"),
        ("server_health", json!({}), "ok"),
        ("server_health", json!({}), "throttled"),
        ("server_health", json!({}), "throttled"),
        // destructive: stopped at the HITL gate
        ("delete_note", json!({"path": "gone.md"}), "elicit_required"),
    ];
    let mut gated = None;
    for (tool, args, expected) in script {
        let result = call(&client, tool, args).await;
        assert_eq!(code(&result), expected, "{tool}");
        gated = Some(result);
    }
    // a human approves the gated call out of band; the same call then passes the gate
    let gated = gated.expect("the script ran");
    let hash = structured(&gated)["details"]["args_hash"]
        .as_str()
        .expect("an args hash")
        .to_owned();
    let config = arg(&config_dir.path().join("c.json"));
    let approved = run(&["elicit", "approve", &hash, "--config", &config]);
    assert!(
        approved.status.success(),
        "{}",
        String::from_utf8_lossy(&approved.stderr)
    );
    let deleted = call(&client, "delete_note", json!({"path": "gone.md"})).await;
    assert_eq!(code(&deleted), "ok");

    let text = scrape_text(&server).await;
    let expected = [
        (calls("main", "read_note", "read", "ok"), 1.0),
        (calls("main", "read_note", "read", "not_found"), 1.0),
        (calls("", "read_note", "read", "validation_error"), 1.0),
        (calls("", "(unregistered)", "none", "not_found"), 1.0),
        (calls("main", "server_health", "read", "ok"), 2.0),
        (calls("main", "server_health", "read", "throttled"), 2.0),
        (
            calls("main", "delete_note", "delete", "elicit_required"),
            1.0,
        ),
        (calls("main", "delete_note", "delete", "ok"), 1.0),
    ]
    .into_iter()
    .collect();
    assert_eq!(family(&text, CALLS), expected, "{text}");

    let histogram = "obsidian_tc_tool_call_duration_seconds";
    for (class, count) in [("read", 7.0), ("none", 1.0), ("delete", 2.0)] {
        let counted = format!("{histogram}_count{{class=\"{class}\"}}");
        assert_eq!(sample(&text, &counted), Some(count), "{counted}");
        let all = format!("{histogram}_bucket{{class=\"{class}\",le=\"+Inf\"}}");
        assert_eq!(sample(&text, &all), Some(count), "{all}");
    }
    let trips = series(
        "obsidian_tc_throttle_trips_total",
        &[("class", "read"), ("vault", "main")],
    );
    assert_eq!(
        family(&text, "obsidian_tc_throttle_trips_total"),
        [(trips, 2.0)].into_iter().collect()
    );
    for result in ["required", "approved"] {
        let waits = format!("obsidian_tc_hitl_wait_seconds_count{{result=\"{result}\"}}");
        assert_eq!(sample(&text, &waits), Some(1.0), "{waits}");
    }
    assert_eq!(
        sample(&text, "obsidian_tc_bookkeeping_faults_total"),
        Some(0.0)
    );
    assert_eq!(sample(&text, "obsidian_tc_http_sessions_open"), Some(1.0));
    assert!(sample(&text, "process_resident_memory_bytes").is_some_and(|rss| rss > 1e6));
    assert!(sample(&text, "process_open_fds").is_some_and(|fds| fds > 0.0));
    promtool_check(&text);

    // get_metrics reads the same counters (its own call is counted after it answers)
    let metrics = call(&client, "get_metrics", json!({})).await;
    let mut listed: Vec<(String, String, String, u64)> = structured(&metrics)["calls"]
        .as_array()
        .expect("calls")
        .iter()
        .map(|row| {
            let text = |key: &str| row[key].as_str().expect("a string").to_owned();
            (
                text("vault"),
                text("tool"),
                text("code"),
                row["count"].as_u64().unwrap(),
            )
        })
        .collect();
    listed.sort();
    let mut wanted: Vec<(String, String, String, u64)> = [
        ("", "(unregistered)", "not_found", 1),
        ("", "read_note", "validation_error", 1),
        ("main", "delete_note", "elicit_required", 1),
        ("main", "delete_note", "ok", 1),
        ("main", "read_note", "not_found", 1),
        ("main", "read_note", "ok", 1),
        ("main", "server_health", "ok", 2),
        ("main", "server_health", "throttled", 2),
    ]
    .into_iter()
    .map(|(v, t, c, n)| (v.to_owned(), t.to_owned(), c.to_owned(), n))
    .collect();
    wanted.sort();
    assert_eq!(listed, wanted);
    let text = scrape_text(&server).await;
    assert_eq!(
        sample(&text, &calls("main", "get_metrics", "admin", "ok")),
        Some(1.0)
    );

    // `obsidian-tc metrics --url` prints the same counters
    let base = server.url().replace("/mcp", "");
    let out = run(&["metrics", "--url", &base, "--token", TOKEN]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let printed = String::from_utf8(out.stdout).expect("utf-8");
    assert_eq!(family(&printed, CALLS), family(&text, CALLS));
    let out = run(&["metrics", "--url", &base]);
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("wants a bearer token"), "{said}");
    client.cancel().await.expect("close the session");
}

#[tokio::test(flavor = "multi_thread")]
async fn the_index_gauges_follow_the_vault() {
    let vault = vault();
    let (server, _config) = start(vault.path(), 100, json!({}));
    let notes = series("obsidian_tc_index_notes", &[("vault", "main")]);
    let deadline = Instant::now() + Duration::from_secs(20);
    let text = loop {
        let text = scrape_text(&server).await;
        let scanned = series(
            "obsidian_tc_index_last_scan_timestamp_seconds",
            &[("vault", "main")],
        );
        if sample(&text, &scanned).is_some() {
            break text;
        }
        assert!(
            Instant::now() < deadline,
            "the start-up scan did not finish: {text}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(sample(&text, &notes), Some(2.0), "{text}");
    let chunks = series("obsidian_tc_index_chunks", &[("vault", "main")]);
    assert!(
        sample(&text, &chunks).is_some_and(|chunks| chunks >= 2.0),
        "{text}"
    );
    let queued = series("obsidian_tc_index_queued_paths", &[("vault", "main")]);
    assert_eq!(sample(&text, &queued), Some(0.0));
    assert_eq!(
        sample(
            &text,
            &series("obsidian_tc_index_scanning", &[("vault", "main")])
        ),
        Some(0.0)
    );
    assert_eq!(sample(&text, "obsidian_tc_http_sessions_open"), Some(0.0));

    // a note written through MCP is in the next scrape
    let client = client(&server).await;
    let written = call(
        &client,
        "write_note",
        json!({"path": "new.md", "content": "# New\n"}),
    )
    .await;
    assert_eq!(code(&written), "ok");
    let text = scrape_text(&server).await;
    assert_eq!(sample(&text, &notes), Some(3.0), "{text}");
    promtool_check(&text);
    client.cancel().await.expect("close the session");
}

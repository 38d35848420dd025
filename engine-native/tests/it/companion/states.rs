//! The bridge tools against a fake TC Bridge in each state: reachable (routes answer, with
//! plugins behind it usable, disabled or absent), unreachable (nothing listening, or answers
//! after the timeout), missing (not the Companion API), incompatible (API "2"), and no
//! companion configured. Each bridge tool answers the documented code; read_note is unaffected.

use std::time::{Duration, Instant};

use obsidian_tc::auth::Caller;
use obsidian_tc::dispatch::CallOutcome;
use obsidian_tc::errors::{ErrorCode, ToolError};
use serde_json::{Value, json};

use crate::support::companion::{DRAWN, FakeCompanion, Mode, closed_url, companion_config};
use crate::support::dispatch::Fixture;

/// An uncompressed Excalidraw drawing note.
const DRAWING: &str = "---\nexcalidraw-plugin: parsed\n---\n# Excalidraw Data\n## Text Elements\nHello ^a1\n\n%%\n## Drawing\n```json\n{\"type\":\"excalidraw\",\"elements\":[{\"id\":\"a1\",\"type\":\"text\",\"text\":\"Hello\"},{\"id\":\"b2\",\"type\":\"rectangle\"},{\"id\":\"c3\",\"type\":\"text\",\"text\":\"gone\",\"isDeleted\":true}]}\n```\n%%\n";

/// The same scene stored compressed (lz-string's compressToBase64, split in lines).
const COMPRESSED_DRAWING: &str = "---\nexcalidraw-plugin: parsed\n---\n%%\n## Drawing\n```compressed-json\nN4IgLgngDgpiBcIYA8DGBDANgSwCYCd0B3EAGhADcZ8BnbAewDsEAmcmTGAWxkbBoQBtUHgQh0ARjLh\nocRGBRhpC5EsQAJDpnoACAJc7AyOQ7ALBuA8XZABfUiNxiARi2Wyx+GKjDpGAc05WbIKKIks6wYipK5BFimpja+kY66N7o2MyWALqWQA=\n```\n%%\n";

/// Every bridge tool with arguments it accepts, and the route it calls.
fn bridge_calls() -> Vec<(&'static str, Value, &'static str)> {
    vec![
        ("list_commands", json!({"query": "bold"}), "/commands/list"),
        (
            "execute_command",
            json!({"id": "editor:toggle-bold"}),
            "/commands/execute",
        ),
        (
            "search_dql",
            json!({"query": "LIST FROM \"Projects\""}),
            "/dataview/dql",
        ),
        (
            "validate_dql",
            json!({"query": "LIST"}),
            "/dataview/validate",
        ),
        (
            "eval_dataview_field",
            json!({"path": "Projects/a.md", "expression": "file.name"}),
            "/dataview/eval",
        ),
        (
            "tasks_filter",
            json!({"status": "open", "limit": 5}),
            "/tasks/filter",
        ),
        ("list_templates", json!({}), "/templater/list"),
        (
            "execute_template",
            json!({"template": "Templates/t.md", "target": "New.md"}),
            "/templater/execute",
        ),
        ("list_quickadd_actions", json!({}), "/quickadd/actions"),
        (
            "trigger_quickadd",
            json!({"name": "Capture"}),
            "/quickadd/trigger",
        ),
        (
            "ocr_attachment",
            json!({"path": "img.png"}),
            "/ocr/attachment",
        ),
        ("ocr_bulk", json!({"folder": "Attachments"}), "/ocr/bulk"),
        (
            "read_excalidraw",
            json!({"path": "Drawings/d.excalidraw.md"}),
            "/excalidraw/read",
        ),
        (
            "create_excalidraw",
            json!({"path": "Drawings/new.excalidraw.md"}),
            "/excalidraw/write",
        ),
        (
            "update_excalidraw",
            json!({"path": "Drawings/d.excalidraw.md", "remove": ["b2"]}),
            "/excalidraw/write",
        ),
        ("makemd_list_spaces", json!({}), "/makemd/spaces"),
        (
            "makemd_query",
            json!({"space": "Projects"}),
            "/makemd/query",
        ),
        (
            "search_omnisearch",
            json!({"query": "plan"}),
            "/omnisearch/search",
        ),
        (
            "resolve_daily_note",
            json!({"date": "2026-01-01"}),
            "/daily-notes/resolve",
        ),
        ("get_active_note", json!({}), "/notes/active"),
        ("open_note", json!({"path": "Projects/a.md"}), "/notes/open"),
        ("remotely_save_status", json!({}), "/remotely-save/status"),
        ("remotely_save_trigger", json!({}), "/remotely-save/trigger"),
        (
            "query_datacore",
            json!({"query": "@page and #plan"}),
            "/datacore/query",
        ),
        (
            "read_metadata_fields",
            json!({"path": "Projects/a.md"}),
            "/metadata-menu/fields",
        ),
    ]
}

/// A fixture whose vault `main` uses `companion`; `other` has none.
fn fixture(companion: Value) -> Fixture {
    let fx = Fixture::new(json!({
        "vaults": [
            {"id": "main", "path": "main", "companion": companion},
            {"id": "other", "path": "other"}
        ]
    }));
    for vault in ["main", "other"] {
        fx.write(vault, "Projects/a.md", "# A\n");
        fx.write(vault, "Drawings/d.excalidraw.md", DRAWING);
    }
    fx
}

/// Calls `tool`; a call held at the HITL gate is approved in the store (as a human would with
/// `obsidian-tc elicit approve`) and repeated, so the tool's own answer shows.
/// Each call comes a minute after the last, so the rate limits of the execute and admin
/// classes (burst 1) let it through.
fn call_through_gate(fx: &Fixture, tool: &str, args: Value) -> CallOutcome {
    let first = call(fx, tool, args.clone());
    match &first.result {
        Err(error) if error.code == ErrorCode::ElicitRequired => {
            fx.approve_error(error);
            call(fx, tool, args)
        }
        _ => first,
    }
}

/// Calls `tool` as the stdio caller a minute after the previous call.
fn call(fx: &Fixture, tool: &str, args: Value) -> CallOutcome {
    fx.clock.advance(60_000);
    fx.call(&Caller::stdio(), tool, args)
}

fn ok(fx: &Fixture, tool: &str, args: Value) -> Value {
    call(fx, tool, args)
        .result
        .unwrap_or_else(|error| panic!("{tool}: {error}"))
}

fn expect_error(fx: &Fixture, tool: &str, args: Value, code: ErrorCode) -> ToolError {
    match call_through_gate(fx, tool, args).result {
        Ok(value) => panic!("{tool} succeeded with {value}, expected {code}"),
        Err(error) => {
            assert_eq!(error.code, code, "{tool}: {error}");
            error
        }
    }
}

/// read_note works whatever the companion does.
fn read_note_unaffected(fx: &Fixture) {
    for vault in ["main", "other"] {
        let started = Instant::now();
        let note = fx.ok(
            "read_note",
            json!({"vault": vault, "path": "Projects/a.md"}),
        );
        assert_eq!(note["content"], "# A\n", "{note}");
        assert!(
            started.elapsed() < Duration::from_millis(400),
            "read_note waited"
        );
    }
}

/// In `main`, `read_excalidraw` falls back to the file; every other bridge tool answers `code`.
fn every_tool_answers(fx: &Fixture, code: ErrorCode) -> Vec<ToolError> {
    let mut errors = Vec::new();
    for (tool, args, _) in bridge_calls() {
        if tool == "read_excalidraw" {
            let drawing = call_through_gate(fx, tool, args)
                .result
                .expect("read_excalidraw");
            assert_eq!(drawing["source"], "filesystem");
            assert_eq!(drawing["texts"], json!(["Hello"]));
            continue;
        }
        errors.push(expect_error(fx, tool, args, code));
    }
    errors
}

#[test]
fn reachable_companion_serves_every_route_and_names_absent_plugins() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(companion.config());
    for (tool, args, route) in bridge_calls() {
        let outcome = call_through_gate(&fx, tool, args.clone());
        match tool {
            "list_templates" | "execute_template" => {
                let error = outcome.result.expect_err(tool);
                assert_eq!(error.code, ErrorCode::PluginMissing, "{tool}: {error}");
                assert_eq!(error.details["plugin"], "templater-obsidian");
                assert!(error.recovery.contains("Templater"), "{}", error.recovery);
            }
            "list_quickadd_actions" | "trigger_quickadd" => {
                let error = outcome.result.expect_err(tool);
                assert_eq!(error.code, ErrorCode::PluginMissing, "{tool}: {error}");
                assert_eq!(error.details["plugin"], "quickadd");
            }
            "remotely_save_status"
            | "remotely_save_trigger"
            | "query_datacore"
            | "read_metadata_fields" => {
                // typed answers (tools::obsidian::answers checks them): the route got the args
                let result = outcome.result.unwrap_or_else(|e| panic!("{tool}: {e}"));
                let path = format!("/obsidian-tc/v1{route}");
                assert_eq!(companion.requests_to(&path), [args], "{tool}: {result}");
            }
            "resolve_daily_note" => {
                // TC Bridge's own plugin_missing (a core plugin it checks itself), passed through
                let error = outcome.result.expect_err(tool);
                assert_eq!(error.code, ErrorCode::PluginMissing, "{tool}: {error}");
                assert_eq!(error.details["plugin"], "daily-notes");
                assert_eq!(error.details["companion_code"], "plugin_missing");
            }
            _ => {
                let result = outcome.result.unwrap_or_else(|e| panic!("{tool}: {e}"));
                if tool == "read_excalidraw" {
                    assert_eq!(result["source"], "obsidian");
                }
                let path = format!("/obsidian-tc/v1{route}");
                assert_eq!(result["route"], path.as_str(), "{tool}");
                let mut sent = args.clone();
                match tool {
                    "create_excalidraw" => sent["mode"] = json!("create"),
                    "update_excalidraw" => sent["mode"] = json!("update"),
                    _ => {}
                }
                assert_eq!(
                    result["args"], sent,
                    "{tool} sends its arguments as they are"
                );
            }
        }
    }
    // plugins usable only when installed and enabled: nothing reached a disabled Templater
    assert!(
        companion
            .requests_to("/obsidian-tc/v1/templater/list")
            .is_empty()
    );
    assert!(
        companion
            .requests_to("/obsidian-tc/v1/quickadd/actions")
            .is_empty()
    );
    // TC Bridge's own errors keep their meaning
    let error = fx.err(
        "search_dql",
        json!({"query": "BROKEN"}),
        ErrorCode::InvalidInput,
    );
    assert_eq!(error.details["companion_code"], "dql_error");
    assert_eq!(error.details["line"], 1);
    read_note_unaffected(&fx);
}

#[test]
fn the_path_arguments_of_bridge_tools_pass_the_folder_acl() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = Fixture::new(json!({
        "vaults": [
            {"id": "main", "path": "main", "companion": companion.config(),
             "acl": {"readPaths": ["Projects/**"], "writePaths": ["Projects/**"]}},
            {"id": "other", "path": "other"}
        ]
    }));
    for (tool, args) in [
        ("open_note", json!({"path": "Private/secret.md"})),
        (
            "eval_dataview_field",
            json!({"path": "Private/secret.md", "expression": "file.name"}),
        ),
        (
            "read_excalidraw",
            json!({"path": "Private/d.excalidraw.md", "source": "filesystem"}),
        ),
    ] {
        fx.err(tool, args, ErrorCode::AclDenied);
    }
    let routes: Vec<String> = companion
        .requests()
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    assert!(
        routes.iter().all(|path| path == "/obsidian-tc/v1/probe"),
        "a denied call reached TC Bridge: {routes:?}"
    );
}

#[test]
fn nothing_listening_is_plugin_unreachable_and_retryable() {
    let fx = fixture(companion_config(&closed_url()));
    for error in every_tool_answers(&fx, ErrorCode::PluginUnreachable) {
        assert!(error.retryable, "{error}");
        assert_eq!(error.details["plugin"], "tc-bridge");
    }
    read_note_unaffected(&fx);
}

#[test]
fn a_companion_answering_after_the_timeout_is_plugin_unreachable() {
    let companion = FakeCompanion::start(Mode::Sleeping(Duration::from_secs(3)));
    let fx = fixture(companion.config());
    for tool in ["list_commands", "search_dql", "get_active_note"] {
        let (_, args, _) = bridge_calls()
            .into_iter()
            .find(|(name, ..)| *name == tool)
            .expect("tool");
        let started = Instant::now();
        let error = expect_error(&fx, tool, args, ErrorCode::PluginUnreachable);
        assert!(error.retryable);
        assert!(
            started.elapsed() < Duration::from_millis(2500),
            "{tool} waited too long"
        );
    }
    let drawing = fx.ok(
        "read_excalidraw",
        json!({"path": "Drawings/d.excalidraw.md"}),
    );
    assert_eq!(drawing["source"], "filesystem");
    read_note_unaffected(&fx);
}

#[test]
fn something_that_is_not_tc_bridge_is_plugin_missing_with_the_install_hint() {
    let companion = FakeCompanion::start(Mode::Missing);
    let fx = fixture(companion.config());
    let root = fx.vault_dir("main");
    for error in every_tool_answers(&fx, ErrorCode::PluginMissing) {
        assert_eq!(error.details["plugin"], "tc-bridge");
        let install = format!("obsidian-tc plugin install --vault {}", root.display());
        assert_eq!(error.details["install"], install.as_str());
        assert!(error.recovery.contains(&install), "{}", error.recovery);
    }
    read_note_unaffected(&fx);
}

#[test]
fn another_api_major_is_plugin_incompatible_with_an_update_hint() {
    let companion = FakeCompanion::start(Mode::Incompatible);
    let fx = fixture(companion.config());
    for error in every_tool_answers(&fx, ErrorCode::PluginIncompatible) {
        assert_eq!(error.details["reported"], "2");
        assert_eq!(error.details["expected"], "1");
        assert!(
            error.recovery.contains("update TC Bridge"),
            "{}",
            error.recovery
        );
        assert!(!error.retryable);
    }
    // no route was called, only the probe
    let routes: Vec<String> = companion
        .requests()
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    assert!(
        routes.iter().all(|path| path == "/obsidian-tc/v1/probe"),
        "{routes:?}"
    );
    read_note_unaffected(&fx);
}

#[test]
fn a_vault_without_companion_is_plugin_missing_and_reads_drawings_from_disk() {
    let fx = fixture(companion_config(&closed_url()));
    let root = fx.vault_dir("other");
    for (tool, mut args, _) in bridge_calls() {
        args["vault"] = json!("other");
        if tool == "read_excalidraw" {
            let drawing = call_through_gate(&fx, tool, args).result.expect("read");
            assert_eq!(drawing["source"], "filesystem");
            assert_eq!(drawing["path"], "Drawings/d.excalidraw.md");
            let ids: Vec<&str> = drawing["elements"]
                .as_array()
                .expect("elements")
                .iter()
                .map(|e| e["id"].as_str().expect("id"))
                .collect();
            assert_eq!(ids, ["a1", "b2"], "deleted elements are left out");
            continue;
        }
        let error = expect_error(&fx, tool, args, ErrorCode::PluginMissing);
        assert_eq!(error.details["plugin"], "tc-bridge");
        let install = format!("obsidian-tc plugin install --vault {}", root.display());
        assert_eq!(error.details["install"], install.as_str());
    }
    fx.write("other", "Drawings/z.excalidraw.md", COMPRESSED_DRAWING);
    let drawing = fx.ok(
        "read_excalidraw",
        json!({"vault": "other", "path": "Drawings/z.excalidraw.md"}),
    );
    assert_eq!(drawing["texts"], json!(["Hello é ✓ 𝄞", "Hello é ✓ again"]));
    fx.write("other", "Notes/plain.md", "# not a drawing\n");
    fx.err(
        "read_excalidraw",
        json!({"vault": "other", "path": "Notes/plain.md"}),
        ErrorCode::InvalidInput,
    );
}

#[test]
fn refresh_reports_the_snapshot_and_picks_up_a_companion_that_came_up() {
    let companion = FakeCompanion::start(Mode::Missing);
    let fx = fixture(companion.config());
    let report = ok(&fx, "refresh_plugin_capabilities", json!({}));
    assert_eq!(report["status"], "missing", "{report}");
    fx.err("list_commands", json!({}), ErrorCode::PluginMissing);

    companion.set_mode(Mode::Reachable);
    // a missing companion stays missing until someone asks to look again
    fx.err("list_commands", json!({}), ErrorCode::PluginMissing);
    let report = ok(&fx, "refresh_plugin_capabilities", json!({}));
    assert_eq!(report["status"], "reachable", "{report}");
    assert_eq!(report["plugin_version"], "1.0.0");
    assert_eq!(report["api_version"], "1");
    let plugins = &report["plugins"];
    assert_eq!(
        plugins["dataview"],
        json!({"installed": true, "enabled": true, "usable": true, "version": "0.5.67"})
    );
    assert_eq!(plugins["templater"]["usable"], false);
    assert_eq!(plugins["templater"]["enabled"], false);
    assert_eq!(
        plugins["tasks"]["usable"], true,
        "an absent `enabled` means enabled"
    );
    assert_eq!(
        plugins["quickadd"],
        json!({"installed": false, "enabled": false, "usable": false})
    );
    fx.ok("list_commands", json!({}));

    let other = ok(
        &fx,
        "refresh_plugin_capabilities",
        json!({"vault": "other"}),
    );
    assert_eq!(other["status"], "not_configured");
}

#[test]
fn starting_does_not_wait_for_the_probe() {
    let companion = FakeCompanion::start(Mode::Sleeping(Duration::from_secs(3)));
    let mut config = companion.config();
    config["probeTimeoutMs"] = json!(5000);
    let started = Instant::now();
    let fx = fixture(config);
    assert!(
        started.elapsed() < Duration::from_millis(1500),
        "start-up waited for the probe: {:?}",
        started.elapsed()
    );
    // the start-up probe did go out
    let deadline = Instant::now() + Duration::from_secs(2);
    while companion.requests_to("/obsidian-tc/v1/probe").is_empty() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!companion.requests_to("/obsidian-tc/v1/probe").is_empty());
    read_note_unaffected(&fx);
}

#[test]
fn what_obsidian_writes_for_a_bridge_tool_is_snapshotted_and_undone() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(companion.config());
    companion.write_into(fx.vault_dir("main"));
    let drawing = "Drawings/d.excalidraw.md";
    let original = std::fs::read(fx.vault_dir("main").join(drawing)).expect("drawing");

    // Obsidian creates a new drawing, then changes the existing one.
    call_through_gate(
        &fx,
        "create_excalidraw",
        json!({"path": "Drawings/new.excalidraw.md"}),
    )
    .result
    .expect("create_excalidraw");
    call_through_gate(&fx, "update_excalidraw", json!({"path": drawing}))
        .result
        .expect("update_excalidraw");
    assert_eq!(
        std::fs::read_to_string(fx.vault_dir("main").join(drawing)).expect("drawing"),
        format!("{DRAWN}update")
    );
    let snapshots = ok(&fx, "list_snapshots", json!({}));
    let kept: Vec<(&str, &str, bool)> = snapshots["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|c| {
            (
                c["tool"].as_str().expect("tool"),
                c["path"].as_str().expect("path"),
                c["existed"].as_bool().expect("existed"),
            )
        })
        .collect();
    assert_eq!(
        kept,
        [
            ("update_excalidraw", drawing, true),
            ("create_excalidraw", "Drawings/new.excalidraw.md", false)
        ],
        "{snapshots}"
    );

    // Undo takes back Obsidian's changes, newest first, byte for byte.
    ok(&fx, "undo_last_change", json!({}));
    assert_eq!(
        std::fs::read(fx.vault_dir("main").join(drawing)).expect("drawing"),
        original
    );
    ok(&fx, "undo_last_change", json!({}));
    assert!(!fx.exists("main", "Drawings/new.excalidraw.md"));
}

#[test]
fn a_server_write_waits_while_obsidian_writes_the_same_note_for_a_bridge_tool() {
    let companion = FakeCompanion::start(Mode::Reachable);
    let fx = fixture(companion.config());
    companion.write_into(fx.vault_dir("main"));
    let drawing = "Drawings/d.excalidraw.md";
    // Obsidian takes 300 ms to write the drawing; the server's append arrives meanwhile.
    companion.set_mode(Mode::Sleeping(Duration::from_millis(300)));
    std::thread::scope(|scope| {
        let bridge =
            scope.spawn(|| call_through_gate(&fx, "update_excalidraw", json!({"path": drawing})));
        let deadline = Instant::now() + Duration::from_secs(5);
        while companion
            .requests_to("/obsidian-tc/v1/excalidraw/write")
            .is_empty()
            && Instant::now() < deadline
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        let appended = call(
            &fx,
            "append_note",
            json!({"path": drawing, "content": "server line"}),
        );
        appended
            .result
            .expect("append_note waits its turn instead of failing");
        bridge
            .join()
            .expect("bridge thread")
            .result
            .expect("update_excalidraw");
    });
    // The append came after Obsidian's write, so neither is lost.
    let text = std::fs::read_to_string(fx.vault_dir("main").join(drawing)).expect("drawing");
    assert!(text.starts_with(&format!("{DRAWN}update")), "{text}");
    assert!(text.contains("server line"), "{text}");
}

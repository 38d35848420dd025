//! The server against the Companion API contract (`contract/companion-api.json`), the file
//! TC Bridge imports too, read here on its own: every TC Bridge error code becomes the server
//! code the contract names (and no other code is mapped), the generated constants are the
//! file's, every Obsidian tool has a route in it, and each server tool calls its route (with its
//! `mode`), after checking in the probe the plugin the route needs. tests/plugin/contract.test.mjs
//! checks the plugin's side.

use std::collections::{BTreeMap, BTreeSet};

use obsidian_tc::auth::Caller;
use obsidian_tc::companion::contract::{self as generated, Method, Timeout};
use obsidian_tc::companion::errors::from_companion;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::tools::all_tools;
use obsidian_tc::tools::obsidian::OBSIDIAN_DOMAIN;
use serde_json::{Map, Value, json};

use crate::support::companion::{FakeCompanion, Mode, contract};
use crate::support::dispatch::Fixture;

/// The tools of the Obsidian domain that call no route (they only probe).
const PROBE_ONLY: &[&str] = &["refresh_plugin_capabilities"];

/// Arguments each server tool of the contract accepts (a tool the contract adds needs a line).
fn args_of(tool: &str) -> Value {
    match tool {
        "list_commands" => json!({"query": "bold"}),
        "execute_command" => json!({"id": "editor:toggle-bold"}),
        "search_dql" | "validate_dql" => json!({"query": "LIST"}),
        "eval_dataview_field" => json!({"path": "Projects/a.md", "expression": "file.name"}),
        "tasks_filter" => json!({"status": "open"}),
        "execute_template" => json!({"template": "Templates/t.md", "target": "New.md"}),
        "trigger_quickadd" => json!({"name": "Capture"}),
        "ocr_attachment" => json!({"path": "img.png"}),
        "ocr_bulk" => json!({"folder": "Attachments"}),
        "read_excalidraw" => json!({"path": "Drawings/d.excalidraw.md"}),
        "create_excalidraw" => json!({"path": "Drawings/new.excalidraw.md"}),
        "update_excalidraw" => json!({"path": "Drawings/d.excalidraw.md", "remove": ["b2"]}),
        "makemd_query" => json!({"space": "Projects"}),
        "search_omnisearch" => json!({"query": "plan"}),
        "query_datacore" => json!({"query": "@page and #plan"}),
        "read_metadata_fields" => json!({"path": "Projects/a.md"}),
        "resolve_daily_note" => json!({"date": "2026-01-01"}),
        "open_note" => json!({"path": "Projects/a.md"}),
        "open_workspace" => json!({"name": "Research"}),
        "list_templates"
        | "list_quickadd_actions"
        | "makemd_list_spaces"
        | "get_active_note"
        | "remotely_save_status"
        | "remotely_save_trigger" => json!({}),
        other => panic!(
            "the contract names the server tool {other}, which this test has no arguments for \
             (or the server has no such tool): add it to args_of"
        ),
    }
}

/// One server tool's route as the file says.
#[derive(Debug)]
struct Route {
    path: String,
    mode: Option<String>,
    needs: Option<String>,
    timeout: String,
    method: String,
}

/// The file's routes by tool, with whether a server tool calls each.
fn routes_by_tool(contract: &Value) -> BTreeMap<String, (Route, bool)> {
    let mut by_tool = BTreeMap::new();
    for route in contract["routes"].as_array().expect("routes") {
        let fact = |mode: Option<&str>| Route {
            path: route["path"].as_str().expect("path").to_owned(),
            mode: mode.map(str::to_owned),
            needs: route["needs"].as_str().map(str::to_owned),
            timeout: route["timeout"].as_str().expect("timeout").to_owned(),
            method: route["method"].as_str().expect("method").to_owned(),
        };
        let by_server = route["called_by_server"].as_bool().unwrap_or(true);
        match &route["tool"] {
            Value::String(tool) => {
                by_tool.insert(tool.clone(), (fact(None), by_server));
            }
            Value::Object(choice) => {
                for (mode, tool) in choice["tools"].as_object().expect("tools") {
                    let tool = tool.as_str().expect("tool").to_owned();
                    by_tool.insert(tool, (fact(Some(mode)), by_server));
                }
            }
            other => panic!("route tool {other}"),
        }
    }
    by_tool
}

/// The error codes of the file (`error_codes` and `admission_codes`) with the code each becomes.
fn mapped_codes(contract: &Value) -> BTreeMap<String, ErrorCode> {
    let mut codes = BTreeMap::new();
    for table in ["error_codes", "admission_codes"] {
        for (code, mapped) in contract[table].as_object().expect("codes") {
            let mapped: ErrorCode = serde_json::from_value(mapped.clone()).unwrap_or_else(|_| {
                panic!("{table}.{code}: {mapped} is not a server ErrorCode (errors::ErrorCode)")
            });
            assert!(codes.insert(code.clone(), mapped).is_none(), "{code} twice");
        }
    }
    codes
}

#[test]
fn every_companion_error_code_becomes_the_code_the_contract_names() {
    let codes = mapped_codes(&contract());
    for (code, expected) in &codes {
        let error = from_companion(code, "it failed", Some(json!({"plugin": "x"})));
        assert_eq!(
            error.code, *expected,
            "TC Bridge's {code} becomes {} on the server, the contract says {}",
            error.code, expected
        );
        assert_eq!(error.details["companion_code"], code.as_str());
        assert_eq!(error.details["plugin"], "x");
    }
    // what the contract does not list is `internal`: the server maps no code of its own
    let unlisted = ErrorCode::ALL
        .iter()
        .map(|code| code.as_str().to_owned())
        .chain(
            [
                "timeout",
                "rate_limited",
                "conflict",
                "busy",
                "plugin_failed",
            ]
            .map(String::from),
        )
        .filter(|code| !codes.contains_key(code));
    for code in unlisted {
        let error = from_companion(&code, "it failed", None);
        assert_eq!(
            error.code,
            ErrorCode::Internal,
            "the server maps TC Bridge's {code}, which the contract does not list"
        );
    }
    // the generated table is the file's
    let generated: BTreeMap<String, ErrorCode> = generated::ERROR_CODES
        .iter()
        .chain(generated::ADMISSION_CODES)
        .map(|(code, mapped)| ((*code).to_owned(), *mapped))
        .collect();
    assert_eq!(generated, codes);
}

#[test]
fn the_generated_constants_are_the_files() {
    let contract = contract();
    assert_eq!(generated::PREFIX, contract["prefix"]);
    assert_eq!(generated::API_VERSION, contract["api_version"]);
    assert_eq!(
        obsidian_tc::companion::COMPANION_API_VERSION,
        contract["api_version"]
    );
    for (endpoint, name) in [(generated::PROBE, "probe"), (generated::CONFIRM, "confirm")] {
        let file = &contract["endpoints"][name];
        assert_eq!(endpoint.path, file["path"], "{name}");
        assert_eq!(endpoint.method.as_str(), file["method"], "{name}");
    }
    let routes = routes_by_tool(&contract);
    let generated_tools: BTreeSet<&str> = generated::TOOL_ROUTES.iter().map(|r| r.tool).collect();
    let file_tools: BTreeSet<&str> = routes.keys().map(String::as_str).collect();
    assert_eq!(generated_tools, file_tools);
    for route in generated::TOOL_ROUTES {
        let (file, by_server) = &routes[route.tool];
        assert_eq!(route.path, file.path, "{}", route.tool);
        assert_eq!(route.mode, file.mode.as_deref(), "{}", route.tool);
        assert_eq!(route.method.as_str(), file.method, "{}", route.tool);
        assert_eq!(route.called_by_server, *by_server, "{}", route.tool);
        let timeout = match route.timeout {
            Timeout::Call => "call",
            Timeout::Slow => "slow",
            Timeout::Probe => "probe",
            Timeout::Confirm => "confirm",
        };
        assert_eq!(timeout, file.timeout, "{}", route.tool);
        let needs = route.needs.map(|needs| {
            let plugin = &contract["plugins"][needs.capability];
            assert_eq!(needs.plugin_id, plugin["id"], "{}", route.tool);
            assert_eq!(needs.name, plugin["name"], "{}", route.tool);
            needs.capability.to_owned()
        });
        assert_eq!(needs, file.needs, "{}", route.tool);
    }
    assert!(
        generated::TOOL_ROUTES
            .iter()
            .all(|r| r.method == Method::Get || r.method == Method::Post)
    );
}

#[test]
fn every_obsidian_tool_has_a_route_and_every_route_the_server_calls_a_tool() {
    let routes = routes_by_tool(&contract());
    let server: BTreeSet<&str> = all_tools().iter().map(|tool| tool.name).collect();
    for tool in all_tools() {
        if tool.domain == OBSIDIAN_DOMAIN && !PROBE_ONLY.contains(&tool.name) {
            assert!(
                routes.contains_key(tool.name),
                "the Obsidian tool {} has no route in contract/companion-api.json",
                tool.name
            );
        }
    }
    for (tool, (route, by_server)) in &routes {
        assert!(
            !by_server || server.contains(tool.as_str()),
            "contract route {} names the tool {tool}, which the server does not have (say \
             called_by_server: false for a route only TC Bridge's own clients call)",
            route.path
        );
    }
}

/// An uncompressed Excalidraw drawing note.
const DRAWING: &str = "---\nexcalidraw-plugin: parsed\n---\n%%\n## Drawing\n```json\n{\"type\":\"excalidraw\",\"elements\":[{\"id\":\"b2\",\"type\":\"rectangle\"}]}\n```\n%%\n";

/// A fixture whose vault `main` uses `companion`, with the notes and files the calls name.
fn fixture(companion: &FakeCompanion) -> Fixture {
    let fx = Fixture::new(json!({
        "vaults": [{"id": "main", "path": "main", "companion": companion.config()}]
    }));
    fx.write("main", "Projects/a.md", "# A\n");
    fx.write("main", "Drawings/d.excalidraw.md", DRAWING);
    fx.write(
        "main",
        ".obsidian/workspaces.json",
        r#"{"workspaces": {"Research": {"main": {}}}, "active": ""}"#,
    );
    fx
}

/// The probe's result with every plugin of the contract `installed` (and enabled).
fn probe_with_plugins(contract: &Value, installed: bool) -> Value {
    let capabilities: Map<String, Value> = contract["plugins"]
        .as_object()
        .expect("plugins")
        .keys()
        .map(|key| {
            (
                key.clone(),
                json!({"installed": installed, "enabled": installed}),
            )
        })
        .collect();
    json!({
        "plugin_version": "1.0.0",
        "obsidian_version": "1.8.9",
        "obsidianTcApiVersion": contract["api_version"],
        "vault_path": "main",
        "capabilities": capabilities,
        "shape_ok": true,
        "shape_warnings": []
    })
}

/// Calls `tool` as the stdio caller, approving it once at the HITL gate when it is held there
/// (each call a minute after the last, for the rate limits).
fn call(fx: &Fixture, tool: &str, args: Value) -> Result<Value, obsidian_tc::errors::ToolError> {
    fx.clock.advance(60_000);
    let first = fx.call(&Caller::stdio(), tool, args.clone()).result;
    match first {
        Err(error) if error.code == ErrorCode::ElicitRequired => {
            fx.approve_error(&error);
            fx.clock.advance(60_000);
            fx.call(&Caller::stdio(), tool, args).result
        }
        other => other,
    }
}

#[test]
fn each_server_tool_calls_its_contract_route_after_checking_the_plugin_it_needs() {
    let contract = contract();
    let prefix = contract["prefix"].as_str().expect("prefix");
    let routes: Vec<(String, Route)> = routes_by_tool(&contract)
        .into_iter()
        .filter(|(_, (_, by_server))| *by_server)
        .map(|(tool, (route, _))| (tool, route))
        .collect();

    // every plugin there: each tool sends its arguments to its route, once
    let companion = FakeCompanion::start(Mode::Reachable);
    companion.report(probe_with_plugins(&contract, true));
    let fx = fixture(&companion);
    for (tool, route) in &routes {
        let before = companion.requests().len();
        // an answer, or TC Bridge's own error (the fake's daily notes are off)
        let answer = match call(&fx, tool, args_of(tool)) {
            Ok(answer) => answer,
            Err(error) if error.details.get("companion_code").is_some() => Value::Null,
            Err(error) => panic!("{tool} through the contract's {}: {error}", route.path),
        };
        let sent: Vec<(String, Value)> = companion.requests()[before..]
            .iter()
            .filter(|(path, _)| !path.ends_with("/probe") && !path.ends_with("/confirm"))
            .cloned()
            .collect();
        let full = format!("{prefix}{}", route.path);
        assert_eq!(sent.len(), 1, "{tool} sent {sent:?}");
        assert_eq!(
            sent[0].0, full,
            "{tool} called another route than the contract's"
        );
        assert_eq!(
            sent[0].1.get("mode").and_then(Value::as_str),
            route.mode.as_deref(),
            "{tool}'s mode"
        );
        if answer.get("route").is_some() {
            assert_eq!(answer["route"], full.as_str(), "{tool}: {answer}");
        }
    }

    // no plugin there: a tool whose route needs one answers plugin_missing naming it and sends
    // nothing (read_excalidraw reads the file instead); the others still call their route
    let absent = FakeCompanion::start(Mode::Reachable);
    absent.report(probe_with_plugins(&contract, false));
    let fx = fixture(&absent);
    for (tool, route) in &routes {
        let before = absent.requests().len();
        let outcome = call(&fx, tool, args_of(tool));
        let sent: Vec<String> = absent.requests()[before..]
            .iter()
            .map(|(path, _)| path.clone())
            .filter(|path| !path.ends_with("/probe") && !path.ends_with("/confirm"))
            .collect();
        let Some(needs) = route.needs.as_deref() else {
            assert_eq!(
                sent,
                [format!("{prefix}{}", route.path)],
                "{tool} needs no plugin, yet it did not call its route: {outcome:?}"
            );
            continue;
        };
        if tool == "read_excalidraw" {
            let drawing = outcome.expect("read_excalidraw reads the file");
            assert_eq!(drawing["source"], "filesystem");
        } else {
            let error = outcome.expect_err(tool);
            assert_eq!(error.code, ErrorCode::PluginMissing, "{tool}: {error}");
            assert_eq!(
                error.details["plugin"], contract["plugins"][needs]["id"],
                "{tool} needs {needs}"
            );
        }
        assert!(sent.is_empty(), "{tool} without {needs} sent {sent:?}");
    }
}

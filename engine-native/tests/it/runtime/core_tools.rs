//! The `core` tool profile: a curated set under the caps MCP clients put on tool counts; the
//! other tools are neither listed nor callable (`capability_hidden` naming the config key),
//! and `inspect_visibility` says why.
//!
//! Count and size: `cargo test -p obsidian-tc --test it runtime::core_tools -- --nocapture`.

use std::collections::BTreeSet;

use obsidian_tc::auth::Caller;
use obsidian_tc::config::FacadeMode;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::mcp::listing::advertised_tools;
use obsidian_tc::runtime::Registry;
use obsidian_tc::runtime::core_tools::{CORE_TOOLS, is_core};
use rmcp::model::{ListToolsResult, Tool as McpTool};
use serde_json::json;

use crate::support::dispatch::Fixture;

/// The smallest tool cap among the clients the profile is for (Antigravity, Windsurf: 100).
const CLIENT_CAP: usize = 100;

fn flat(fx: &Fixture) -> Vec<McpTool> {
    advertised_tools(
        &fx.server.runtime().registry(),
        &Caller::stdio(),
        FacadeMode::Flat,
    )
}

fn wire_bytes(tools: Vec<McpTool>) -> usize {
    serde_json::to_vec(&ListToolsResult::with_all_items(tools))
        .expect("listing JSON")
        .len()
}

#[test]
fn every_core_tool_is_registered_once_and_the_set_stays_under_the_cap() {
    let mut registry = Registry::new(Default::default());
    obsidian_tc::dispatch::register_builtin(&mut registry).expect("register");
    let unique: BTreeSet<&str> = CORE_TOOLS.iter().copied().collect();
    assert_eq!(unique.len(), CORE_TOOLS.len(), "a name is listed twice");
    for name in CORE_TOOLS {
        assert!(
            registry.get(name).is_some(),
            "{name} is not a registered tool"
        );
    }
    assert!(CORE_TOOLS.len() < CLIENT_CAP, "{}", CORE_TOOLS.len());
    // The everyday families are in, the structured-document and plugin-bridge ones out.
    for name in [
        "read_note",
        "search_vault",
        "add_observation",
        "capture_note",
        "add_tag",
    ] {
        assert!(is_core(name), "{name}");
    }
    for name in [
        "read_canvas",
        "query_base",
        "execute_command",
        "graph_centrality",
    ] {
        assert!(!is_core(name), "{name}");
    }
}

#[test]
fn the_core_listing_is_the_core_set_and_smaller_than_the_full_one() {
    let full = Fixture::new(json!({}));
    let core = Fixture::new(json!({"toolVisibility": {"profile": "core"}}));
    let (full_tools, core_tools) = (flat(&full), flat(&core));
    let names: BTreeSet<String> = core_tools.iter().map(|t| t.name.to_string()).collect();
    let expected: BTreeSet<String> = CORE_TOOLS
        .iter()
        .filter(|name| !name.ends_with("_capability"))
        .map(|name| (*name).to_owned())
        .collect();
    assert_eq!(names, expected);
    let (full_count, core_count) = (full_tools.len(), core_tools.len());
    let (full_bytes, core_bytes) = (wire_bytes(full_tools), wire_bytes(core_tools));
    println!("tools/list flat, profile full: {full_count} tools, {full_bytes} bytes");
    println!("tools/list flat, profile core: {core_count} tools, {core_bytes} bytes");
    assert!(core_count < CLIENT_CAP, "{core_count}");
    assert!(core_bytes < full_bytes);
    // The triad keeps its four tools.
    let triad = advertised_tools(
        &core.server.runtime().registry(),
        &Caller::stdio(),
        FacadeMode::Triad,
    );
    assert_eq!(triad.len(), 4);
}

#[test]
fn a_tool_outside_core_is_refused_naming_the_config_key_and_a_core_tool_works() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "toolVisibility": {"profile": "core"}
    }));
    fx.write("main", "a.md", "alpha\n");
    assert_eq!(
        fx.ok("read_note", json!({"path": "a.md"}))["content"],
        "alpha\n"
    );
    let error = fx.err(
        "read_canvas",
        json!({"path": "b.canvas"}),
        ErrorCode::CapabilityHidden,
    );
    assert_eq!(error.details["config_key"], "toolVisibility.profile");
    assert_eq!(error.details["name"], "read_canvas");
    assert!(
        error.message.contains("toolVisibility.profile core"),
        "{error}"
    );
    assert!(error.recovery.contains("toolVisibility.profile"), "{error}");
    // Through the envelopes and describe_capability alike.
    fx.err(
        "call_capability",
        json!({"name": "read_canvas", "arguments": {"path": "b.canvas"}}),
        ErrorCode::CapabilityHidden,
    );
    fx.err(
        "describe_capability",
        json!({"name": "read_canvas"}),
        ErrorCode::CapabilityHidden,
    );
    // An unknown name stays not_found.
    fx.err("no_such_tool", json!({}), ErrorCode::NotFound);
    // find_capability searches the listed tools only, as for hidden tools.
    let found = fx.ok("find_capability", json!({"query": "read a canvas file"}));
    assert!(!found.to_string().contains("\"read_canvas\""), "{found}");
}

#[test]
fn inspect_visibility_says_the_profile_left_it_out() {
    let fx = Fixture::new(json!({
        "throttle": {"enabled": false},
        "toolVisibility": {"profile": "core", "hide": ["read_note"]}
    }));
    let report = |name: &str| fx.ok("inspect_visibility", json!({"name": name}));
    let canvas = report("read_canvas");
    assert_eq!(canvas["status"], "disabled_by_profile", "{canvas}");
    assert!(
        canvas["rule"]
            .as_str()
            .expect("rule")
            .starts_with("toolVisibility.profile core")
    );
    assert_eq!(report("search_vault")["status"], "listed");
    // The lists still apply inside the profile.
    assert_eq!(report("read_note")["status"], "hidden");
}

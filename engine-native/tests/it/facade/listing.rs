//! What `tools/list` advertises in each facade mode, its size, and that every tool stays
//! callable by name whatever is advertised.
//!
//! Sizes: `cargo test -p obsidian-tc --test it facade::listing -- --nocapture`.

use obsidian_tc::auth::Caller;
use obsidian_tc::config::FacadeMode;
use obsidian_tc::errors::ErrorCode;
use obsidian_tc::mcp::listing::advertised_tools;
use rmcp::model::{ListToolsResult, Tool as McpTool};
use serde_json::json;

use crate::support::dispatch::Fixture;

/// The goal for the default listing: a model's context pays for it on every turn.
const TRIAD_BUDGET_BYTES: usize = 4096;

fn listing(fx: &Fixture, mode: FacadeMode) -> Vec<McpTool> {
    advertised_tools(&fx.server.runtime().registry(), &Caller::stdio(), mode)
}

/// The bytes of the `tools/list` result as it goes on the wire.
fn wire_bytes(tools: Vec<McpTool>) -> usize {
    serde_json::to_vec(&ListToolsResult::with_all_items(tools))
        .expect("listing JSON")
        .len()
}

fn names(tools: &[McpTool]) -> Vec<String> {
    tools.iter().map(|tool| tool.name.to_string()).collect()
}

#[test]
fn each_mode_advertises_its_surface_and_the_triad_fits_the_budget() {
    let fx = Fixture::new(json!({}));
    let triad = listing(&fx, FacadeMode::Triad);
    let domain = listing(&fx, FacadeMode::Domain);
    let flat = listing(&fx, FacadeMode::Flat);
    assert_eq!(
        names(&triad),
        [
            "find_capability",
            "describe_capability",
            "call_read_capability",
            "call_capability"
        ]
    );
    // One tool per domain of the built-in tools (sorted), then call_read_capability and
    // describe_capability.
    let mut domains: Vec<String> = obsidian_tc::tools::all_tools()
        .iter()
        .filter(|tool| !tool.name.ends_with("_capability"))
        .map(|tool| tool.domain.to_owned())
        .collect();
    domains.sort();
    domains.dedup();
    domains.push("call_read_capability".to_owned());
    domains.push("describe_capability".to_owned());
    assert_eq!(names(&domain), domains);
    assert!(domains.len() >= 8, "{domains:?}");
    assert!(names(&flat).contains(&"read_note".to_owned()));
    assert!(
        !names(&flat)
            .iter()
            .any(|name| name.ends_with("_capability"))
    );
    let notes = domain
        .iter()
        .find(|tool| tool.name == "notes")
        .expect("the notes domain");
    let description = notes.description.as_deref().unwrap_or_default();
    assert!(description.contains("read_note") && description.contains("move_note"));
    let sizes = [
        ("triad", wire_bytes(triad)),
        ("domain", wire_bytes(domain)),
        ("flat", wire_bytes(flat)),
    ];
    for (mode, bytes) in sizes {
        println!("tools/list {mode}: {bytes} bytes");
    }
    assert!(sizes[0].1 <= TRIAD_BUDGET_BYTES, "{sizes:?}");
    assert!(
        sizes[0].1 < sizes[1].1 && sizes[1].1 < sizes[2].1,
        "{sizes:?}"
    );
}

/// What each single tool would add to the listing: the price of making it an always-listed
/// essential next to the triad.
#[test]
fn the_cost_of_each_tool_listed_by_itself() {
    let fx = Fixture::new(json!({}));
    let mut costs: Vec<(usize, String)> = listing(&fx, FacadeMode::Flat)
        .into_iter()
        .map(|tool| {
            let bytes = serde_json::to_vec(&tool).expect("tool JSON").len();
            (bytes, tool.name.to_string())
        })
        .collect();
    costs.sort();
    for (bytes, name) in &costs {
        println!("{name}: {bytes} bytes");
    }
    assert!(costs.iter().all(|(bytes, _)| *bytes > 0));
}

/// The two call envelopes say what they may do: `call_read_capability` reaches only
/// read-only tools (readOnlyHint true, so a client may approve it without asking), while
/// `call_capability` reaches every tool (not read-only, destructive as its most cautious
/// tool), in both modes that list them.
#[test]
fn the_read_only_envelope_is_read_only_and_the_other_is_not() {
    let fx = Fixture::new(json!({}));
    for mode in [FacadeMode::Triad, FacadeMode::Domain] {
        let tools = listing(&fx, mode);
        let hints = |name: &str| {
            tools
                .iter()
                .find(|tool| tool.name == name)
                .and_then(|tool| tool.annotations.clone())
                .unwrap_or_else(|| panic!("{name} listed with annotations in {mode:?}"))
        };
        let read = hints("call_read_capability");
        assert_eq!(read.read_only_hint, Some(true), "{mode:?}");
        assert_eq!(read.destructive_hint, Some(false), "{mode:?}");
        assert_eq!(read.idempotent_hint, Some(true), "{mode:?}");
        if mode == FacadeMode::Triad {
            let call = hints("call_capability");
            assert_eq!(call.read_only_hint, Some(false));
            assert_eq!(call.destructive_hint, Some(true));
        } else {
            assert!(!names(&tools).contains(&"call_capability".to_owned()));
        }
    }
}

#[test]
fn visibility_rules_shape_every_mode() {
    let fx = Fixture::new(json!({
        "toolVisibility": {"hide": ["describe_capability", "generate_uri"], "profile": "readOnly"}
    }));
    assert_eq!(
        names(&listing(&fx, FacadeMode::Triad)),
        ["find_capability", "call_read_capability", "call_capability"]
    );
    let domain = listing(&fx, FacadeMode::Domain);
    let workspace = domain
        .iter()
        .find(|tool| tool.name == "workspace")
        .expect("workspace");
    let description = workspace.description.as_deref().unwrap_or_default();
    assert!(description.contains("list_bookmarks") && !description.contains("remove_bookmark"));
    let notes = domain
        .iter()
        .find(|tool| tool.name == "notes")
        .expect("notes");
    let description = notes.description.as_deref().unwrap_or_default();
    assert!(description.contains("read_note") && !description.contains("delete_note"));
    let annotations = notes.annotations.as_ref().expect("annotations");
    assert_eq!(annotations.read_only_hint, Some(true));
    // Hidden and disabled stay what the registry says, whichever way they are called.
    fx.err("generate_uri", json!({}), ErrorCode::NotFound);
    fx.err(
        "call_capability",
        json!({"name": "delete_note", "arguments": {"path": "a.md"}}),
        ErrorCode::NotFound,
    );
}

/// Nothing advertised in the triad is needed to call a tool: every catalog tool is still
/// callable by name (an error other than `not_found` proves it reached its tool).
#[test]
fn every_tool_stays_callable_by_name() {
    let fx = Fixture::new(json!({}));
    for tool in listing(&fx, FacadeMode::Flat) {
        let outcome = fx.call(&Caller::stdio(), &tool.name, json!({}));
        if let Err(error) = outcome.result {
            assert_ne!(error.code, ErrorCode::NotFound, "{}: {error}", tool.name);
        }
    }
}

//! What `tools/list` advertises in each facade mode (`crate::facade`).

use std::sync::Arc;

use rmcp::model::{JsonObject, Tool as McpTool, ToolAnnotations};
use serde_json::Value;

use crate::auth::Caller;
use crate::config::FacadeMode;
use crate::facade::{
    CALL_CAPABILITY, CALL_READ_CAPABILITY, DESCRIBE_CAPABILITY, FACADE_DOMAIN, FIND_CAPABILITY,
    call_capability_schema, catalog_tools, domain_actions, domain_schema, reads_only,
};
use crate::mcp::convert::mcp_tool;
use crate::runtime::{Registry, Tool};

/// The tools `tools/list` shows `caller` in `mode`: the triad (with `call_read_capability`
/// next to `call_capability`), the domain tools with `call_read_capability` and
/// `describe_capability`, or every listed tool. The facade's registered tools appear only
/// when the visibility rules list them, and without output schemas: each advertised output
/// schema carries the error shape too (about 2 KB), which would triple the default listing;
/// `describe_capability` returns any tool's output schema on demand.
pub fn advertised_tools(registry: &Registry, caller: &Caller, mode: FacadeMode) -> Vec<McpTool> {
    let facade_tool = |name: &str| {
        registry
            .visible_tools(caller)
            .into_iter()
            .find(|tool| tool.def.domain == FACADE_DOMAIN && tool.name() == name)
            .map(|tool| {
                let mut listed = mcp_tool(tool);
                listed.output_schema = None;
                listed
            })
    };
    match mode {
        FacadeMode::Flat => catalog_tools(registry, caller)
            .into_iter()
            .map(mcp_tool)
            .collect(),
        FacadeMode::Triad => {
            let mut tools: Vec<McpTool> = [FIND_CAPABILITY, DESCRIBE_CAPABILITY]
                .into_iter()
                .filter_map(facade_tool)
                .collect();
            let reachable = catalog_tools(registry, caller);
            tools.push(call_read_capability_tool(&reachable));
            tools.push(call_capability_tool(&reachable));
            tools
        }
        FacadeMode::Domain => {
            let mut tools: Vec<McpTool> = domain_actions(registry, caller)
                .into_iter()
                .map(|(domain, actions)| domain_tool(domain, &actions))
                .collect();
            tools.push(call_read_capability_tool(&catalog_tools(registry, caller)));
            tools.extend(facade_tool(DESCRIBE_CAPABILITY));
            tools
        }
    }
}

/// `call_capability`: its annotations cover every tool it can reach (not read-only as soon as
/// one of them changes something).
fn call_capability_tool(reachable: &[&Tool]) -> McpTool {
    envelope_tool(
        CALL_CAPABILITY,
        "Call capability",
        "Run a tool by name with its arguments: {name, arguments}. Same checks, errors and \
results as calling the tool directly. Find tools with find_capability.",
        call_capability_schema(),
        reachable,
    )
}

/// `call_read_capability`: it reaches only the read-only tools, so its `readOnlyHint` is
/// true and a client may run it without asking.
fn call_read_capability_tool(reachable: &[&Tool]) -> McpTool {
    let read_only: Vec<&Tool> = reachable
        .iter()
        .copied()
        .filter(|tool| reads_only(tool))
        .collect();
    envelope_tool(
        CALL_READ_CAPABILITY,
        "Call read-only capability",
        "Run a read-only tool by name with its arguments: {name, arguments}. Refuses a tool \
that changes anything (use call_capability). Same checks, errors and results as calling the \
tool directly; find_capability says which tools (call_with).",
        call_capability_schema(),
        &read_only,
    )
}

/// One domain's tool, `{action, args}`, its actions listed in the description.
fn domain_tool(domain: &'static str, actions: &[&Tool]) -> McpTool {
    let names: Vec<&str> = actions.iter().map(|tool| tool.name()).collect();
    let description = format!(
        "The {domain} tools as {{action, args}}. Actions: {}. describe_capability {{name: action}} \
shows an action's args.",
        names.join(", ")
    );
    envelope_tool(domain, domain, &description, domain_schema(), actions)
}

/// An envelope's listing; its annotations are the most cautious of the tools it reaches.
fn envelope_tool(
    name: &str,
    title: &str,
    description: &str,
    schema: Value,
    reachable: &[&Tool],
) -> McpTool {
    let hints: Vec<_> = reachable.iter().map(|tool| tool.annotations()).collect();
    let read_only = hints.iter().all(|hint| hint.read_only_hint);
    let annotations = ToolAnnotations::from_raw(
        Some(title.to_owned()),
        Some(read_only),
        Some(hints.iter().any(|hint| hint.destructive_hint)),
        Some(hints.iter().all(|hint| hint.idempotent_hint)),
        Some(false),
    );
    let schema = match schema {
        Value::Object(map) => map,
        _ => JsonObject::new(),
    };
    McpTool::new(name.to_owned(), description.to_owned(), Arc::new(schema))
        .with_title(title.to_owned())
        .with_annotations(annotations)
}

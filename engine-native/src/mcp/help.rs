//! Help resources (progressive disclosure, seed 002 §2): a tool's description stays short in
//! `tools/list`; `obsidian-tc://help/tools/<name>` gives its parameters, a minimal example
//! call and the errors it can return, and `obsidian-tc://help/domains/<domain>` its domain's
//! tools one line each. Every page is generated from the registry (the input schema, the
//! scopes, the gate predicates), and only tools listed to the caller have pages.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use rmcp::model::Resource;
use serde_json::{Map, Value, json};

use crate::auth::Caller;
use crate::errors::ErrorCode;
use crate::mcp::resources::MARKDOWN;
use crate::runtime::{Registry, Tool};
use crate::tools::common::note_uri::RESOURCE_SCHEME;

/// The URI of the help page of the tool `name`.
pub fn tool_uri(name: &str) -> String {
    format!("{RESOURCE_SCHEME}help/tools/{name}")
}

/// The URI of the help page of the domain `domain`.
pub fn domain_uri(domain: &str) -> String {
    format!("{RESOURCE_SCHEME}help/domains/{domain}")
}

/// The help resources `caller` may read: one per domain with a listed tool, one per listed tool.
pub fn resources(registry: &Registry, caller: &Caller) -> Vec<Resource> {
    let tools = registry.visible_tools(caller);
    let domains: BTreeSet<&str> = tools.iter().map(|tool| tool.def.domain).collect();
    let domain_pages = domains.into_iter().map(|domain| {
        Resource::new(domain_uri(domain), format!("help/domains/{domain}"))
            .with_title(format!("Help: the {domain} tools"))
            .with_mime_type(MARKDOWN)
    });
    let tool_pages = tools.iter().map(|tool| {
        Resource::new(tool_uri(tool.name()), format!("help/tools/{}", tool.name()))
            .with_title(format!("Help: {}", tool.name()))
            .with_description(first_sentence(tool.def.description))
            .with_mime_type(MARKDOWN)
    });
    domain_pages.chain(tool_pages).collect()
}

/// The help page of the tool `name`, if it is listed to `caller`.
pub fn tool_page(registry: &Registry, caller: &Caller, name: &str) -> Option<String> {
    let tool = registry
        .visible_tools(caller)
        .into_iter()
        .find(|tool| tool.name() == name)?;
    let def = &tool.def;
    let mut page = format!("# {} — {}\n\n{}\n\n", def.name, def.title, def.description);
    let _ = writeln!(
        page,
        "Domain: `{}` ({}). {}\n",
        def.domain,
        domain_uri(def.domain),
        behaviour(tool)
    );
    page.push_str("## Parameters\n\n");
    page.push_str(&parameters(&def.input_schema));
    page.push_str("\n## Example\n\n```json\n");
    page.push_str(&example_call(tool).to_string());
    page.push_str("\n```\n\n## Errors\n\nA failed call answers isError with {code, message, retryable, recovery, details}. The checks this tool passes through can answer:\n\n");
    for code in gate_errors(tool) {
        let _ = writeln!(page, "- `{code}`: {}", code.default_recovery());
    }
    page.push_str("\nThe tool's own failures use the same shape; follow `recovery`.\n");
    Some(page)
}

/// The help page of `domain`, if a tool of it is listed to `caller`.
pub fn domain_page(registry: &Registry, caller: &Caller, domain: &str) -> Option<String> {
    let tools: Vec<&Tool> = registry
        .visible_tools(caller)
        .into_iter()
        .filter(|tool| tool.def.domain == domain)
        .collect();
    if tools.is_empty() {
        return None;
    }
    let mut page = format!(
        "# The {domain} tools\n\nRead {} for a tool's parameters, an example and its errors.\n\n",
        tool_uri("<name>")
    );
    for tool in tools {
        let _ = writeln!(
            page,
            "- `{}`: {}",
            tool.name(),
            first_sentence(tool.def.description)
        );
    }
    Some(page)
}

/// The first sentence of `text`: up to the first ". " before a capital letter (so "e.g. x"
/// does not end it), or all of it, ending in one full stop.
fn first_sentence(text: &str) -> String {
    let end = text
        .match_indices(". ")
        .map(|(at, _)| at)
        .find(|&at| {
            text[at + 2..]
                .chars()
                .next()
                .is_some_and(char::is_uppercase)
        })
        .unwrap_or(text.len());
    format!("{}.", text[..end].trim_end_matches('.'))
}

/// The scopes and the gate predicates of `tool`, in one line.
fn behaviour(tool: &Tool) -> String {
    let scopes = if tool.def.scopes.is_empty() {
        "no scope".to_owned()
    } else {
        format!("scopes {}", tool.def.scopes.join(", "))
    };
    let effect = if tool.is_mutating() {
        "changes the vault"
    } else {
        "read-only"
    };
    let confirm = if tool.needs_confirmation() {
        "; every call needs a human's confirmation (elicit_required)"
    } else {
        ""
    };
    format!("Needs {scopes}; {effect}{confirm}.")
}

/// One line per property of `schema`: name, type, required or optional, description and
/// constraints.
fn parameters(schema: &Value) -> String {
    let properties = schema.get("properties").and_then(Value::as_object);
    let Some(properties) = properties.filter(|p| !p.is_empty()) else {
        return "None.\n".to_owned();
    };
    let required = required_names(schema);
    let mut out = String::new();
    for (name, property) in properties {
        let need = if required.contains(&name.as_str()) {
            "required"
        } else {
            "optional"
        };
        let _ = write!(out, "- `{name}` ({}, {need})", type_name(property));
        if let Some(description) = property.get("description").and_then(Value::as_str) {
            let _ = write!(out, ": {description}");
        }
        let limits = constraints(property);
        if !limits.is_empty() {
            let _ = write!(out, " [{}]", limits.join(", "));
        }
        out.push('\n');
    }
    out
}

/// The names in the schema's `required` list.
fn required_names(schema: &Value) -> Vec<&str> {
    schema
        .get("required")
        .and_then(Value::as_array)
        .map(|names| names.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default()
}

/// A short type name of a property schema: its `type`(s) without `null`, the name of a
/// `$ref`, or the alternatives of an `anyOf` / `oneOf`.
fn type_name(schema: &Value) -> String {
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        return reference.rsplit('/').next().unwrap_or(reference).to_owned();
    }
    match schema.get("type") {
        Some(Value::String(name)) => return name.clone(),
        Some(Value::Array(names)) => {
            return names
                .iter()
                .filter_map(Value::as_str)
                .filter(|name| *name != "null")
                .collect::<Vec<_>>()
                .join(" | ");
        }
        _ => {}
    }
    let alternatives = schema
        .get("anyOf")
        .or_else(|| schema.get("oneOf"))
        .and_then(Value::as_array);
    match alternatives {
        Some(alternatives) => alternatives
            .iter()
            .filter(|alt| alt.get("type") != Some(&json!("null")))
            .map(type_name)
            .collect::<Vec<_>>()
            .join(" | "),
        None if schema.get("enum").is_some() => "enum".to_owned(),
        None => "any".to_owned(),
    }
}

/// The property's bounds, allowed values and default, as `key value` texts.
fn constraints(schema: &Value) -> Vec<String> {
    let mut out: Vec<String> = [
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "minItems",
        "maxItems",
        "default",
    ]
    .iter()
    .filter_map(|key| schema.get(*key).map(|value| format!("{key} {value}")))
    .collect();
    if let Some(values) = schema.get("enum").and_then(Value::as_array) {
        let values: Vec<String> = values.iter().map(Value::to_string).collect();
        out.push(format!("one of {}", values.join(", ")));
    }
    out
}

/// A minimal `tools/call` for `tool`: its required arguments with a placeholder of the
/// right type each.
fn example_call(tool: &Tool) -> Value {
    let schema = &tool.def.input_schema;
    let properties = schema.get("properties").and_then(Value::as_object);
    let arguments: Map<String, Value> = required_names(schema)
        .into_iter()
        .map(|name| {
            let property = properties.and_then(|p| p.get(name)).unwrap_or(&Value::Null);
            (name.to_owned(), placeholder(name, property))
        })
        .collect();
    json!({ "name": tool.name(), "arguments": arguments })
}

/// A value of the property's type: `"<name>"` for a string, the minimum (or 1) for a
/// number, the first allowed value of an enum, `true`, `[]` or `{}`.
fn placeholder(name: &str, schema: &Value) -> Value {
    if let Some(first) = schema
        .get("enum")
        .and_then(Value::as_array)
        .and_then(|v| v.first())
    {
        return first.clone();
    }
    match type_name(schema).split(" | ").next().unwrap_or_default() {
        "string" => Value::String(format!("<{name}>")),
        "integer" | "number" => schema.get("minimum").cloned().unwrap_or(json!(1)),
        "boolean" => Value::Bool(true),
        "array" => json!([]),
        _ => json!({}),
    }
}

/// The error codes the dispatch gates can answer for `tool`, from the same predicates the
/// gates use.
fn gate_errors(tool: &Tool) -> Vec<ErrorCode> {
    let def = &tool.def;
    let mut codes = vec![ErrorCode::NotFound, ErrorCode::ValidationError];
    if !tool.scopes.is_empty() || def.vault_arg {
        codes.push(ErrorCode::Forbidden);
    }
    if def.idempotency {
        codes.extend([
            ErrorCode::IdempotencyInFlight,
            ErrorCode::IdempotencyKeyMismatch,
            ErrorCode::Indeterminate,
        ]);
    }
    codes.push(ErrorCode::Throttled);
    if tool.needs_confirmation() {
        codes.extend([ErrorCode::ElicitRequired, ErrorCode::ElicitInvalid]);
    }
    if !def.path_args.is_empty() {
        codes.extend([ErrorCode::AclDenied, ErrorCode::PathInvalid]);
        if tool.is_mutating() {
            codes.push(ErrorCode::ReadOnlyMode);
        }
    }
    codes.extend([ErrorCode::Overflow, ErrorCode::Internal]);
    codes
}

#[cfg(test)]
mod tests {
    use super::first_sentence;

    #[test]
    fn the_first_sentence_ends_before_a_capital_not_at_an_abbreviation() {
        assert_eq!(
            first_sentence("Read a note, e.g. a.md. Returns it."),
            "Read a note, e.g. a.md."
        );
        assert_eq!(first_sentence("List notes"), "List notes.");
        assert_eq!(first_sentence("Done."), "Done.");
    }
}

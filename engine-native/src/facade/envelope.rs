//! Envelope resolution: `call_capability {name, arguments}` and `<domain> {action, args}`
//! become the inner tool's name and arguments before any gate runs.

use serde_json::{Value, json};

use crate::auth::Caller;
use crate::errors::{ErrorCode, ToolError};
use crate::facade::domains::is_domain;
use crate::facade::{CALL_CAPABILITY, CALL_READ_CAPABILITY, reads_only};
use crate::runtime::Registry;
use crate::schema::validate_args;

/// The most characters of an inner tool name.
const MAX_NAME_CHARS: u64 = 128;

/// The input schema of `call_capability` and `call_read_capability`: what they advertise and
/// what their envelope is checked against (unknown keys are refused, not dropped).
pub(crate) fn call_capability_schema() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["name"],
        "properties": {
            "name": {
                "type": "string",
                "description": "The tool to run (from find_capability).",
                "minLength": 1,
                "maxLength": MAX_NAME_CHARS
            },
            "arguments": {
                "type": "object",
                "description": "The tool's own arguments (see describe_capability), including vault, idempotency_key and elicit_token."
            }
        }
    })
}

/// The input schema of a domain tool, `{action, args}`.
pub(crate) fn domain_schema() -> Value {
    json!({
        "type": "object",
        "additionalProperties": false,
        "required": ["action"],
        "properties": {
            "action": {
                "type": "string",
                "description": "The tool of this domain to run.",
                "minLength": 1,
                "maxLength": MAX_NAME_CHARS
            },
            "args": {
                "type": "object",
                "description": "The action's own arguments (see describe_capability), including vault, idempotency_key and elicit_token."
            }
        }
    })
}

/// The tool a call runs and its arguments: an envelope (`call_capability`,
/// `call_read_capability`, a domain name) unwrapped once, any other name as it came. An
/// envelope whose keys or types are wrong is a `validation_error`; so is a domain action that
/// is a callable tool of another domain, and a tool that is not read-only (see
/// [`crate::facade::reads_only`]) through `call_read_capability`. An inner name that is unknown, hidden or
/// disabled is left for the lookup gate, so it fails exactly as calling it by name does.
pub fn resolve_envelope(
    registry: &Registry,
    caller: &Caller,
    name: &str,
    args: Value,
) -> Result<(String, Value), ToolError> {
    let by_name = name == CALL_CAPABILITY || name == CALL_READ_CAPABILITY;
    let (schema, name_key, args_key) = if by_name {
        (call_capability_schema(), "name", "arguments")
    } else if is_domain(registry, name) {
        (domain_schema(), "action", "args")
    } else {
        return Ok((name.to_owned(), args));
    };
    let args = if args.is_null() { json!({}) } else { args };
    validate_args(&schema, &args)?;
    let Value::Object(mut envelope) = args else {
        return Err(ToolError::internal(
            "a non-object envelope passed validation",
        ));
    };
    let Some(Value::String(inner)) = envelope.remove(name_key) else {
        return Err(ToolError::internal(
            "an envelope passed validation without its tool name",
        ));
    };
    let inner_args = envelope.remove(args_key).unwrap_or_else(|| json!({}));
    if name == CALL_READ_CAPABILITY
        && let Some(tool) = registry.callable(&inner, caller)
        && !reads_only(tool)
    {
        return Err(ToolError::new(
            ErrorCode::ValidationError,
            format!("'{inner}' is not read-only: {CALL_READ_CAPABILITY} runs only tools that change and destroy nothing"),
        )
        .with_recovery(format!(
            "call {CALL_CAPABILITY} {{\"name\": \"{inner}\", \"arguments\": ...}}, or call {inner} by name"
        ))
        .with_details(json!({ "name": inner, "read_only": false, "call_with": CALL_CAPABILITY })));
    }
    if !by_name
        && let Some(tool) = registry.callable(&inner, caller)
        && tool.def.domain != name
    {
        return Err(ToolError::new(
            ErrorCode::ValidationError,
            format!(
                "'{inner}' is not an action of '{name}': it belongs to '{}'",
                tool.def.domain
            ),
        )
        .with_recovery(format!(
            "call {} {{\"action\": \"{inner}\", \"args\": ...}}, or call {inner} by name",
            tool.def.domain
        ))
        .with_details(json!({ "action": inner, "domain": name, "belongs_to": tool.def.domain })));
    }
    Ok((inner, inner_args))
}

//! `describe_capability`: everything needed to call one tool (progressive disclosure, seed
//! 002 §2): its schemas, scopes, annotations and a help text derived from the same
//! predicates the gates enforce.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::facade::{DESCRIBE_CAPABILITY, FACADE_DOMAIN, call_envelope_for};
use crate::runtime::{Annotations, Tool, ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `describe_capability`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct DescribeArgs {
    /// The tool name (from find_capability or a domain's actions).
    #[schemars(length(min = 1, max = 128))]
    name: String,
}

/// The result of `describe_capability`.
#[derive(Debug, Serialize, JsonSchema)]
struct Description {
    /// The tool name.
    name: &'static str,
    /// Its title.
    title: &'static str,
    /// What it does.
    description: &'static str,
    /// Its domain.
    domain: &'static str,
    /// The scopes a caller needs.
    scopes: &'static [&'static str],
    /// The envelope to call it through: `call_read_capability` (read-only) or
    /// `call_capability`.
    call_with: &'static str,
    /// The MCP annotations (readOnlyHint, destructiveHint, idempotentHint, openWorldHint).
    #[schemars(with = "serde_json::Map<String, Value>")]
    annotations: Annotations,
    /// The JSON Schema of its arguments.
    #[schemars(with = "serde_json::Map<String, Value>")]
    input_schema: Value,
    /// The JSON Schema of its result, when declared.
    #[schemars(with = "Option<serde_json::Map<String, Value>>")]
    output_schema: Option<Value>,
    /// How to call it and what to expect from the gates.
    help: String,
}

/// The `describe_capability` declaration.
pub(crate) fn tool() -> ToolDef {
    ToolDef::scope_free(
        (DESCRIBE_CAPABILITY, "Describe capability", FACADE_DOMAIN),
        "One tool's input and output JSON Schemas, scopes, annotations and help.",
        (
            input_schema::<DescribeArgs>(),
            output_schema::<Description>(),
        ),
        false,
        describe_capability,
    )
}

/// Describes a tool the caller may call (listed, or only missing scopes); any other name
/// fails as calling it would (`not_found`, or `capability_hidden` under the `core` profile).
fn describe_capability(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: DescribeArgs = parse(args)?;
    let registry = ctx.served().registry();
    let tool = registry
        .callable(&args.name, ctx.caller())
        .ok_or_else(|| registry.refusal(&args.name, ctx.caller()))?;
    structured(&Description {
        name: tool.name(),
        title: tool.def.title,
        description: tool.def.description,
        domain: tool.def.domain,
        scopes: tool.def.scopes,
        call_with: call_envelope_for(tool),
        annotations: tool.annotations(),
        input_schema: tool.def.input_schema.clone(),
        output_schema: tool.def.output_schema.clone(),
        help: help(tool),
    })
}

/// How to call `tool`, and what its gates ask of the caller.
fn help(tool: &Tool) -> String {
    let name = tool.name();
    let mut lines = vec![if tool.def.domain == FACADE_DOMAIN {
        format!("Call {name} by name.")
    } else {
        format!(
            "Call {name} by name, as {} {{\"name\": \"{name}\", \"arguments\": {{...}}}}, \
or as {} {{\"action\": \"{name}\", \"args\": {{...}}}}; every form passes the same checks.",
            call_envelope_for(tool),
            tool.def.domain
        )
    }];
    if !tool.def.scopes.is_empty() {
        lines.push(format!("Needs the scopes {}.", tool.def.scopes.join(", ")));
    }
    if tool.def.vault_arg {
        lines.push("`vault` picks the vault (default: yours, else the first).".to_owned());
    }
    if tool.needs_confirmation() {
        lines.push(
            "Needs a human's approval: the first call answers elicit_required with \
details.args_hash; after `obsidian-tc elicit approve <args_hash>`, repeat the identical call."
                .to_owned(),
        );
    }
    if tool.def.idempotency {
        lines.push(
            "Pass `idempotency_key` to make a retry safe: a repeat replays the first result."
                .to_owned(),
        );
    }
    if tool.is_mutating() {
        lines.push(
            "Changes the vault: refused with read_only_mode on a read-only vault.".to_owned(),
        );
    }
    lines.join(" ")
}

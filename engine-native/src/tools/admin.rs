//! Admin tools: health, vaults, config, ACL and visibility inspection, metrics. Every one of
//! them shows a vault-bound caller only its own vault (tenant isolation, v1 §2.3).

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use crate::dispatch::{Dispatcher, ToolContext, ToolDef, VaultEntry};
use crate::errors::ToolError;
use crate::tools::args::{input_schema, parse};

/// The text that replaces a secret in `get_server_config`.
pub const REDACTED: &str = "[redacted]";

/// The config values `get_server_config` never shows (JSON Pointers).
const SECRET_POINTERS: [&str; 2] = ["/auth/jwtSecret", "/embeddings/apiKey"];

/// No arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

/// The arguments of `inspect_acl`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct InspectAcl {
    /// The vault-relative path to test.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// The operation to test.
    op: Op,
}

/// An operation on a path.
#[derive(Debug, Clone, Copy, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum Op {
    /// Reading.
    Read,
    /// Creating or changing.
    Write,
    /// Deleting.
    Delete,
}

impl From<Op> for AclOp {
    fn from(op: Op) -> AclOp {
        match op {
            Op::Read => AclOp::Read,
            Op::Write => AclOp::Write,
            Op::Delete => AclOp::Delete,
        }
    }
}

/// The arguments of `inspect_visibility`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct InspectVisibility {
    /// The tool name to explain.
    #[schemars(length(min = 1, max = 128))]
    name: String,
}

/// The admin tools.
pub fn tools() -> Vec<ToolDef> {
    let tool = |name, title, description, scopes, vault_arg, schema, handler| ToolDef {
        name,
        title,
        description,
        domain: "admin",
        input_schema: schema,
        output_schema: None,
        scopes,
        destructive: false,
        idempotency: false,
        vault_arg,
        path_args: &[],
        precheck: None,
        handler,
    };
    vec![
        tool(
            "server_health",
            "Server health",
            "Liveness and build info: version, uptime, vault count, cache database status.",
            &[],
            false,
            input_schema::<NoArgs>(),
            server_health,
        ),
        tool(
            "list_vaults",
            "List vaults",
            "The vaults this caller may use, with whether an ACL or read-only mode applies.",
            &["read:vault"],
            false,
            input_schema::<NoArgs>(),
            list_vaults,
        ),
        tool(
            "get_vault",
            "Get vault",
            "One vault's folder, ACL state and read-only switch.",
            &["read:vault"],
            true,
            input_schema::<NoArgs>(),
            get_vault,
        ),
        tool(
            "get_server_config",
            "Get server config",
            "The effective server configuration, secrets redacted.",
            &["admin:config"],
            false,
            input_schema::<NoArgs>(),
            get_server_config,
        ),
        tool(
            "inspect_acl",
            "Inspect ACL",
            "Whether the folder ACL lets this caller read, write or delete a path, and which rule decides.",
            &["admin:acl"],
            true,
            input_schema::<InspectAcl>(),
            inspect_acl,
        ),
        tool(
            "inspect_visibility",
            "Inspect tool visibility",
            "Why a tool is or is not offered to this caller: listed, hidden, disabled, scope_denied or unregistered.",
            &["admin:acl"],
            false,
            input_schema::<InspectVisibility>(),
            inspect_visibility,
        ),
        tool(
            "get_metrics",
            "Get metrics",
            "Call counters by vault, tool and outcome code.",
            &["admin:metrics"],
            false,
            input_schema::<NoArgs>(),
            get_metrics,
        ),
    ]
}

fn server_health(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let server = ctx.dispatcher();
    let schema_version = server.store().schema_version();
    let store_ok = schema_version.is_ok();
    Ok(json!({
        "status": if store_ok { "ok" } else { "degraded" },
        "version": env!("CARGO_PKG_VERSION"),
        "uptime_seconds": server.uptime_ms() / 1000,
        "vaults": server.vaults_for(ctx.caller()).count(),
        "store": {
            "ok": store_ok,
            "schema_version": schema_version.ok(),
        },
    }))
}

fn list_vaults(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let server = ctx.dispatcher();
    let items: Vec<Value> = server
        .vaults_for(ctx.caller())
        .map(|entry| vault_summary(server, entry))
        .collect();
    Ok(json!({ "total_count": items.len(), "items": items }))
}

fn get_vault(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let entry = ctx.vault_entry();
    let mut summary = vault_summary(ctx.dispatcher(), entry);
    summary["path"] = json!(entry.vault.root().to_string_lossy());
    summary["hard_link_guard"] = json!(entry.vault.options().hard_link_guard);
    Ok(summary)
}

fn vault_summary(server: &Dispatcher, entry: &VaultEntry) -> Value {
    let is_default = server
        .vaults()
        .first()
        .is_some_and(|first| first.id == entry.id);
    json!({
        "id": entry.id,
        "default": is_default,
        "acl": entry.acl_configured,
        "read_only": entry.read_only,
    })
}

fn get_server_config(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let mut config = serde_json::to_value(&ctx.dispatcher().config().config)
        .map_err(|error| ToolError::internal(format!("cannot show the config: {error}")))?;
    for pointer in SECRET_POINTERS {
        if let Some(secret) = config.pointer_mut(pointer)
            && !secret.is_null()
        {
            *secret = json!(REDACTED);
        }
    }
    if let Some(bound) = ctx.caller().vault_binding.as_deref()
        && let Some(Value::Array(vaults)) = config.get_mut("vaults")
    {
        vaults.retain(|vault| vault.get("id").and_then(Value::as_str) == Some(bound));
    }
    Ok(config)
}

fn inspect_acl(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: InspectAcl = parse(args)?;
    let entry = ctx.vault_entry();
    let decision = entry
        .policy
        .evaluate(&args.path, args.op.into(), &ctx.caller().scopes);
    Ok(json!({
        "vault": entry.id,
        "acl_configured": entry.acl_configured,
        "granted_scopes": ctx.caller().scopes,
        "decision": decision,
    }))
}

fn inspect_visibility(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: InspectVisibility = parse(args)?;
    let visibility = ctx
        .dispatcher()
        .registry()
        .visibility(&args.name, ctx.caller());
    let mut report = json!(visibility);
    report["name"] = json!(args.name);
    Ok(report)
}

fn get_metrics(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let only = ctx.caller().vault_binding.as_deref();
    Ok(json!(ctx.dispatcher().metrics().snapshot(only)))
}

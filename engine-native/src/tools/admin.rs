//! Admin tools: health, config, ACL and visibility inspection, metrics (the vault registry
//! tools are in [`crate::tools::vaults`]). Every one of them shows a vault-bound caller only its
//! own vault (tenant isolation, v1 §2.3). Each result is a typed struct whose JSON Schema is the
//! tool's output schema.

use engine_core::acl::{AclOp, Decision, Scope};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::config::ServerConfig;
use crate::config::explain::redact_secrets;
use crate::errors::ToolError;
use crate::runtime::{MetricsSnapshot, ToolContext, ToolDef, Visibility};
use crate::tools::common::admin::{NoArgs, admin_tool};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The text that replaces a secret in `get_server_config`.
pub const REDACTED: &str = "[redacted]";

/// The result of `server_health`.
#[derive(Debug, Serialize, JsonSchema)]
struct Health {
    /// `ok`, or `degraded` when the cache database does not answer.
    status: &'static str,
    /// The server's version.
    version: &'static str,
    /// Seconds since the server started.
    uptime_seconds: u64,
    /// How many vaults this caller may use.
    vaults: usize,
    /// The cache database.
    store: StoreHealth,
}

/// The cache database's state.
#[derive(Debug, Serialize, JsonSchema)]
struct StoreHealth {
    /// Whether it answers.
    ok: bool,
    /// Its schema version, when it answers.
    schema_version: Option<i64>,
}

/// The result of `inspect_acl`.
#[derive(Debug, Serialize, JsonSchema)]
struct AclReport {
    /// The vault the path was tested in.
    vault: String,
    /// Whether the vault has an ACL (without one only the hard-deny list applies).
    acl_configured: bool,
    /// The caller's scopes.
    #[schemars(with = "Vec<String>")]
    granted_scopes: Vec<Scope>,
    /// The evaluator's decision: `allowed`, `denied_by`, the matched list entry and rule,
    /// the required and missing scopes.
    #[schemars(with = "serde_json::Map<String, Value>")]
    decision: Decision,
}

/// The result of `inspect_visibility`.
#[derive(Debug, Serialize, JsonSchema)]
struct VisibilityReport {
    /// The tool name asked about.
    name: String,
    /// Whether and why the tool is offered.
    #[serde(flatten)]
    visibility: Visibility,
}

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
    vec![
        admin_tool(
            "server_health",
            "Server health",
            "Whether the server is up: version, uptime, vault count, cache database status.",
            &[],
            false,
            (input_schema::<NoArgs>(), output_schema::<Health>()),
            server_health,
        )
        .keywords(&[
            "health",
            "status",
            "up",
            "alive",
            "ping",
            "running",
            "uptime",
            "version",
            "heartbeat",
            "working",
        ]),
        admin_tool(
            "get_server_config",
            "Get server config",
            "The effective server configuration (settings), secrets redacted.",
            &["admin:config"],
            false,
            (input_schema::<NoArgs>(), output_schema::<ServerConfig>()),
            get_server_config,
        )
        .keywords(&[
            "config",
            "configuration",
            "settings",
            "options",
            "setup",
            "configured",
            "current settings",
        ]),
        admin_tool(
            "inspect_acl",
            "Inspect ACL",
            "Whether the folder ACL allows this caller to read, write or delete a path (permission check), and the deciding rule.",
            &["admin:acl"],
            true,
            (input_schema::<InspectAcl>(), output_schema::<AclReport>()),
            inspect_acl,
        )
        .keywords(&[
            "permission",
            "permissions",
            "write access",
            "allowed",
            "access",
            "rights",
            "forbidden",
            "denied",
            "policy",
            "acl",
        ]),
        admin_tool(
            "inspect_visibility",
            "Inspect tool visibility",
            "Why a tool is or is not offered to this caller: listed, hidden, disabled, disabled_by_profile, scope_denied or unregistered.",
            &["admin:acl"],
            false,
            (
                input_schema::<InspectVisibility>(),
                output_schema::<VisibilityReport>(),
            ),
            inspect_visibility,
        )
        .keywords(&[
            "visibility",
            "hidden",
            "missing",
            "why not",
            "can't see",
            "unavailable",
            "disabled",
            "not listed",
            "not offered",
        ]),
        admin_tool(
            "get_metrics",
            "Get metrics",
            "Usage statistics: how many calls per vault, tool and outcome code (ok or error).",
            &["admin:metrics"],
            false,
            (input_schema::<NoArgs>(), output_schema::<MetricsSnapshot>()),
            get_metrics,
        )
        .keywords(&[
            "metrics",
            "statistics",
            "stats",
            "counts",
            "usage",
            "calls",
            "requests",
            "errors",
            "failures",
            "failed",
            "telemetry",
            "how many",
        ]),
    ]
}

fn server_health(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let server = ctx.runtime();
    let schema_version = server.store().schema_version().ok();
    let ok = schema_version.is_some();
    structured(&Health {
        status: if ok { "ok" } else { "degraded" },
        version: env!("CARGO_PKG_VERSION"),
        uptime_seconds: server.uptime_ms() / 1000,
        vaults: ctx.served().vaults_for(ctx.caller()).count(),
        store: StoreHealth { ok, schema_version },
    })
}

fn get_server_config(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let mut config = serde_json::to_value(&ctx.served().config().config)
        .map_err(|error| ToolError::internal(format!("cannot show the config: {error}")))?;
    redact_secrets(&mut config, REDACTED);
    if let Some(bound) = ctx.served().binding_of(ctx.caller())
        && let Some(Value::Array(vaults)) = config.get_mut("vaults")
    {
        vaults.retain(|vault| vault.get("id").and_then(Value::as_str) == Some(bound));
    }
    Ok(config)
}

fn inspect_acl(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: InspectAcl = parse(args)?;
    let entry = ctx.vault_entry();
    structured(&AclReport {
        vault: entry.id.clone(),
        acl_configured: entry.acl_configured,
        granted_scopes: ctx.caller().scopes.clone(),
        decision: entry
            .policy
            .evaluate(&args.path, args.op.into(), &ctx.caller().scopes),
    })
}

fn inspect_visibility(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: InspectVisibility = parse(args)?;
    let visibility = ctx.served().registry().visibility(&args.name, ctx.caller());
    structured(&VisibilityReport {
        name: args.name,
        visibility,
    })
}

fn get_metrics(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let only = ctx.served().binding_of(ctx.caller());
    structured(&ctx.runtime().metrics().snapshot(only))
}

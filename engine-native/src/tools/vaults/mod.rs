//! The vault registry tools: `list_vaults`, `get_vault`, `reload_vault` (the config file read
//! again, the cache untouched), `add`'s `add_vault` (a vault written to the config file,
//! applied and indexed) and `reset_vault_cache` (destructive: one vault's rows of the cache
//! database dropped, its files untouched). A vault-bound caller sees only its own vault and
//! can neither reload the server nor add a vault.

mod add;

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ReloadReport, Served, ToolContext, ToolDef, VaultEntry};
use crate::store::VaultRowCounts;
use crate::tools::common::admin::{NoArgs, admin_tool};
use crate::tools::common::args::input_schema;
use crate::tools::common::structured::{output_schema, structured};

/// One vault as `list_vaults` shows it.
#[derive(Debug, Serialize, JsonSchema)]
struct VaultSummary {
    /// The vault id.
    id: String,
    /// Whether it is the default vault (`defaultVault`, else the first configured).
    default: bool,
    /// Whether a folder ACL applies.
    acl: bool,
    /// Whether the ACL's read-only switch is on.
    read_only: bool,
}

/// The result of `list_vaults`.
#[derive(Debug, Serialize, JsonSchema)]
struct VaultList {
    /// How many vaults.
    total_count: usize,
    /// The vaults, in config order.
    items: Vec<VaultSummary>,
}

/// The result of `get_vault`.
#[derive(Debug, Serialize, JsonSchema)]
struct VaultDetails {
    /// The vault's summary.
    #[serde(flatten)]
    summary: VaultSummary,
    /// The vault folder.
    path: String,
    /// Whether files with more than one hard link are refused (on when an ACL applies).
    hard_link_guard: bool,
}

/// The result of `reset_vault_cache`.
#[derive(Debug, Serialize, JsonSchema)]
struct CacheReset {
    /// The vault whose rows were dropped.
    vault: String,
    /// Rows deleted, per table.
    deleted: DeletedRows,
}

/// Rows deleted per table of the cache database.
#[derive(Debug, Serialize, JsonSchema)]
struct DeletedRows {
    /// Idempotency keys.
    idempotency_keys: usize,
    /// Elicit requests and tokens.
    elicit_tokens: usize,
    /// Event-log rows.
    event_log: usize,
    /// Notes metadata rows.
    notes: usize,
    /// Search index rows (chunks, links, tags, tasks, aliases, failures, index state).
    search_index: usize,
}

impl From<VaultRowCounts> for DeletedRows {
    fn from(counts: VaultRowCounts) -> DeletedRows {
        DeletedRows {
            idempotency_keys: counts.idempotency_keys,
            elicit_tokens: counts.elicit_tokens,
            event_log: counts.events,
            notes: counts.notes,
            search_index: counts.index_rows,
        }
    }
}

/// The vault registry tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        admin_tool(
            "list_vaults",
            "List vaults",
            "List the vaults this caller may use, with whether an ACL or read-only mode applies.",
            &["read:vault"],
            false,
            (input_schema::<NoArgs>(), output_schema::<VaultList>()),
            list_vaults,
        )
        .keywords(&[
            "get into",
            "access",
            "vaults",
            "available vaults",
            "all vaults",
            "which vaults",
            "vaults I can use",
        ]),
        admin_tool(
            "get_vault",
            "Get vault",
            "One vault's folder, ACL state and read-only switch.",
            &["read:vault"],
            true,
            (input_schema::<NoArgs>(), output_schema::<VaultDetails>()),
            get_vault,
        )
        .keywords(&[
            "vault details",
            "vault info",
            "location",
            "where",
            "folder",
            "stored",
            "on disk",
            "read-only",
            "path of vault",
        ]),
        admin_tool(
            "reload_vault",
            "Reload vaults",
            "Re-read the server's config file: added, removed and changed vaults, ACLs and \
         tool visibility apply to the next call. The cache is not touched. A config with \
         problems changes nothing and names them.",
            &["admin:vault"],
            false,
            (input_schema::<NoArgs>(), output_schema::<ReloadReport>()),
            reload_vault,
        )
        .keywords(&[
            "reload",
            "refresh",
            "re-read",
            "apply config",
            "restart",
            "hot reload",
            "pick up changes",
            "config file",
        ]),
        admin_tool(
            "reset_vault_cache",
            "Reset vault cache",
            "Drop one vault's rows from the cache database (idempotency keys, approvals, \
             event log, notes metadata). The vault's files are not touched. Always needs \
             a human's approval.",
            &["admin:vault"],
            true,
            (input_schema::<NoArgs>(), output_schema::<CacheReset>()),
            reset_vault_cache,
        )
        .destructive()
        .keywords(&[
            "cache",
            "clear",
            "reset",
            "wipe",
            "flush",
            "purge",
            "rebuild",
            "start fresh",
            "stale",
            "cached",
        ]),
        add::tool(),
    ]
}

fn list_vaults(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let served = ctx.served();
    let items: Vec<VaultSummary> = served
        .vaults_for(ctx.caller())
        .map(|entry| summary(served, entry))
        .collect();
    structured(&VaultList {
        total_count: items.len(),
        items,
    })
}

fn get_vault(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let entry = ctx.vault_entry();
    structured(&VaultDetails {
        summary: summary(ctx.served(), entry),
        path: entry.vault.root().to_string_lossy().into_owned(),
        hard_link_guard: entry.vault.options().hard_link_guard,
    })
}

fn summary(served: &Served, entry: &VaultEntry) -> VaultSummary {
    VaultSummary {
        id: entry.id.clone(),
        default: served.is_default_vault(&entry.id),
        acl: entry.acl_configured,
        read_only: entry.read_only,
    }
}

fn reload_vault(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    unbound_caller(ctx, "reload_vault reloads every vault of the server")?;
    structured(&ctx.runtime().reload()?)
}

/// `forbidden` for a caller bound to one vault: `what` acts on the whole server.
fn unbound_caller(ctx: &ToolContext<'_>, what: &str) -> Result<(), ToolError> {
    match ctx.served().binding_of(ctx.caller()) {
        None => Ok(()),
        Some(bound) => Err(ToolError::new(
            ErrorCode::Forbidden,
            format!("{what}; a caller bound to vault '{bound}' may not"),
        )
        .with_recovery("ask the server's operator, or use an unbound token")),
    }
}

fn reset_vault_cache(ctx: &ToolContext<'_>, _args: Value) -> Result<Value, ToolError> {
    let counts = ctx
        .store()
        .delete_vault_rows(ctx.vault_id())
        .map_err(|error| ToolError::internal(format!("the cache database failed: {error}")))?;
    ctx.runtime().indexes().forget(ctx.vault_id());
    structured(&CacheReset {
        vault: ctx.vault_id().to_owned(),
        deleted: counts.into(),
    })
}

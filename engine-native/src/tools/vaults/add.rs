//! `add_vault`: a vault added to the config file the server was started from (so a restart
//! serves it too) and applied as `reload_vault` applies a config edit, then indexed. It widens
//! what agents can reach, so it always needs a person's approval; it is refused to a
//! vault-bound caller, on a server without a config file, under the read-only switch (root
//! `acl.readOnly`, or the `readOnly` tool profile), for an id already served, and for a
//! folder that is not a real, existing directory or that `check_new_vault` refuses
//! (roots, system and hidden folders, the home folder, the cache, the config file's folder,
//! an overlap with a served vault). Every refusal leaves the config file's bytes as they were.

use std::path::{Path, PathBuf};

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::unbound_caller;
use crate::config::VisibilityProfile;
use crate::errors::{ErrorCode, ToolError};
use crate::index::IndexError;
use crate::runtime::add_vault::check_new_vault;
use crate::runtime::{ReloadReport, ToolContext, ToolDef};
use crate::tools::common::admin::admin_tool;
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `add_vault`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AddVault {
    /// The new vault's id, what callers name it by (letters, digits, `-` and `_`).
    #[schemars(length(min = 1, max = 64))]
    vault_id: String,
    /// The vault folder's absolute path on the server's machine (symbolic links are
    /// resolved; the real folder is what is written to the config file).
    #[schemars(length(min = 1, max = 4096))]
    path: String,
}

/// The result of `add_vault`.
#[derive(Debug, Serialize, JsonSchema)]
struct AddedVault {
    /// The new vault's id.
    vault: String,
    /// Its real folder, as written to the config file.
    root: String,
    /// The config file it was added to.
    config_file: String,
    /// Whether its notes were indexed by this call (false: a scan was already running, see
    /// `index_message`; get_index_status follows it).
    indexed: bool,
    /// How many notes the index holds that this caller may read (absent when not indexed).
    #[serde(skip_serializing_if = "Option::is_none")]
    note_count: Option<usize>,
    /// Why the vault was not indexed (absent when it was).
    #[serde(skip_serializing_if = "Option::is_none")]
    index_message: Option<String>,
    /// What the reload applied (the new vault in `added`).
    reload: ReloadReport,
}

/// The `add_vault` tool.
pub(super) fn tool() -> ToolDef {
    admin_tool(
        "add_vault",
        "Add vault",
        "Add a new vault to the server by its id and path: saved in the server's config file \
         (a restart keeps it), applied like reload_vault, then indexed. Refused for an id in \
         use, a missing, system, hidden or home path, and a path overlapping a served vault. \
         Always needs a human's approval.",
        &["admin:vault"],
        false,
        (input_schema::<AddVault>(), output_schema::<AddedVault>()),
        add_vault,
    )
    .destructive()
    .precheck(precheck)
    .keywords(&[
        "new vault",
        "register vault",
        "add a vault",
        "another vault",
        "second vault",
    ])
}

/// Every refusal that needs no lock, before a person is asked to approve.
fn precheck(ctx: &ToolContext<'_>, args: &Value) -> Result<(), ToolError> {
    unbound_caller(ctx, "add_vault adds a vault to the whole server")?;
    let config = ctx.served().config();
    let read_only_acl = config.config.acl.as_ref().is_some_and(|acl| acl.read_only);
    if read_only_acl || config.config.tool_visibility.profile == VisibilityProfile::ReadOnly {
        return Err(ToolError::new(
            ErrorCode::ReadOnlyMode,
            "the server is read-only (acl.readOnly or toolVisibility.profile readOnly): \
             add_vault would change its config file",
        ));
    }
    let args: AddVault = parse(args.clone())?;
    let folder = real_folder(&args.path)?;
    check_new_vault(config, &args.vault_id, &folder, home().as_deref()).map(|_| ())
}

fn add_vault(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: AddVault = parse(args)?;
    let folder = real_folder(&args.path)?;
    ctx.mark_effect_started();
    let reload = ctx
        .runtime()
        .add_vault(&args.vault_id, &folder, home().as_deref())?;
    let served = ctx.runtime().served();
    let entry = served
        .vault(&args.vault_id)
        .ok_or_else(|| ToolError::internal("the added vault is not served after the reload"))?;
    let granted = &ctx.caller().scopes;
    let scan = ctx.runtime().indexes().scan(
        ctx.store(),
        &entry.id,
        &entry.vault,
        ctx.clock().now_seconds(),
        &mut |_, _| {},
        &|path| entry.check_path(path, AclOp::Read, granted).is_ok(),
    );
    let (note_count, index_message) = match scan {
        Ok(report) => (Some(report.scanned - report.failed), None),
        Err(IndexError::Busy) => (
            None,
            Some("a scan of this vault was already running; get_index_status follows it".into()),
        ),
        Err(error) => (
            None,
            Some(format!("indexing failed: {error}; call index_vault")),
        ),
    };
    let config_file = served
        .config()
        .config_file()
        .map(|(file, _)| file.to_string_lossy().into_owned())
        .unwrap_or_default();
    structured(&AddedVault {
        vault: entry.id.clone(),
        root: folder.to_string_lossy().into_owned(),
        config_file,
        indexed: note_count.is_some(),
        note_count,
        index_message,
        reload,
    })
}

/// The real folder `path` names: absolute, existing, a directory, symbolic links resolved.
fn real_folder(path: &str) -> Result<PathBuf, ToolError> {
    let invalid = |why: String| {
        ToolError::new(ErrorCode::InvalidInput, why).with_details(json!({ "path": path }))
    };
    if !Path::new(path).is_absolute() {
        return Err(invalid(format!(
            "{path:?} is not absolute: give the vault folder's absolute path"
        )));
    }
    let real = dunce::canonicalize(path)
        .map_err(|error| invalid(format!("{path:?} cannot be resolved: {error}")))?;
    if !real.is_dir() {
        return Err(invalid(format!("{} is not a directory", real.display())));
    }
    Ok(real)
}

/// The user's home folder, from the environment.
fn home() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .or_else(|| std::env::var_os("USERPROFILE"))
        .filter(|home| !home.is_empty())
        .map(PathBuf::from)
}

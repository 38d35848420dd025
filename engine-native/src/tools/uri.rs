//! `generate_uri`: builds an `obsidian://` URI for a target. A pure string builder: it reads
//! and changes nothing in the vault (a `path` is checked lexically, never looked up).
//!
//! Actions of Obsidian itself (`obsidian://<action>?vault=...`):
//! - `open`: the vault, or a note (`file`), optionally at a heading (`file=Note%23Heading`) or
//!   a block (`file=Note%23%5Eid`);
//! - `new`: create a note (`file`, `content`; `append` / `overwrite`; `silent`);
//! - `daily`: create or open the daily note (same options as `new`, no path);
//! - `search`: open search, optionally with a `query`.
//!
//! Actions of the Advanced URI plugin (`obsidian://adv-uri?vault=...`):
//! - `navigate`: a note (`filepath`) at a `heading`, `block` or `line`;
//! - `write`: write `data` to a note (`mode` overwrite / append / prepend / new; `heading`
//!   for append and prepend);
//! - `command`: run a command by id (`commandid`), optionally on a note (`filepath`, `line`,
//!   `mode` append / prepend / overwrite).
//!
//! Every value is percent-encoded like JavaScript's `encodeURIComponent` (space `%20`, `/`
//! `%2F`), as Obsidian expects. The vault is named by the served vault's folder name (what
//! Obsidian calls the vault) unless `vault_name` names it otherwise.

use engine_core::acl::{AclOp, is_hard_denied, validate_path};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{input_schema, parse};
use crate::tools::common::note_uri::encode_component;
use crate::tools::common::structured::{output_schema, structured};
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::VaultError;

/// The plugin the Advanced URI actions need.
const ADVANCED_URI_PLUGIN: &str = "obsidian-advanced-uri";

/// What the URI does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum UriAction {
    /// Open the vault, or a note (`path`), optionally at a `heading` or `block`.
    Open,
    /// Create a note at `path`, optionally with `content`; `mode` append / overwrite for an
    /// existing note; `silent` does not open it.
    New,
    /// Create or open the daily note; `content`, `mode` and `silent` as for `new`.
    Daily,
    /// Open search, optionally running `query`.
    Search,
    /// Advanced URI plugin: open the note at `path` at a `heading`, `block` or `line`.
    Navigate,
    /// Advanced URI plugin: write `content` to the note at `path` (only if it does not
    /// exist, unless `mode` is overwrite / append / prepend / new); `heading` places
    /// appended or prepended text under that heading.
    Write,
    /// Advanced URI plugin: run the command `command_id`, optionally on the note at `path`
    /// (at `line`, or after `mode` append / prepend / overwrite prepared it).
    Command,
}

impl UriAction {
    /// The wire name, for messages.
    fn name(self) -> &'static str {
        match self {
            UriAction::Open => "open",
            UriAction::New => "new",
            UriAction::Daily => "daily",
            UriAction::Search => "search",
            UriAction::Navigate => "navigate",
            UriAction::Write => "write",
            UriAction::Command => "command",
        }
    }

    /// The optional arguments this action takes.
    fn takes(self) -> &'static [&'static str] {
        match self {
            UriAction::Open => &["path", "heading", "block"],
            UriAction::New => &["path", "content", "mode", "silent"],
            UriAction::Daily => &["content", "mode", "silent"],
            UriAction::Search => &["query"],
            UriAction::Navigate => &["path", "heading", "block", "line"],
            UriAction::Write => &["path", "content", "mode", "heading"],
            UriAction::Command => &["command_id", "path", "line", "mode"],
        }
    }

    /// The modes this action accepts.
    fn modes(self) -> &'static [UriMode] {
        match self {
            UriAction::New | UriAction::Daily => &[UriMode::Append, UriMode::Overwrite],
            UriAction::Write => &[
                UriMode::Overwrite,
                UriMode::Append,
                UriMode::Prepend,
                UriMode::New,
            ],
            UriAction::Command => &[UriMode::Append, UriMode::Prepend, UriMode::Overwrite],
            UriAction::Open | UriAction::Search | UriAction::Navigate => &[],
        }
    }
}

/// How a write treats an existing note.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum UriMode {
    /// Add to the end.
    Append,
    /// Add to the start (Advanced URI actions only).
    Prepend,
    /// Replace the content.
    Overwrite,
    /// Always create a new note, numbering the name if it is taken (`write` only).
    New,
}

impl UriMode {
    /// The wire name (the Advanced URI `mode` value, the Obsidian flag name).
    fn name(self) -> &'static str {
        match self {
            UriMode::Append => "append",
            UriMode::Prepend => "prepend",
            UriMode::Overwrite => "overwrite",
            UriMode::New => "new",
        }
    }
}

/// The arguments of `generate_uri`. Each action takes only its own arguments (see
/// `action`); anything else is a `validation_error`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct GenerateUri {
    /// What the URI does.
    action: UriAction,
    /// The vault-relative path of the note, e.g. `Projects/Plan.md` (checked, never looked up).
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    path: Option<String>,
    /// A heading of the note, by its text.
    #[serde(default)]
    #[schemars(length(min = 1, max = 1024))]
    heading: Option<String>,
    /// A block id of the note (`intro` or `^intro`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 128))]
    block: Option<String>,
    /// A line of the note, 1-based.
    #[serde(default)]
    #[schemars(range(min = 1))]
    line: Option<u32>,
    /// The search to run (`search`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 4096))]
    query: Option<String>,
    /// The text to write (`new`, `daily`, `write`).
    #[serde(default)]
    #[schemars(length(max = 32768))]
    content: Option<String>,
    /// How to treat an existing note: `new` / `daily`: append, overwrite; `write`:
    /// overwrite, append, prepend, new; `command`: append, prepend, overwrite.
    #[serde(default)]
    mode: Option<UriMode>,
    /// Do not open the note (`new`, `daily`).
    #[serde(default)]
    silent: bool,
    /// The command id, e.g. `workspace:export-pdf` (`command`).
    #[serde(default)]
    #[schemars(length(min = 1, max = 256))]
    command_id: Option<String>,
    /// The vault name (or id) Obsidian knows the vault by; default: the served vault's
    /// folder name.
    #[serde(default)]
    #[schemars(length(min = 1, max = 255))]
    vault_name: Option<String>,
}

/// What `generate_uri` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct GeneratedUri {
    /// The URI.
    uri: String,
    /// The action it performs.
    action: UriAction,
    /// The community plugin Obsidian needs to open it; absent for Obsidian's own actions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    requires_plugin: Option<String>,
}

/// The `generate_uri` tool.
pub fn tool() -> ToolDef {
    ToolDef::scope_free(
        ("generate_uri", "Generate Obsidian URI", "workspace"),
        "Build an obsidian:// URI: open a note (at a heading or block), create a note or the daily note, open search, or with the Advanced URI plugin navigate to a heading/block/line, write to a note, or run a command by id. Pure string building: nothing in the vault is read or changed. Each action takes only its own arguments.",
        (
            input_schema::<GenerateUri>(),
            output_schema::<GeneratedUri>(),
        ),
        true,
        generate_uri,
    )
    .keywords(&["link", "url", "uri", "deep link", "obsidian link", "open in obsidian", "open in app", "shortcut", "advanced uri", "share", "clickable"])
}

fn generate_uri(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: GenerateUri = parse(args)?;
    check_combination(&args)?;
    let vault = match &args.vault_name {
        Some(name) => checked_text("vault_name", name)?.to_owned(),
        None => folder_name(ctx)?,
    };
    let path = args.path.as_deref().map(checked_path).transpose()?;
    let heading = args
        .heading
        .as_deref()
        .map(|heading| checked_text("heading", heading))
        .transpose()?;
    let block = args.block.as_deref().map(checked_block).transpose()?;
    let mut query = Query::new(&vault);
    let plugin = match args.action {
        UriAction::Open => {
            let target = match (&path, heading, block) {
                (Some(path), Some(heading), _) => Some(format!("{path}#{heading}")),
                (Some(path), None, Some(block)) => Some(format!("{path}#^{block}")),
                (path, ..) => path.clone(),
            };
            query.push_opt("file", target.as_deref());
            None
        }
        UriAction::New | UriAction::Daily => {
            query.push_opt("file", path.as_deref());
            query.push_opt("content", args.content.as_deref());
            if let Some(mode) = args.mode {
                query.push(mode.name(), "true");
            }
            if args.silent {
                query.push("silent", "true");
            }
            None
        }
        UriAction::Search => {
            query.push_opt("query", args.query.as_deref());
            None
        }
        UriAction::Navigate => {
            query.push_opt("filepath", path.as_deref());
            query.push_opt("heading", heading);
            query.push_opt("block", block);
            query.push_opt("line", args.line.map(|line| line.to_string()).as_deref());
            Some(ADVANCED_URI_PLUGIN)
        }
        UriAction::Write => {
            query.push_opt("filepath", path.as_deref());
            query.push_opt("data", args.content.as_deref());
            query.push_opt("mode", args.mode.map(UriMode::name));
            query.push_opt("heading", heading);
            Some(ADVANCED_URI_PLUGIN)
        }
        UriAction::Command => {
            let command = args
                .command_id
                .as_deref()
                .map(checked_command)
                .transpose()?;
            query.push_opt("filepath", path.as_deref());
            query.push_opt("commandid", command);
            query.push_opt("line", args.line.map(|line| line.to_string()).as_deref());
            query.push_opt("mode", args.mode.map(UriMode::name));
            Some(ADVANCED_URI_PLUGIN)
        }
    };
    let endpoint = match plugin {
        Some(_) => "adv-uri",
        None => args.action.name(),
    };
    structured(&GeneratedUri {
        uri: format!("obsidian://{endpoint}?{}", query.text),
        action: args.action,
        requires_plugin: plugin.map(str::to_owned),
    })
}

/// Refuses arguments the action does not take, a missing required argument, and a mode
/// or target combination the action cannot express.
fn check_combination(args: &GenerateUri) -> Result<(), ToolError> {
    let action = args.action;
    let given = [
        ("path", args.path.is_some()),
        ("heading", args.heading.is_some()),
        ("block", args.block.is_some()),
        ("line", args.line.is_some()),
        ("query", args.query.is_some()),
        ("content", args.content.is_some()),
        ("mode", args.mode.is_some()),
        ("silent", args.silent),
        ("command_id", args.command_id.is_some()),
    ];
    if let Some((name, _)) = given
        .iter()
        .find(|(name, present)| *present && !action.takes().contains(name))
    {
        return Err(combination_error(format!(
            "action '{}' does not take '{name}'; it takes: {}",
            action.name(),
            action.takes().join(", ")
        )));
    }
    let targets = [
        args.heading.is_some(),
        args.block.is_some(),
        args.line.is_some(),
    ];
    if targets.iter().filter(|given| **given).count() > 1 {
        return Err(combination_error(
            "give at most one of 'heading', 'block' and 'line'".to_owned(),
        ));
    }
    let needs_path = match action {
        UriAction::New | UriAction::Navigate | UriAction::Write => true,
        UriAction::Open => args.heading.is_some() || args.block.is_some(),
        UriAction::Command => args.line.is_some() || args.mode.is_some(),
        UriAction::Daily | UriAction::Search => false,
    };
    if needs_path && args.path.is_none() {
        return Err(combination_error(format!(
            "action '{}' needs 'path' here (the note it acts on)",
            action.name()
        )));
    }
    if action == UriAction::Write && args.content.is_none() {
        return Err(combination_error(
            "action 'write' needs 'content' (the text to write)".to_owned(),
        ));
    }
    if action == UriAction::Command && args.command_id.is_none() {
        return Err(combination_error(
            "action 'command' needs 'command_id', e.g. 'workspace:export-pdf'".to_owned(),
        ));
    }
    if let Some(mode) = args.mode
        && !action.modes().contains(&mode)
    {
        let accepted: Vec<&str> = action.modes().iter().map(|m| m.name()).collect();
        return Err(combination_error(format!(
            "action '{}' does not take mode '{}'; it takes: {}",
            action.name(),
            mode.name(),
            accepted.join(", ")
        )));
    }
    if action == UriAction::Write
        && args.heading.is_some()
        && !matches!(args.mode, Some(UriMode::Append | UriMode::Prepend))
    {
        return Err(combination_error(
            "action 'write' takes 'heading' only with mode 'append' or 'prepend'".to_owned(),
        ));
    }
    Ok(())
}

/// A `validation_error` for arguments that do not fit together.
fn combination_error(message: String) -> ToolError {
    ToolError::new(ErrorCode::ValidationError, message)
        .with_recovery("Change the arguments as the message says and call generate_uri again.")
}

/// The served vault's folder name: the name Obsidian shows for the vault.
fn folder_name(ctx: &ToolContext<'_>) -> Result<String, ToolError> {
    ctx.vault()
        .root()
        .file_name()
        .and_then(|name| name.to_str())
        .map(str::to_owned)
        .ok_or_else(|| {
            combination_error(
                "the vault folder has no usable name; pass 'vault_name' (the name or id Obsidian shows)"
                    .to_owned(),
            )
        })
}

/// The path in NFC, or `path_invalid` / `acl_denied` (a control folder) like any path
/// argument. Lexical only: the vault is not consulted.
fn checked_path(path: &str) -> Result<String, ToolError> {
    let nfc = validate_path(path).map_err(|reason| {
        let error = VaultError::PathInvalid {
            path: path.to_owned(),
            reason,
        };
        tool_error_from_vault(&error, AclOp::Read)
    })?;
    if is_hard_denied(&nfc) {
        return Err(tool_error_from_vault(
            &VaultError::HardDeny { path: nfc },
            AclOp::Read,
        ));
    }
    Ok(nfc)
}

/// A one-line text argument, refused when it holds a control character (a line break).
fn checked_text<'a>(name: &str, text: &'a str) -> Result<&'a str, ToolError> {
    if text.chars().any(char::is_control) {
        return Err(combination_error(format!(
            "'{name}' must be one line without control characters"
        )));
    }
    Ok(text)
}

/// A block id without its leading `^`: letters, digits and `-` only (Obsidian's block ids).
fn checked_block(block: &str) -> Result<&str, ToolError> {
    let id = block.strip_prefix('^').unwrap_or(block);
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
        return Err(combination_error(format!(
            "'{block}' is not a block id: use letters, digits and '-' (e.g. 'intro' or '^intro')"
        )));
    }
    Ok(id)
}

/// A command id: no whitespace or control characters (ids look like `plugin:command`).
fn checked_command(id: &str) -> Result<&str, ToolError> {
    if id.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(combination_error(format!(
            "'{id}' is not a command id: ids have no spaces, e.g. 'workspace:export-pdf' (use the id, not the name shown in the palette)"
        )));
    }
    Ok(id)
}

/// A query string under construction, `vault` first.
struct Query {
    text: String,
}

impl Query {
    fn new(vault: &str) -> Query {
        let mut query = Query {
            text: String::new(),
        };
        query.push("vault", vault);
        query
    }

    /// Appends `key=value`, the value encoded.
    fn push(&mut self, key: &str, value: &str) {
        if !self.text.is_empty() {
            self.text.push('&');
        }
        self.text.push_str(key);
        self.text.push('=');
        encode_component(&mut self.text, value);
    }

    /// Appends `key=value` when there is a value.
    fn push_opt(&mut self, key: &str, value: Option<&str>) {
        if let Some(value) = value {
            self.push(key, value);
        }
    }
}

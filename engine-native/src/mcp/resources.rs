//! Vault notes as MCP resources at `obsidian-tc://<vault>/<path>`, next to the help resources
//! of [`crate::mcp::help`] at `obsidian-tc://help/tools/<name>` and
//! `obsidian-tc://help/domains/<domain>`.
//!
//! Both directions go through the dispatcher, so a resource never shows more than the tools
//! do: `resources/list` pages through `list_notes` (scopes, vault binding, folder ACL and
//! hard-deny filter the listing) and `resources/read` runs `read_note` (scopes, vault binding,
//! ACL, hard-link guard, byte governor, audit row), both as the caller of the request.
//!
//! A note URI percent-encodes the vault id and each path segment (like `encodeURIComponent`);
//! reading decodes them and puts the path in NFC. `help/tools/<x>` and `help/domains/<x>`
//! name help when `<x>` is a plain identifier (no `.`), so a vault called `help` keeps every
//! note whose file has an extension.

use rmcp::ErrorData as McpError;
use rmcp::model::{
    ListResourceTemplatesResult, ListResourcesResult, ReadResourceResult, Resource,
    ResourceContents, ResourceTemplate,
};
use serde::Deserialize;
use serde_json::{Value, json};
use unicode_normalization::UnicodeNormalization;

use crate::auth::Caller;
use crate::dispatch::Dispatcher;
use crate::errors::{ErrorCode, ToolError};
use crate::mcp::help;
use crate::runtime::VAULT_ARG;
use crate::tools::common::note_uri::{RESOURCE_SCHEME, note_uri};

/// The most notes one `resources/list` page holds.
pub const PAGE_SIZE: usize = 200;

/// The MIME type of notes and help texts.
pub const MARKDOWN: &str = "text/markdown";

/// The tool `resources/read` runs for a note.
const READ_TOOL: &str = "read_note";

/// The tool `resources/list` pages through.
const LIST_TOOL: &str = "list_notes";

/// What a resource URI names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResourceUri {
    /// A note: the vault id and the vault-relative path (NFC).
    Note {
        /// The vault id.
        vault: String,
        /// The vault-relative path.
        path: String,
    },
    /// The help page of one tool.
    ToolHelp(String),
    /// The help page of one domain.
    DomainHelp(String),
}

impl ResourceUri {
    /// Parses `uri`; anything that is not an `obsidian-tc://` note or help URI is an
    /// invalid-params error saying what a URI looks like.
    pub fn parse(uri: &str) -> Result<ResourceUri, McpError> {
        let bad = |why: &str| {
            McpError::invalid_params(
                format!(
                    "'{uri}' is not an obsidian-tc resource URI ({why}); use \
                     obsidian-tc://<vault>/<path> or obsidian-tc://help/tools/<name>"
                ),
                uri_data(uri, None),
            )
        };
        let rest = uri
            .strip_prefix(RESOURCE_SCHEME)
            .ok_or_else(|| bad("it does not start with obsidian-tc://"))?;
        let (vault, path) = rest
            .split_once('/')
            .ok_or_else(|| bad("it names no path"))?;
        if vault == "help"
            && let Some(help) = help_target(path)
        {
            return Ok(help);
        }
        let vault = decode(vault).ok_or_else(|| bad("the vault is not percent-encoded UTF-8"))?;
        let segments = path
            .split('/')
            .map(decode)
            .collect::<Option<Vec<String>>>()
            .ok_or_else(|| bad("a path segment is not percent-encoded UTF-8"))?;
        if vault.is_empty() || segments.iter().any(|s| s.is_empty() || s.contains('/')) {
            return Err(bad(
                "the vault and every path segment must be non-empty, without an encoded '/'",
            ));
        }
        Ok(ResourceUri::Note {
            vault,
            path: segments.join("/").nfc().collect(),
        })
    }
}

/// The help page `path` (after `help/`) names, if it is `tools/<id>` or `domains/<id>`.
fn help_target(path: &str) -> Option<ResourceUri> {
    let (kind, name) = path.split_once('/')?;
    let plain = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    match kind {
        "tools" if plain => Some(ResourceUri::ToolHelp(name.to_owned())),
        "domains" if plain => Some(ResourceUri::DomainHelp(name.to_owned())),
        _ => None,
    }
}

/// Percent-decodes one URI component; `None` for a `%` without two hex digits or bytes that
/// are not UTF-8.
fn decode(component: &str) -> Option<String> {
    let bytes = component.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while let Some(&byte) = bytes.get(at) {
        if byte == b'%' {
            let hex = |i: usize| bytes.get(i).and_then(|&b| char::from(b).to_digit(16));
            let value = hex(at + 1)? * 16 + hex(at + 2)?;
            out.push(u8::try_from(value).ok()?);
            at += 3;
        } else {
            out.push(byte);
            at += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The resource templates: notes by vault and path, and the two help pages.
pub fn templates() -> ListResourceTemplatesResult {
    ListResourceTemplatesResult::with_all_items(vec![
        ResourceTemplate::new("obsidian-tc://{vault}/{+path}", "note")
            .with_title("Vault note")
            .with_description(
                "A note by vault id and vault-relative path (e.g. obsidian-tc://main/Inbox/idea.md); \
                 reading it is read_note with the same checks.",
            )
            .with_mime_type(MARKDOWN),
        ResourceTemplate::new("obsidian-tc://help/tools/{name}", "tool-help")
            .with_title("Tool help")
            .with_description(
                "A tool's parameters, a minimal example call and the errors it can return.",
            )
            .with_mime_type(MARKDOWN),
        ResourceTemplate::new("obsidian-tc://help/domains/{domain}", "domain-help")
            .with_title("Domain help")
            .with_description("The tools of one domain, one line each.")
            .with_mime_type(MARKDOWN),
    ])
}

/// One page of `list_notes`, as its structured result says.
#[derive(Debug, Deserialize)]
struct NotePage {
    items: Vec<ListedNote>,
    cursor: Option<String>,
}

/// One note of a `list_notes` page.
#[derive(Debug, Deserialize)]
struct ListedNote {
    path: String,
    size: u64,
}

/// One `resources/list` page for `caller`: the help pages first (first page only), then up
/// to [`PAGE_SIZE`] notes the caller may read, vault after vault. The next cursor is the
/// URI of the page's last note.
pub fn list(
    dispatcher: &Dispatcher,
    caller: &Caller,
    cursor: Option<&str>,
) -> Result<ListResourcesResult, McpError> {
    let served = dispatcher.runtime().served();
    let vaults: Vec<String> = served.vaults_for(caller).map(|v| v.id.clone()).collect();
    let mut resources = Vec::new();
    let (mut index, mut after) = match cursor {
        None => {
            resources.extend(help::resources(served.registry(), caller));
            (0, None)
        }
        Some(cursor) => resume_at(cursor, &vaults)?,
    };
    let mut listed = 0;
    let mut next_cursor = None;
    while let Some(vault) = vaults.get(index) {
        let Some(page) = list_page(dispatcher, caller, vault, after.take(), PAGE_SIZE - listed)?
        else {
            break;
        };
        listed += page.items.len();
        let last = page.items.last().map(|note| note_uri(vault, &note.path));
        resources.extend(page.items.iter().map(|note| note_resource(vault, note)));
        index += 1;
        let more = page.cursor.is_some() || index < vaults.len();
        if listed >= PAGE_SIZE && more {
            next_cursor = last;
            break;
        }
    }
    let mut result = ListResourcesResult::with_all_items(resources);
    result.next_cursor = next_cursor;
    Ok(result)
}

/// Where a listing continues after `cursor` (the URI of the last note listed): the vault's
/// index in `vaults` and the path to list after.
fn resume_at(cursor: &str, vaults: &[String]) -> Result<(usize, Option<String>), McpError> {
    let stale = || {
        McpError::invalid_params(
            format!(
                "the cursor '{cursor}' is not one resources/list gave out, or its vault is no \
                 longer served; list again without a cursor"
            ),
            None,
        )
    };
    match ResourceUri::parse(cursor) {
        Ok(ResourceUri::Note { vault, path }) => vaults
            .iter()
            .position(|id| *id == vault)
            .map(|index| (index, Some(path)))
            .ok_or_else(stale),
        _ => Err(stale()),
    }
}

/// Up to `limit` notes of `vault` after `after`, through `list_notes`; `None` when the
/// caller may not list notes at all (the tool is hidden or a scope is missing).
fn list_page(
    dispatcher: &Dispatcher,
    caller: &Caller,
    vault: &str,
    after: Option<String>,
    limit: usize,
) -> Result<Option<NotePage>, McpError> {
    let mut args = json!({ VAULT_ARG: vault, "limit": limit });
    if let (Some(after), Some(object)) = (after, args.as_object_mut()) {
        object.insert("cursor".to_owned(), Value::String(after));
    }
    match dispatcher.call(caller, LIST_TOOL, args).result {
        Ok(value) => serde_json::from_value(value).map(Some).map_err(|e| {
            McpError::internal_error(
                format!("list_notes answered an unexpected shape: {e}"),
                None,
            )
        }),
        Err(error) if matches!(error.code, ErrorCode::NotFound | ErrorCode::Forbidden) => Ok(None),
        Err(error) => Err(refused(LIST_TOOL, &note_uri(vault, ""), &error)),
    }
}

/// The resource of one listed note.
fn note_resource(vault: &str, note: &ListedNote) -> Resource {
    let file = note.path.rsplit('/').next().unwrap_or(&note.path);
    let title = file.strip_suffix(".md").unwrap_or(file);
    Resource::new(note_uri(vault, &note.path), note.path.clone())
        .with_title(title)
        .with_mime_type(MARKDOWN)
        .with_size(note.size)
}

/// Reads the resource `uri` for `caller`: a note through `read_note`, or a help page.
pub fn read(
    dispatcher: &Dispatcher,
    caller: &Caller,
    uri: &str,
) -> Result<ReadResourceResult, McpError> {
    let text = match ResourceUri::parse(uri)? {
        ResourceUri::Note { vault, path } => read_note(dispatcher, caller, uri, &vault, &path)?,
        ResourceUri::ToolHelp(name) => {
            help::tool_page(&dispatcher.runtime().registry(), caller, &name)
                .ok_or_else(|| missing_help(uri, "tool"))?
        }
        ResourceUri::DomainHelp(domain) => {
            help::domain_page(&dispatcher.runtime().registry(), caller, &domain)
                .ok_or_else(|| missing_help(uri, "domain"))?
        }
    };
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type(MARKDOWN),
    ]))
}

/// Resource-not-found for a help page of an unknown (or hidden) tool or domain.
fn missing_help(uri: &str, what: &str) -> McpError {
    McpError::resource_not_found(
        format!(
            "no help at '{uri}': no such {what} is offered to this caller; list resources to see the help pages"
        ),
        uri_data(uri, None),
    )
}

/// The text of the note `path` in `vault`, read by `read_note` as `caller`.
fn read_note(
    dispatcher: &Dispatcher,
    caller: &Caller,
    uri: &str,
    vault: &str,
    path: &str,
) -> Result<String, McpError> {
    if dispatcher
        .runtime()
        .registry()
        .callable(READ_TOOL, caller)
        .is_none()
    {
        return Err(McpError::invalid_request(
            format!("'{uri}' cannot be read: the server does not offer read_note to this caller"),
            None,
        ));
    }
    let outcome = dispatcher.call(caller, READ_TOOL, json!({ VAULT_ARG: vault, "path": path }));
    let value = outcome
        .result
        .map_err(|error| refused(READ_TOOL, uri, &error))?;
    match value.get("content") {
        Some(Value::String(text)) => Ok(text.clone()),
        _ => Err(McpError::internal_error(
            "read_note answered without a text content",
            None,
        )),
    }
}

/// The `data` of a resource error: `uri` (the requested URI, as SEP-2164 asks) added to
/// `data` (an object), or alone.
fn uri_data(uri: &str, data: Option<Value>) -> Option<Value> {
    let mut data = match data {
        Some(Value::Object(map)) => map,
        _ => serde_json::Map::new(),
    };
    data.insert("uri".to_owned(), Value::from(uri));
    Some(Value::Object(data))
}

/// The MCP error for a refused resource request: resource-not-found (-32002) for
/// `not_found`, invalid params for bad paths, internal for faults, invalid request for the
/// policy refusals; the message carries the tool error's code, message and recovery, `data`
/// the whole tool error.
fn refused(tool: &str, uri: &str, error: &ToolError) -> McpError {
    let message = format!(
        "{tool} refused '{uri}': {}: {} (what to do: {})",
        error.code, error.message, error.recovery
    );
    let data = uri_data(uri, Some(error.to_structured()));
    match error.code {
        ErrorCode::NotFound => McpError::resource_not_found(message, data),
        ErrorCode::ValidationError | ErrorCode::InvalidInput | ErrorCode::PathInvalid => {
            McpError::invalid_params(message, data)
        }
        ErrorCode::Internal => McpError::internal_error(message, data),
        _ => McpError::invalid_request(message, data),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn note_uris_round_trip_through_parse() {
        let uri = note_uri("main", "Daily notes/Café #1.md");
        assert_eq!(uri, "obsidian-tc://main/Daily%20notes/Caf%C3%A9%20%231.md");
        assert_eq!(
            ResourceUri::parse(&uri).ok(),
            Some(ResourceUri::Note {
                vault: "main".to_owned(),
                path: "Daily notes/Café #1.md".to_owned()
            })
        );
    }

    #[test]
    fn parse_puts_the_path_in_nfc() {
        let nfd = "obsidian-tc://main/Cafe%CC%81.md";
        assert_eq!(
            ResourceUri::parse(nfd).ok(),
            Some(ResourceUri::Note {
                vault: "main".to_owned(),
                path: "Caf\u{e9}.md".to_owned()
            })
        );
    }

    #[test]
    fn help_uris_name_help_and_notes_in_a_vault_called_help_stay_notes() {
        assert_eq!(
            ResourceUri::parse("obsidian-tc://help/tools/read_note").ok(),
            Some(ResourceUri::ToolHelp("read_note".to_owned()))
        );
        assert_eq!(
            ResourceUri::parse("obsidian-tc://help/domains/notes").ok(),
            Some(ResourceUri::DomainHelp("notes".to_owned()))
        );
        assert!(matches!(
            ResourceUri::parse("obsidian-tc://help/tools/x.md"),
            Ok(ResourceUri::Note { .. })
        ));
    }

    #[test]
    fn malformed_uris_are_invalid_params() {
        for uri in [
            "file:///x.md",
            "obsidian-tc://main",
            "obsidian-tc://main/a//b.md",
            "obsidian-tc://main/a%2Fb.md",
            "obsidian-tc://main/bad%zz.md",
            "obsidian-tc://main/bad%FF.md",
        ] {
            let error = ResourceUri::parse(uri).expect_err(uri);
            assert_eq!(error.code, rmcp::model::ErrorCode::INVALID_PARAMS, "{uri}");
        }
    }
}

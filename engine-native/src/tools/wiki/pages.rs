//! The wiki as the tools read it: the vault's `wiki` config (its folder and raw folder), the
//! parsed `SCHEMA.md`, and the pages with the identity facts each carries (file name, title,
//! first H1, `aliases`, `wikidata`, `type`, `sources`).

use engine_core::acl::AclOp;
use engine_core::markdown::extract;
use serde_json::{Map, Value};

use super::schema::{SCHEMA_FILE, WikiSchema};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::frontmatter::read_text;
use crate::tools::common::preload::is_note_path;
use crate::tools::common::vault_error::tool_error_from_vault;
use crate::vault::{EntryKind, VaultError};

/// The generated list of pages by type, at the wiki folder's root.
pub(super) const INDEX_FILE: &str = "index.md";

/// The log `commit_wiki_page` appends to, at the wiki folder's root.
pub(super) const LOG_FILE: &str = "log.md";

/// Where the wiki is in the call's vault.
#[derive(Debug, Clone, Default)]
pub(super) struct WikiPlace {
    /// The wiki folder (`None`: no `wiki` config; the tools look at the whole vault).
    pub folder: Option<String>,
    /// The raw-sources folder (with a `wiki` config).
    pub raw_folder: Option<String>,
}

impl WikiPlace {
    /// The vault's `wiki` config.
    pub fn of(ctx: &ToolContext<'_>) -> WikiPlace {
        ctx.vault_config()
            .and_then(|vault| vault.wiki.as_ref())
            .map(|wiki| WikiPlace {
                folder: Some(wiki.folder().to_owned()),
                raw_folder: Some(wiki.raw_folder()),
            })
            .unwrap_or_default()
    }

    /// The configured wiki folder, or `invalid_input` saying how to configure one.
    pub fn required_folder(&self) -> Result<&str, ToolError> {
        self.folder.as_deref().ok_or_else(|| {
            ToolError::new(
                ErrorCode::InvalidInput,
                "this vault has no wiki folder: set vaults[].wiki.folder in the config (see the \
                 guide, \"The wiki\")",
            )
        })
    }

    /// `path` in the wiki folder (at its root without one).
    pub fn file(&self, name: &str) -> String {
        match &self.folder {
            Some(folder) if !folder.is_empty() => format!("{folder}/{name}"),
            _ => name.to_owned(),
        }
    }

    /// The wiki's `SCHEMA.md`, when it exists and the caller may read it.
    pub fn schema(&self, ctx: &ToolContext<'_>) -> Option<WikiSchema> {
        let path = self.file(SCHEMA_FILE);
        if !ctx.may(&path, AclOp::Read) {
            return None;
        }
        read_text(ctx.vault(), &path)
            .ok()
            .map(|note| WikiSchema::parse(&note.text))
    }

    /// Whether `path` is one of the wiki's own files (schema, index, log), not a page.
    pub fn is_own_file(&self, path: &str) -> bool {
        [SCHEMA_FILE, INDEX_FILE, LOG_FILE]
            .iter()
            .any(|name| self.file(name) == path)
    }
}

/// Whether `path` lies inside `folder` (everything does without one).
pub(super) fn inside(path: &str, folder: Option<&str>) -> bool {
    match folder.map(|folder| folder.trim_matches('/')) {
        None | Some("") => true,
        Some(folder) => path
            .strip_prefix(folder)
            .is_some_and(|rest| rest.starts_with('/')),
    }
}

/// One wiki page and the facts that identify it.
#[derive(Debug, Clone)]
pub(super) struct Page {
    /// The vault-relative path.
    pub path: String,
    /// The file name without `.md`.
    pub stem: String,
    /// The frontmatter properties (empty when none or invalid).
    pub properties: Map<String, Value>,
    /// The first level-1 heading.
    pub h1: Option<String>,
    /// The whole text.
    pub text: String,
    /// The SHA-256 of its bytes.
    pub sha256: String,
    /// Its last modification (Unix ms).
    pub modified_ms: i64,
    /// Obsidian's "Excluded files" (or `index.exclude`) names it: a link target still, never
    /// a similarity candidate.
    pub excluded: bool,
}

impl Page {
    /// The string value of property `key`.
    pub fn property(&self, key: &str) -> Option<&str> {
        self.properties
            .get(key)
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|value| !value.is_empty())
    }

    /// The strings of property `key` (a list, or a single string).
    pub fn list(&self, key: &str) -> Vec<String> {
        match self.properties.get(key) {
            Some(Value::Array(items)) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_owned)
                .collect(),
            Some(Value::String(one)) if !one.trim().is_empty() => vec![one.clone()],
            _ => Vec::new(),
        }
    }

    /// The page's `type`.
    pub fn kind(&self) -> Option<&str> {
        self.property("type")
    }

    /// The body after the frontmatter.
    pub fn body(&self) -> &str {
        body_of(&self.text)
    }
}

/// The text after a leading frontmatter block.
pub(super) fn body_of(text: &str) -> &str {
    let Some(rest) = text.strip_prefix("---\n") else {
        return text;
    };
    match rest.find("\n---\n") {
        Some(end) => &rest[end + 5..],
        None if rest.ends_with("\n---") => "",
        None => text,
    }
}

/// The folder a call looks at (`folder`, else the wiki folder, else the vault) and its
/// pages ([`read_pages`]).
pub(super) fn pages_in(
    ctx: &ToolContext<'_>,
    place: &WikiPlace,
    folder: Option<&str>,
) -> Result<(Option<String>, Vec<Page>), ToolError> {
    let folder = folder
        .map(|folder| folder.trim_matches('/').to_owned())
        .or_else(|| place.folder.clone());
    let pages = read_pages(ctx, place, folder.as_deref())?;
    Ok((folder, pages))
}

/// Reads the notes under `folder` (the whole vault with `None`) the caller may read, the
/// wiki's own files left out; a note that is not text or vanished is passed over.
pub(super) fn read_pages(
    ctx: &ToolContext<'_>,
    place: &WikiPlace,
    folder: Option<&str>,
) -> Result<Vec<Page>, ToolError> {
    let entries = match ctx.vault().list(folder) {
        Ok(entries) => entries,
        // The configured wiki folder before its first page is written: an empty wiki.
        Err(VaultError::NotFound { .. })
            if folder.is_some() && folder == place.folder.as_deref() =>
        {
            Vec::new()
        }
        Err(error) => return Err(tool_error_from_vault(&error, AclOp::Read)),
    };
    let exclusions = ctx.exclusions();
    let mut pages = Vec::new();
    for entry in entries {
        if entry.kind != EntryKind::File
            || !is_note_path(&entry.path)
            || place.is_own_file(&entry.path)
            || !ctx.may(&entry.path, AclOp::Read)
        {
            continue;
        }
        match read_text(ctx.vault(), &entry.path) {
            Ok(note) => pages.push(page(
                note.path,
                note.text,
                note.sha256,
                entry.modified_ms,
                exclusions.is_excluded(&entry.path),
            )),
            Err(VaultError::NotFound { .. } | VaultError::NotText { .. }) => {}
            Err(error) => return Err(tool_error_from_vault(&error, AclOp::Read)),
        }
    }
    pages.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(pages)
}

/// The page of a note's text.
pub(super) fn page(
    path: String,
    text: String,
    sha256: String,
    modified_ms: i64,
    excluded: bool,
) -> Page {
    let properties = crate::frontmatter::read(&text)
        .map(|frontmatter| frontmatter.properties)
        .unwrap_or_default();
    let h1 = extract(&text)
        .headings
        .into_iter()
        .find(|heading| heading.level == 1)
        .map(|heading| heading.heading);
    let name = path.rsplit('/').next().unwrap_or(&path);
    let stem = name.strip_suffix(".md").unwrap_or(name).to_owned();
    Page {
        path,
        stem,
        properties,
        h1,
        text,
        sha256,
        modified_ms,
        excluded,
    }
}

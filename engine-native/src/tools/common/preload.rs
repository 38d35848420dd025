//! Notes read whole to start a session: the vault's hand-off note (`vault_context` in
//! `bootstrap` mode, `session_bootstrap`) and the notes of `session_bootstrap`'s routing
//! table. Each is read under the caller's read ACL; a note the caller may not read is
//! skipped with the reason a missing one gets ([`SkipReason::NotFound`]), so what is hidden
//! looks like what is not there. A folder path gives its readable notes, newest first.

use engine_core::acl::AclOp;
use engine_core::markdown::frontmatter_of;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value};

use crate::config::BootstrapConfig;
use crate::content::injection::ContentFlags;
use crate::frontmatter;
use crate::runtime::ToolContext;
use crate::tools::common::budget::{Budget, clip_json};
use crate::vault::{EntryKind, TextFile, VaultError};

/// The vault's `bootstrap` section, or the defaults (no routing table, hand-off note
/// `_next-session.md`).
pub(crate) fn bootstrap_config(ctx: &ToolContext<'_>) -> BootstrapConfig {
    ctx.vault_config()
        .and_then(|vault| vault.bootstrap.clone())
        .unwrap_or_default()
}

/// A note read to start a session.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct LoadedNote {
    /// The canonical vault-relative path.
    pub(crate) path: String,
    /// The note's text after its frontmatter (LF line breaks, no BOM); only its start when
    /// `truncated`.
    pub(crate) content: String,
    /// The note's properties (empty without frontmatter; when the frontmatter is not valid
    /// YAML, empty and the whole text is `content`).
    pub(crate) frontmatter: Map<String, Value>,
    /// The SHA-256 of the whole file's bytes (`read_note`'s `sha256`).
    pub(crate) content_hash: String,
    /// Whether `content` was cut to fit the answer.
    pub(crate) truncated: bool,
    /// Shapes of prompt injection in the note (absent when none; the text is never
    /// altered).
    #[serde(flatten)]
    pub(crate) flags: ContentFlags,
}

/// Why a path was not loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SkipReason {
    /// No note or folder of readable notes is there, or you may not read it (one reason
    /// for both, so a hidden note looks like a missing one).
    NotFound,
    /// The note is not UTF-8 text.
    NotText,
    /// The vault could not read it just now (busy or an I/O fault); try again.
    Unreadable,
    /// `bootstrap.maxPaths` notes were already loaded.
    MaxPaths,
    /// The answer had no room left for it.
    NoRoom,
}

/// A path that was not loaded, and why.
#[derive(Debug, Serialize, JsonSchema)]
pub(crate) struct Skipped {
    /// The path as configured.
    pub(crate) path: String,
    /// Why it was not loaded.
    pub(crate) reason: SkipReason,
}

/// Whether `path` names a note (it ends in `.md`) rather than a folder.
pub(crate) fn is_note_path(path: &str) -> bool {
    path.rsplit_once('.')
        .is_some_and(|(_, ext)| ext.eq_ignore_ascii_case("md"))
}

/// The note at `path`, read whole for the caller.
pub(crate) fn load(ctx: &ToolContext<'_>, path: &str) -> Result<LoadedNote, SkipReason> {
    if !ctx.may(path, AclOp::Read) {
        return Err(SkipReason::NotFound);
    }
    let file = ctx
        .vault()
        .read(path)
        .map_err(|error| skip_reason(&error))?;
    let text = TextFile::decode(&file.bytes, &file.path)
        .map_err(|error| skip_reason(&error))?
        .text;
    let flags = ContentFlags::of(&text);
    let (frontmatter, content) = match (frontmatter_of(&text), frontmatter::read(&text)) {
        (Some(span), Ok(read)) => (read.properties, text[span.body_start..].to_owned()),
        _ => (Map::new(), text),
    };
    Ok(LoadedNote {
        path: file.path,
        content,
        frontmatter,
        content_hash: file.sha256,
        truncated: false,
        flags,
    })
}

/// The readable notes under the folder `folder` (in it and below), newest first; none when
/// it does not exist or is not a folder.
pub(crate) fn folder_notes(ctx: &ToolContext<'_>, folder: &str) -> Vec<String> {
    let Ok(mut entries) = ctx.vault().list(Some(folder.trim_matches('/'))) else {
        return Vec::new();
    };
    entries.retain(|entry| {
        entry.kind == EntryKind::File && is_note_path(&entry.path) && ctx.may_list(&entry.path)
    });
    entries.sort_by(|a, b| {
        b.modified_ms
            .cmp(&a.modified_ms)
            .then_with(|| a.path.cmp(&b.path))
    });
    entries.into_iter().map(|entry| entry.path).collect()
}

impl LoadedNote {
    /// The note fitted into `budget`: its path and properties whole, its content cut to at
    /// most `max_bytes` (inside a JSON string) and to what the budget has left;
    /// [`SkipReason::NoRoom`] when not even the path and properties fit.
    pub(crate) fn fit(mut self, budget: &mut Budget, max_bytes: usize) -> Result<Self, SkipReason> {
        let properties = Value::Object(self.frontmatter.clone()).to_string();
        budget
            .take(&[&self.path, &self.content_hash, &properties])
            .ok_or(SkipReason::NoRoom)?;
        let kept = budget.take_start(clip_json(&self.content, max_bytes)).len();
        self.truncated = kept < self.content.len();
        self.content.truncate(kept);
        Ok(self)
    }
}

/// The reason a read of a path the caller may read failed.
fn skip_reason(error: &VaultError) -> SkipReason {
    match error {
        VaultError::NotText { .. } => SkipReason::NotText,
        VaultError::Busy { .. } | VaultError::Io { .. } | VaultError::OutsideCall { .. } => {
            SkipReason::Unreadable
        }
        _ => SkipReason::NotFound,
    }
}

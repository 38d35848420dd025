//! Which notes reference which attachments: every Markdown note the caller may read is
//! parsed (engine-core `markdown::extract`), and each link and embed resolved among all the
//! vault's files with engine-core's [`LinkResolver`] (Obsidian's rules). A note the caller
//! may not read never counts.

use std::collections::BTreeMap;

use engine_core::acl::AclOp;
use engine_core::links::LinkResolver;
use engine_core::markdown::extract;

use crate::dispatch::ToolContext;
use crate::errors::ToolError;
use crate::tools::vault_error::tool_error_from_vault;
use crate::vault::{Entry, EntryKind};

/// The vault's files and the references between them.
pub(super) struct VaultFiles {
    /// Every listed file of the vault.
    pub(super) files: Vec<Entry>,
    /// The resolver over every file path.
    pub(super) resolver: LinkResolver,
}

/// Whether `path` is an attachment: not a note, canvas or base.
pub(super) fn is_attachment(path: &str) -> bool {
    !matches!(
        extension(path).to_ascii_lowercase().as_str(),
        "md" | "canvas" | "base"
    )
}

/// The extension of `path` without its dot (empty without one).
pub(super) fn extension(path: &str) -> &str {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rfind('.') {
        Some(dot) if dot > 0 => &name[dot + 1..],
        _ => "",
    }
}

/// Whether `path` is a Markdown note.
pub(super) fn is_note(path: &str) -> bool {
    extension(path).eq_ignore_ascii_case("md")
}

impl VaultFiles {
    /// Lists the vault.
    pub(super) fn load(ctx: &ToolContext<'_>) -> Result<VaultFiles, ToolError> {
        let files: Vec<Entry> = ctx
            .vault()
            .list(None)
            .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?
            .into_iter()
            .filter(|entry| entry.kind == EntryKind::File)
            .collect();
        let resolver = LinkResolver::new(files.iter().map(|entry| entry.path.as_str()))
            .map_err(|error| ToolError::internal(format!("a listed path is invalid: {error}")))?;
        Ok(VaultFiles { files, resolver })
    }

    /// For each referenced attachment: the referencing notes, sorted, each once. With
    /// `readable_only`, only the notes the caller may read count (what a caller is shown);
    /// without, every note (what a move must rewrite).
    pub(super) fn referencing_notes(
        &self,
        ctx: &ToolContext<'_>,
        readable_only: bool,
    ) -> BTreeMap<String, Vec<String>> {
        let mut by_target: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for entry in &self.files {
            if !is_note(&entry.path) || (readable_only && !ctx.may(&entry.path, AclOp::Read)) {
                continue;
            }
            let Some(text) = read_note_text(ctx, &entry.path) else {
                continue;
            };
            let meta = extract(&text);
            for link in meta.links.iter().chain(&meta.embeds) {
                if link.path.is_empty() {
                    continue;
                }
                let Some(target) = self.resolver.resolve(&link.path, &entry.path).first() else {
                    continue;
                };
                if is_attachment(target) {
                    let notes = by_target.entry(target.to_owned()).or_default();
                    if notes.last() != Some(&entry.path) {
                        notes.push(entry.path.clone());
                    }
                }
            }
        }
        by_target
    }
}

/// The text of the note at `path`, or `None` when it cannot be read as UTF-8.
pub(super) fn read_note_text(ctx: &ToolContext<'_>, path: &str) -> Option<String> {
    let file = ctx.vault().read(path).ok()?;
    String::from_utf8(file.bytes).ok()
}

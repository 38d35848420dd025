//! What a context tool ranks with: the vault's live index and, when an embedding provider is
//! configured, the vectors (so rankings are hybrid when vectors exist, lexical otherwise).

use std::sync::Arc;

use engine_core::acl::AclOp;

use crate::dispatch::ToolContext;
use crate::errors::ToolError;
use crate::index::VaultIndex;
use crate::index::retrieve::Retrieval;
use crate::index::semantic::{SemanticError, SemanticIndex};
use crate::tools::search::index_fault;

/// The bound vault's index and the vectors, if any.
pub(super) struct Searchable {
    /// The vault's live index.
    pub(super) index: Arc<VaultIndex>,
    /// The vectors of the configured provider.
    pub(super) semantic: Option<Arc<SemanticIndex>>,
}

impl Searchable {
    /// Opens the bound vault's index (and the vectors when a provider is configured).
    pub(super) fn open(ctx: &ToolContext<'_>) -> Result<Searchable, ToolError> {
        let indexes = ctx.dispatcher().indexes();
        let index = indexes
            .vault(ctx.store(), ctx.vault_id())
            .map_err(index_fault)?;
        let semantic = indexes
            .semantic(ctx.store(), &ctx.served().config().config.embeddings)
            .map_err(SemanticError::into_tool_error)?;
        Ok(Searchable { index, semantic })
    }

    /// Hybrid when vectors exist, else lexical.
    pub(super) fn retrieval(&self) -> Retrieval {
        match self.semantic {
            Some(_) => Retrieval::Hybrid,
            None => Retrieval::Lexical,
        }
    }
}

/// Whether the caller may read `path`.
pub(super) fn readable<'a>(ctx: &'a ToolContext<'_>) -> impl Fn(&str) -> bool + 'a {
    move |path: &str| ctx.may(path, AclOp::Read)
}

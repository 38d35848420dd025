//! What a ranking tool (the context and knowledge families) ranks with: the vault's live index and, when an embedding provider is
//! configured, the vectors (so rankings are hybrid when vectors exist, lexical otherwise).

use std::sync::{Arc, PoisonError};

use crate::errors::ToolError;
use crate::index::VaultIndex;
use crate::index::retrieve::{Retrieval, Retriever};
use crate::index::semantic::{SemanticError, SemanticIndex};
use crate::runtime::ToolContext;
use crate::tools::common::index::{index_fault, readable_chunks};

/// The bound vault's index and the vectors, if any.
pub(crate) struct Searchable {
    /// The vault's live index.
    pub(crate) index: Arc<VaultIndex>,
    /// The vectors of the configured provider.
    pub(crate) semantic: Option<Arc<SemanticIndex>>,
}

impl Searchable {
    /// Opens the bound vault's index (and the vectors when a provider is configured).
    pub(crate) fn open(ctx: &ToolContext<'_>) -> Result<Searchable, ToolError> {
        let indexes = ctx.runtime().indexes();
        let index = indexes
            .vault(ctx.store(), ctx.vault_id())
            .map_err(index_fault)?;
        let semantic = indexes
            .semantic(ctx.store(), &ctx.served().config().config.embeddings)
            .map_err(SemanticError::into_tool_error)?;
        Ok(Searchable { index, semantic })
    }

    /// Runs `rank` with a retriever over the index's view (read-locked meanwhile) and the
    /// vectors, admitting only the notes the caller may read.
    pub(crate) fn with_retriever<T>(
        &self,
        ctx: &ToolContext<'_>,
        rank: impl FnOnce(&Retriever<'_>) -> Result<T, ToolError>,
    ) -> Result<T, ToolError> {
        let view = self
            .index
            .view
            .read()
            .unwrap_or_else(PoisonError::into_inner);
        let allowed = |path: &str| ctx.may_list(path);
        let visible = readable_chunks(ctx, &view);
        rank(&Retriever {
            view: &view,
            visible: &visible,
            semantic: self.semantic.as_deref(),
            vault: ctx.vault_id(),
            allowed: &allowed,
            ranking: ctx.served().config().config.search.note_ranking(),
            lexical_weight: ctx.served().config().config.search.lexical_weight,
        })
    }

    /// Hybrid when vectors exist, else lexical.
    pub(crate) fn retrieval(&self) -> Retrieval {
        match self.semantic {
            Some(_) => Retrieval::Hybrid,
            None => Retrieval::Lexical,
        }
    }
}

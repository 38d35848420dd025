//! Exports for engine_core::links: Obsidian link resolution and link rewriting on moves.

use engine_core::links::{
    LinkMove, LinkResolver, LinkSpan, Moves, PathError, Resolution, RewriteError, SyntaxError,
    VaultChange, link_text_after_move as core_link_text_after_move, parse_link,
    rewrite_links as core_rewrite_links, rewrite_links_in_note, validate_vault_path,
};
use serde::{Deserialize, Serialize};

use super::ApiError;

/// Input of [`resolve_link`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveLinkInput {
    /// Every file of the vault, vault-relative with `/` separators.
    pub paths: Vec<String>,
    /// The note the link is written in.
    pub source: String,
    /// The link as written: `[[...]]`, `![[...]]`, `[text](dest)` or `![alt](dest)`.
    pub link: String,
}

/// How a link resolved.
#[derive(Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResolveStatus {
    /// Exactly one file matches.
    Resolved,
    /// Several files match; `path` is the one Obsidian opens.
    Ambiguous,
    /// No file matches.
    Unresolved,
}

/// Output of [`resolve_link`].
#[derive(Debug, Serialize)]
pub struct ResolveLinkOutput {
    /// Resolved, ambiguous or unresolved.
    pub status: ResolveStatus,
    /// The path used for resolution (trimmed; percent-decoded for markdown links).
    pub linkpath: String,
    /// The file the link opens (absent when unresolved).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Every matching file in Obsidian's order (only when ambiguous).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub candidates: Option<Vec<String>>,
    /// The `#heading`, `#^block` or other subpath, with its `#` (absent when there is none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subpath: Option<String>,
}

/// Resolves one link written in `source` against the vault `paths`, as Obsidian does.
pub fn resolve_link(input: ResolveLinkInput) -> Result<ResolveLinkOutput, ApiError> {
    validate_vault_path(&input.source).map_err(path_error)?;
    let resolver = LinkResolver::new(&input.paths).map_err(path_error)?;
    resolve_one(&resolver, &input.source, &input.link)
}

/// One link to resolve in [`ResolveLinksInput`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkInNote {
    /// The note the link is written in.
    pub source: String,
    /// The link as written.
    pub link: String,
}

/// Input of [`resolve_links`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ResolveLinksInput {
    /// Every file of the vault, vault-relative with `/` separators.
    pub paths: Vec<String>,
    /// The links to resolve.
    pub links: Vec<LinkInNote>,
}

/// A failure of one link in [`ResolveLinksOutput`].
#[derive(Debug, Serialize)]
pub struct LinkFailure {
    /// The error code `resolve_link` would have returned.
    pub code: String,
    /// Human-readable reason.
    pub message: String,
}

/// The outcome for one link of [`resolve_links`]: its resolution or why it has none.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub enum ResolveLinksItem {
    /// The link resolved (or was found unresolved or ambiguous).
    Resolution(ResolveLinkOutput),
    /// The link could not be looked up (not a link, an external URL, a bad source path).
    Failure {
        /// What went wrong.
        error: LinkFailure,
    },
}

/// Output of [`resolve_links`].
#[derive(Debug, Serialize)]
pub struct ResolveLinksOutput {
    /// One item per input link, in input order.
    pub results: Vec<ResolveLinksItem>,
}

/// Resolves many links against one vault, indexing the vault's paths once.
pub fn resolve_links(input: ResolveLinksInput) -> Result<ResolveLinksOutput, ApiError> {
    let resolver = LinkResolver::new(&input.paths).map_err(path_error)?;
    let results = input
        .links
        .iter()
        .map(|l| {
            validate_vault_path(&l.source)
                .map_err(path_error)
                .and_then(|()| resolve_one(&resolver, &l.source, &l.link))
                .map_or_else(
                    |e| ResolveLinksItem::Failure {
                        error: LinkFailure {
                            code: e.code,
                            message: e.message,
                        },
                    },
                    ResolveLinksItem::Resolution,
                )
        })
        .collect();
    Ok(ResolveLinksOutput { results })
}

/// Resolves `link` written in `source` with an already built resolver.
fn resolve_one(
    resolver: &LinkResolver,
    source: &str,
    link: &str,
) -> Result<ResolveLinkOutput, ApiError> {
    let parsed = parse_link(link).map_err(syntax_error)?;
    if parsed.external {
        return Err(ApiError::new(
            "external_link",
            format!("{link:?} is a URL, not a vault link"),
        ));
    }
    let (status, path, candidates) = match resolver.resolve(&parsed.linkpath, source) {
        Resolution::Resolved(p) => (ResolveStatus::Resolved, Some(p.to_string()), None),
        Resolution::Ambiguous(all) => (
            ResolveStatus::Ambiguous,
            Some(all[0].to_string()),
            Some(all.into_iter().map(String::from).collect()),
        ),
        Resolution::Unresolved => (ResolveStatus::Unresolved, None, None),
    };
    let subpath = (!parsed.subpath.is_empty()).then_some(parsed.subpath);
    Ok(ResolveLinkOutput {
        status,
        linkpath: parsed.linkpath,
        path,
        candidates,
        subpath,
    })
}

/// Input of [`link_text_after_move`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LinkTextAfterMoveInput {
    /// Every file of the vault after the move.
    pub paths: Vec<String>,
    /// The link as written before the move.
    pub link: String,
    /// The note holding the link, before the move.
    pub source: String,
    /// The note holding the link after the move, if the note itself moved.
    #[serde(default)]
    pub source_after: Option<String>,
    /// The file the link pointed to before the move.
    pub target_before: String,
    /// That file's path after the move (equal to `target_before` if only the note moved).
    pub target_after: String,
}

/// Output of [`link_text_after_move`].
#[derive(Debug, Serialize)]
pub struct LinkTextAfterMoveOutput {
    /// The link text to write.
    pub text: String,
    /// Whether it differs from the link before the move.
    pub changed: bool,
}

/// The text a link must become when its target (or the note holding it) moves, written in
/// the style the link was written in.
pub fn link_text_after_move(
    input: LinkTextAfterMoveInput,
) -> Result<LinkTextAfterMoveOutput, ApiError> {
    let after = LinkResolver::new(&input.paths).map_err(path_error)?;
    let mv = LinkMove {
        source_before: &input.source,
        source_after: input.source_after.as_deref().unwrap_or(&input.source),
        target_before: &input.target_before,
        target_after: &input.target_after,
    };
    let out = core_link_text_after_move(&input.link, &mv, &after).map_err(rewrite_error)?;
    Ok(LinkTextAfterMoveOutput {
        text: out.text,
        changed: out.changed,
    })
}

/// One move of a file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveInput {
    /// The file's path before the move.
    pub from: String,
    /// The file's path after the move.
    pub to: String,
}

/// Input of [`rewrite_note_links`].
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RewriteNoteLinksInput {
    /// The note's text.
    pub text: String,
    /// Where its links are (byte offsets into `text`, sorted, not overlapping); when absent,
    /// every link and embed the markdown extractor finds.
    #[serde(default)]
    pub spans: Option<Vec<LinkSpan>>,
    /// Every file of the vault before the moves.
    pub paths: Vec<String>,
    /// The note's path before the moves.
    pub note: String,
    /// The moves (the note itself may be among them).
    pub moves: Vec<MoveInput>,
}

/// One replaced link in [`RewriteNoteLinksOutput`].
#[derive(Debug, Serialize)]
pub struct LinkEditOutput {
    /// Byte offset of the link in the original text.
    pub start: usize,
    /// Byte offset one past the link in the original text.
    pub end: usize,
    /// The link as it was.
    pub old: String,
    /// The link as it is now.
    pub new: String,
}

/// One link left alone in [`RewriteNoteLinksOutput`].
#[derive(Debug, Serialize)]
pub struct SkippedLinkOutput {
    /// Byte offset of the link.
    pub start: usize,
    /// Byte offset one past the link.
    pub end: usize,
    /// Error code of the reason (`invalid_link`, `unrepresentable_link`, `unreachable_target`).
    pub code: String,
    /// Human-readable reason.
    pub message: String,
}

/// Output of [`rewrite_note_links`].
#[derive(Debug, Serialize)]
pub struct RewriteNoteLinksOutput {
    /// The note's text with its links rewritten.
    pub text: String,
    /// The links that changed.
    pub edits: Vec<LinkEditOutput>,
    /// The links that did not parse or could not be rewritten.
    pub skipped: Vec<SkippedLinkOutput>,
}

/// Rewrites the links of one note for a set of moves.
pub fn rewrite_note_links(
    input: RewriteNoteLinksInput,
) -> Result<RewriteNoteLinksOutput, ApiError> {
    let moves = Moves::new(input.moves.iter().map(|m| (m.from.as_str(), m.to.as_str())))
        .map_err(path_error)?;
    let before = LinkResolver::new(&input.paths).map_err(path_error)?;
    let after = LinkResolver::new(moves.apply(&input.paths)).map_err(path_error)?;
    let change = VaultChange {
        before: &before,
        after: &after,
        moves: &moves,
    };
    let out = match &input.spans {
        Some(spans) => core_rewrite_links(&input.text, spans, &input.note, &change),
        None => rewrite_links_in_note(&input.text, &input.note, &change),
    }
    .map_err(rewrite_error)?;
    Ok(RewriteNoteLinksOutput {
        text: out.text,
        edits: out
            .edits
            .into_iter()
            .map(|e| LinkEditOutput {
                start: e.start,
                end: e.end,
                old: e.old,
                new: e.new,
            })
            .collect(),
        skipped: out
            .skipped
            .into_iter()
            .map(|s| {
                let e = rewrite_error(s.reason);
                SkippedLinkOutput {
                    start: s.start,
                    end: s.end,
                    code: e.code,
                    message: e.message,
                }
            })
            .collect(),
    })
}

/// `invalid_path`: a path argument is not vault-relative.
fn path_error(e: PathError) -> ApiError {
    ApiError::new("invalid_path", e.to_string())
}

/// `invalid_link`: the link text does not parse.
fn syntax_error(e: SyntaxError) -> ApiError {
    ApiError::new("invalid_link", e.to_string())
}

/// The error code of each rewrite failure.
fn rewrite_error(e: RewriteError) -> ApiError {
    match e {
        RewriteError::Syntax(s) => syntax_error(s),
        RewriteError::Path(p) => path_error(p),
        RewriteError::Unrepresentable { .. } => {
            ApiError::new("unrepresentable_link", e.to_string())
        }
        RewriteError::Unreachable { .. } => ApiError::new("unreachable_target", e.to_string()),
        RewriteError::BadSpan { .. } => ApiError::new("invalid_span", e.to_string()),
    }
}

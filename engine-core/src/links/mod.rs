//! Obsidian link resolution and link rewriting on moves.
//!
//! - [`LinkResolver`] indexes the vault's paths once and resolves a linkpath written in a
//!   given note exactly as Obsidian's `getFirstLinkpathDest` does (case-insensitive, shortest
//!   unique name, folder paths by suffix, `./` and `../` relative to the note, `/`-absolute,
//!   `.md` optional), reporting ambiguous and unresolved links instead of failing.
//! - [`parse_link`] / [`parse_destination`] take a wikilink, embed or markdown link apart
//!   (subpath split off, markdown destinations percent-decoded).
//! - [`link_text_after_move`] computes the text a link must become when its target or the
//!   note holding it moves, in the style it was written in; [`rewrite_links`] does it for
//!   every link of a note given their [`LinkSpan`]s and a set of [`Moves`], and
//!   [`rewrite_links_in_note`] finds the spans itself with [`crate::markdown::extract`].

mod error;
mod fold;
mod note;
mod parse;
mod path;
mod percent;
mod resolver;
mod rewrite;

pub use crate::markdown::LinkSyntax;
pub use error::{PathError, RewriteError, SyntaxError};
pub use note::{
    LinkEdit, LinkSpan, Moves, NoteRewrite, SkippedLink, VaultChange, link_spans, rewrite_links,
    rewrite_links_in_note,
};
pub use parse::{ParsedLink, parse_destination, parse_link};
pub use path::validate_vault_path;
pub use resolver::{LinkResolver, Resolution};
pub use rewrite::{LinkMove, RewrittenLink, link_text_after_move};

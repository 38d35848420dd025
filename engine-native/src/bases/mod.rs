//! Obsidian Bases (`.base` files): the model ([`model`]), the expression language of
//! filters and formulas ([`expr`], [`check`], [`eval`], [`value`]) and running a view
//! ([`query`]). Pure: the host supplies the files ([`eval::FileFacts`]).
//!
//! Supported: filters as a statement or nested `and` / `or` / `not`; comparisons
//! (`== != < <= > >=`), `&& || !`, arithmetic (`+ - * / %`, text concatenation); the
//! functions in [`check::FUNCTIONS`], the methods in [`check::METHODS`] and the file fields
//! in [`check::FILE_FIELDS`]; note properties (`x`, `note.x`, `note["x"]`), `this`
//! (`this.file...`, `this.x`), formulas (`formula.x`, cycles refused); views with `order`,
//! `sort`, `limit` and `groupBy`. Anything else is a [`model::BaseError`] naming the
//! construct and where it is.

pub mod check;
pub mod eval;
pub mod expr;
pub mod model;
pub mod query;
pub mod value;

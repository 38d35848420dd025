//! Noninterference: what a caller can observe does not depend on what it may not read.
//!
//! Two vaults differ only inside `Secret/`, a folder the caller may not read. Every tool
//! that does not write, taken from the registry (a tool added later is covered without
//! touching this file), is called on both with arguments built from its input schema, and
//! the two results must be byte-identical once the volatile fields listed in
//! [`vaults::VOLATILE`] are set aside. Three ways of hiding the folder are tried: a folder
//! ACL (`readPaths`), `strictReadDefault` with a whitelist, and a JWT caller whose scopes
//! lack the one an ACL rule requires on `Secret/**`. A tool that cannot be covered is named
//! in [`reads::NOT_COVERED`] with the reason; the test fails when a listed tool is covered
//! after all or an unlisted one is not. Every mutating tool must refuse a path in `Secret/`
//! with the same answer whether the path exists or not ([`writes`]). The session-start tools
//! read notes named in the config, hidden ones among them ([`bootstrap`]).

mod args;
mod bootstrap;
mod reads;
mod vaults;
mod writes;

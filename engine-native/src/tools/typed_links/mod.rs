//! Typed links and frontmatter hygiene (AILSS's vault rules).
//!
//! A typed link is a frontmatter relation: a property whose value is a wikilink
//! (`part_of: "[[Project]]"`), or a note name under a key of the relation vocabulary
//! (`depends_on: Parser`), resolved exactly as Obsidian resolves the link.
//!
//! Domain `metadata`:
//! - `get_typed_links`: one note's relations, each with its resolution status.
//! - `find_typed_link_backrefs`: the notes whose relations open a note (optionally one key),
//!   ACL-filtered before counting, paged.
//! - `suggest_typed_links`: relations a note could declare for the notes its body links to,
//!   each with its rule and reason; read-only.
//!
//! Domain `frontmatter`:
//! - `frontmatter_validate`: required keys and the types declared in `.obsidian/types.json`,
//!   for one note, a folder or the vault.
//! - `improve_frontmatter`: the safe fixes of those problems, dry run by default.

mod backrefs;
mod check;
mod declared;
mod get;
mod improve;
mod relations;
mod suggest;
mod validate;
mod vocabulary;

use crate::runtime::{Handler, PathArg, Schemas, ToolDef};
use crate::tools::common::args::{PATH_READ, PATH_READ_WRITE, input_schema};
use crate::tools::common::structured::output_schema;

/// The static parts of one tool.
struct Spec {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    domain: &'static str,
    keywords: &'static [&'static str],
    scopes: &'static [&'static str],
    path_args: &'static [PathArg],
    idempotency: bool,
}

fn tool(spec: Spec, schemas: Schemas, handler: Handler) -> ToolDef {
    ToolDef::new(
        (spec.name, spec.title, spec.description),
        spec.domain,
        schemas,
        handler,
    )
    .keywords(spec.keywords)
    .scopes(spec.scopes)
    .paths(spec.path_args)
    .idempotent(spec.idempotency)
}

/// The typed-link and frontmatter hygiene tools.
pub fn tools() -> Vec<ToolDef> {
    vec![
        tool(
            Spec {
                name: "get_typed_links",
                title: "Get typed links",
                description: "List a note's typed links: frontmatter relations such as part_of, depends_on, instance_of holding wikilinks or note names, each with its key, raw value and the target it resolves to (or ambiguous, unresolved), as Obsidian resolves links.",
                domain: "metadata",
                keywords: &[
                    "depends on",
                    "typed links",
                    "relations",
                    "part_of",
                    "depends_on",
                    "instance_of",
                    "ontology",
                    "relationships",
                    "parent",
                ],
                scopes: &["read:notes"],
                path_args: PATH_READ,
                idempotency: false,
            },
            (
                input_schema::<get::GetTypedLinks>(),
                output_schema::<get::TypedLinks>(),
            ),
            get::get_typed_links,
        ),
        tool(
            Spec {
                name: "find_typed_link_backrefs",
                title: "Find typed link backrefs",
                description: "Find typed link backrefs: every file with a frontmatter relation (part_of, depends_on, ...) pointing at a given note, optionally one relation key only; paged.",
                domain: "metadata",
                keywords: &[
                    "parent",
                    "list it in a property",
                    "typed backlinks",
                    "incoming relations",
                    "backrefs",
                    "what is part of",
                    "dependents",
                    "what depends on",
                    "children",
                ],
                scopes: &["read:notes"],
                path_args: PATH_READ,
                idempotency: false,
            },
            (
                input_schema::<backrefs::FindBackrefs>(),
                output_schema::<backrefs::Backrefs>(),
            ),
            backrefs::find_typed_link_backrefs,
        ),
        tool(
            Spec {
                name: "suggest_typed_links",
                title: "Suggest typed links",
                description: "Suggest typed links for a note: each body link target that no frontmatter relation names yet, with a proposed key (part_of for its folder note, the key its folder siblings relate it by, else see_also) and the reason. Read-only.",
                domain: "metadata",
                keywords: &[
                    "relationship properties",
                    "relationship",
                    "typed link suggestions",
                    "propose relations",
                    "see_also",
                    "part_of",
                ],
                scopes: &["read:notes"],
                path_args: PATH_READ,
                idempotency: false,
            },
            (
                input_schema::<suggest::SuggestTypedLinks>(),
                output_schema::<suggest::Suggestions>(),
            ),
            suggest::suggest_typed_links,
        ),
        tool(
            Spec {
                name: "frontmatter_validate",
                title: "Validate frontmatter",
                description: "Validate frontmatter of a note, a folder or the vault: required keys present and each property's value of the type declared in Obsidian's property types (.obsidian/types.json), with the safe fix of each issue.",
                domain: "frontmatter",
                keywords: &[
                    "validate frontmatter",
                    "property types",
                    "required properties",
                    "schema check",
                    "lint yaml",
                    "check properties",
                    "invalid",
                    "wrong type",
                ],
                scopes: &["read:notes"],
                path_args: PATH_READ,
                idempotency: false,
            },
            (
                input_schema::<validate::Validate>(),
                output_schema::<validate::Validation>(),
            ),
            validate::frontmatter_validate,
        ),
        tool(
            Spec {
                name: "improve_frontmatter",
                title: "Improve frontmatter",
                description: "Fix a note's frontmatter issues that can be fixed safely: \"3\" to 3 for a number property, a single value to a list, dates normalised, missing required keys added empty. dry_run (default true) returns the exact diff; dry_run false writes it, keeping every other byte.",
                domain: "frontmatter",
                keywords: &[
                    "fix frontmatter",
                    "normalize properties",
                    "coerce property types",
                    "repair yaml",
                    "clean up properties",
                    "normalize dates",
                ],
                scopes: &["write:notes"],
                path_args: PATH_READ_WRITE,
                idempotency: true,
            },
            (
                input_schema::<improve::Improve>(),
                output_schema::<improve::Improved>(),
            ),
            improve::improve_frontmatter,
        ),
    ]
}

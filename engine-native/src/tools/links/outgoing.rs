//! `get_outgoing_links`: every link a note writes, with its kind, target as written,
//! subpath, line and where it resolves. A target the caller may not read is reported as
//! unresolved, so the answer never reveals a hidden note.

use engine_core::acl::AclOp;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{PATH_READ, input_schema, parse};
use crate::tools::common::link_table::{existing_note, link_table};
use crate::tools::common::structured::{output_schema, structured};

/// The arguments of `get_outgoing_links`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct OutgoingArgs {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
}

/// One outgoing link.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct OutgoingLink {
    /// `wikilink`, `embed`, `markdown` or `frontmatter`.
    pub(super) kind: String,
    /// The target's file part as written (empty for a same-note reference).
    pub(super) target: String,
    /// `#Heading` or `#^block`, when it points inside its target.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) subpath: Option<String>,
    /// The 1-based line (0 for a frontmatter link).
    pub(super) line: u32,
    /// `resolved` or `unresolved`.
    pub(super) status: &'static str,
    /// The file the link opens, when it is resolved.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) resolved_path: Option<String>,
}

/// What `get_outgoing_links` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct OutgoingResult {
    /// The note's canonical path.
    path: String,
    /// Its links in line order (frontmatter links first, at line 0).
    links: Vec<OutgoingLink>,
    /// How many of them resolve.
    resolved_count: usize,
    /// How many do not.
    unresolved_count: usize,
}

/// The `get_outgoing_links` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("get_outgoing_links", "Get outgoing links", "List the outgoing links of a note (wikilinks, embeds, markdown and frontmatter links): target as written, subpath, line, and whether and where it resolves, as Obsidian does."),
"links",
(input_schema::<OutgoingArgs>(), output_schema::<OutgoingResult>()),
get_outgoing_links,
)
.keywords(&["forward links", "links from", "links out", "what does this note link to", "embeds", "wikilinks", "outbound", "outgoing"])
.scopes(&["read:notes"])
.paths(PATH_READ)
}

fn get_outgoing_links(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: OutgoingArgs = parse(args)?;
    let table = link_table(ctx)?;
    let path = existing_note(ctx, &table, &args.path)?;
    let mut links: Vec<OutgoingLink> = table
        .outgoing(&path)
        .map(|link| {
            let visible = link
                .resolved
                .clone()
                .filter(|target| ctx.may(target, AclOp::Read));
            OutgoingLink {
                kind: link.kind.clone(),
                target: link.target.clone(),
                subpath: link.subpath.clone(),
                line: link.line,
                status: if visible.is_some() {
                    "resolved"
                } else {
                    "unresolved"
                },
                resolved_path: visible,
            }
        })
        .collect();
    links.sort_by_key(|link| link.line);
    let resolved_count = links.iter().filter(|l| l.resolved_path.is_some()).count();
    structured(&OutgoingResult {
        unresolved_count: links.len() - resolved_count,
        path,
        links,
        resolved_count,
    })
}

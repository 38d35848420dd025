//! `get_backlinks`: the notes that link to a note, each with the lines its links are on and
//! the text of those lines; paged by linking note. Only notes the caller may read count, so
//! a hidden note's links are never reported.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::errors::ToolError;
use crate::index::links::ResolvedLink;
use crate::runtime::{ToolContext, ToolDef};
use crate::tools::common::args::{PATH_READ, input_schema, parse};
use crate::tools::common::link_table::{existing_note, link_table};
use crate::tools::common::paging::{CursorLength, Page, PageArgs, Paging, page};
use crate::tools::common::structured::{output_schema, structured};
use crate::vault::TextFile;

/// The longest context line returned, in characters (longer ones are cut).
const MAX_CONTEXT_CHARS: usize = 300;

/// The arguments of `get_backlinks`.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct BacklinksArgs {
    /// The vault-relative path of the note.
    #[schemars(length(min = 1, max = 1024))]
    path: String,
    /// The paging arguments, `limit` and `cursor`.
    #[serde(flatten)]
    page: PageArgs<BacklinkPaging>,
}

/// `get_backlinks` pages by 100 linking notes (at most 1000).
struct BacklinkPaging;

impl Paging for BacklinkPaging {
    const ITEMS: &'static str = "linking notes";
    const CURSOR: CursorLength = CursorLength::between(1, 32);
}

/// One link to the note.
#[derive(Debug, Serialize, JsonSchema)]
struct BacklinkOccurrence {
    /// The 1-based line (0 for a frontmatter link).
    line: u32,
    /// `wikilink`, `embed`, `markdown` or `frontmatter`.
    kind: String,
    /// `#Heading` or `#^block`, when it points inside the note.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    subpath: Option<String>,
    /// The text of that line (cut at 300 characters; empty for a frontmatter link).
    context: String,
}

/// One note linking to the note.
#[derive(Debug, Serialize, JsonSchema)]
struct Backlink {
    /// The linking note.
    source: String,
    /// Its links to the note, in line order.
    links: Vec<BacklinkOccurrence>,
}

/// What `get_backlinks` returns.
#[derive(Debug, Serialize, JsonSchema)]
struct BacklinksResult {
    /// The note's canonical path.
    path: String,
    /// The linking notes, by path.
    #[serde(flatten)]
    page: Page<Backlink>,
}

/// The `get_backlinks` tool.
pub(super) fn tool() -> ToolDef {
    ToolDef::new(
("get_backlinks", "Get backlinks", "List the backlinks of a note: the notes linking to or embedding it, with line numbers and context, resolved as Obsidian does. Paged."),
"links",
(input_schema::<BacklinksArgs>(), output_schema::<BacklinksResult>()),
get_backlinks,
)
.keywords(&["incoming links", "linked mentions", "who links here", "references to", "citations", "inbound", "backlinks", "linking to", "links to this note", "notes that link here"])
.scopes(&["read:notes"])
.paths(PATH_READ)
}

fn get_backlinks(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: BacklinksArgs = parse(args)?;
    let table = link_table(ctx)?;
    let path = existing_note(ctx, &table, &args.path)?;
    let mut by_source: BTreeMap<&str, Vec<&ResolvedLink>> = BTreeMap::new();
    for link in table.incoming(&path) {
        by_source.entry(&link.source).or_default().push(link);
    }
    let sources: Vec<(&str, Vec<&ResolvedLink>)> = by_source
        .into_iter()
        .filter(|(source, _)| ctx.may_list(source))
        .collect();
    let page = page(sources, args.page.cursor(), args.page.limit())?;
    let items = page
        .items
        .into_iter()
        .map(|(source, links)| backlink(ctx, source, &links))
        .collect();
    structured(&BacklinksResult {
        path: path.clone(),
        page: Page {
            items,
            total_count: page.total_count,
            cursor: page.cursor,
        },
    })
}

/// The backlink entry of `source`, with the text of each link's line read from the note
/// as it is now (empty when the note cannot be read or the line is gone).
fn backlink(ctx: &ToolContext<'_>, source: &str, links: &[&ResolvedLink]) -> Backlink {
    let text = ctx
        .vault()
        .read(source)
        .ok()
        .and_then(|file| TextFile::decode(&file.bytes, &file.path).ok())
        .map(|file| file.text)
        .unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    Backlink {
        source: source.to_owned(),
        links: links
            .iter()
            .map(|link| BacklinkOccurrence {
                line: link.line,
                kind: link.kind.clone(),
                subpath: link.subpath.clone(),
                context: context_line(&lines, link.line),
            })
            .collect(),
    }
}

/// Line `line` (1-based) of `lines`, cut at [`MAX_CONTEXT_CHARS`]; empty for line 0.
fn context_line(lines: &[&str], line: u32) -> String {
    let Some(index) = usize::try_from(line).ok().and_then(|l| l.checked_sub(1)) else {
        return String::new();
    };
    lines
        .get(index)
        .map(|text| {
            text.trim_end_matches('\r')
                .chars()
                .take(MAX_CONTEXT_CHARS)
                .collect()
        })
        .unwrap_or_default()
}

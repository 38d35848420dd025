//! The Obsidian tools (domain `obsidian`): what only a running Obsidian can do, carried out by
//! TC Bridge, the vault's companion plugin, through its Companion API routes
//! ([`crate::companion`]). Each passes the whole dispatch pipeline like every other tool
//! (scopes, folder ACL on its path arguments, HITL, rate limits, journal) before the server
//! calls the route.
//!
//! Commands (`list_commands`, `execute_command`), Dataview (`search_dql`, `validate_dql`,
//! `eval_dataview_field`), Tasks (`tasks_filter`), Templater (`list_templates`,
//! `execute_template`), QuickAdd (`list_quickadd_actions`, `trigger_quickadd`), Text Extractor
//! (`ocr_attachment`, `ocr_bulk`), Excalidraw (`read_excalidraw`, which reads the file itself
//! when Obsidian cannot; `create_excalidraw`, `update_excalidraw`), make.md
//! (`makemd_list_spaces`, `makemd_query`), Omnisearch (`search_omnisearch`), daily notes
//! (`resolve_daily_note`), the editor (`get_active_note`, `open_note`), Remotely Save
//! (`remotely_save_status`, `remotely_save_trigger`), Datacore (`query_datacore`), Metadata
//! Menu (`read_metadata_fields`), and `refresh_plugin_capabilities` (admin: probe the
//! companion again).
//!
//! Without a companion an Obsidian tool answers `plugin_missing` (`details.plugin: tc-bridge`,
//! the install command in `details.install`); with one it answers `plugin_unreachable`
//! (retryable), `plugin_incompatible`, or `plugin_missing` naming the plugin inside Obsidian.

mod answers;
mod args;
mod capabilities;
mod excalidraw_file;
mod forward;
mod lz_string;

use engine_core::acl::AclOp;
use schemars::JsonSchema;

use crate::runtime::{Handler, PathArg, ToolDef};
use crate::tools::common::args::{PATH_READ, PATH_READ_WRITE, input_schema};
use crate::tools::common::structured::output_schema;

use answers::{DatacoreRows, MetadataFields, SyncStatus, SyncTriggered, answered};
use args::{
    CreateExcalidraw, EvalDataviewField, ExecuteCommand, ExecuteTemplate, GetActiveNote,
    ListCommands, ListQuickaddActions, ListTemplates, MakemdListSpaces, MakemdQuery, ObsidianCall,
    OcrAttachment, OcrBulk, OpenNote, QueryDatacore, ReadExcalidraw, ReadMetadataFields,
    RemotelySaveStatus, RemotelySaveTrigger, ResolveDailyNote, SearchDql, SearchOmnisearch,
    TasksFilter, TriggerQuickadd, UpdateExcalidraw, ValidateDql,
};
use forward::forward;

/// `path` written.
const PATH_WRITE: &[PathArg] = &[PathArg {
    name: "path",
    op: AclOp::Write,
}];

/// `origin` read.
const ORIGIN_READ: &[PathArg] = &[PathArg {
    name: "origin",
    op: AclOp::Read,
}];

/// `template` read, `target` written.
const TEMPLATE_TO_TARGET: &[PathArg] = &[
    PathArg {
        name: "template",
        op: AclOp::Read,
    },
    PathArg {
        name: "target",
        op: AclOp::Write,
    },
];

/// What an Obsidian tool declares beside its argument type.
struct Spec {
    name: &'static str,
    title: &'static str,
    description: &'static str,
    keywords: &'static [&'static str],
    scopes: &'static [&'static str],
    path_args: &'static [PathArg],
}

/// The facade domain of the tools that run inside Obsidian through TC Bridge.
pub const OBSIDIAN_DOMAIN: &str = "obsidian";

/// The Obsidian tool `spec` whose arguments are `T`, run by `handler`.
fn bridge<T: ObsidianCall>(spec: Spec, handler: Handler) -> ToolDef {
    ToolDef::new(
        (spec.name, spec.title, spec.description),
        OBSIDIAN_DOMAIN,
        (input_schema::<T>(), None),
        handler,
    )
    .keywords(spec.keywords)
    .scopes(spec.scopes)
    .paths(spec.path_args)
}

/// The Obsidian tool `spec` forwarded as is to its route.
fn routed<T: ObsidianCall>(spec: Spec) -> ToolDef {
    bridge::<T>(spec, forward::<T>)
}

/// The Obsidian tool `spec` run by `handler`, whose answer is `O` (its output schema).
fn typed<T: ObsidianCall, O: JsonSchema>(spec: Spec, handler: Handler) -> ToolDef {
    ToolDef {
        output_schema: output_schema::<O>(),
        ..bridge::<T>(spec, handler)
    }
}

/// The Obsidian tools and `refresh_plugin_capabilities`.
pub fn tools() -> Vec<ToolDef> {
    let mut tools = commands();
    tools.extend(plugins());
    tools.extend(excalidraw());
    tools.extend(editor());
    tools.extend(sync_and_metadata());
    tools.push(capabilities::tool());
    tools
}

fn commands() -> Vec<ToolDef> {
    vec![
        routed::<ListCommands>(Spec {
            name: "list_commands",
            title: "List Obsidian commands",
            description: "The commands of the running Obsidian's command palette (id, name, whether the allowlist lets execute_command run it), filtered by a substring. Needs TC Bridge.",
            keywords: &[
                "what commands",
                "commands available",
                "command palette",
                "commands",
                "hotkeys",
            ],
            scopes: &["read:command"],
            path_args: &[],
        }),
        routed::<ExecuteCommand>(Spec {
            name: "execute_command",
            title: "Execute an Obsidian command",
            description: "Run an Obsidian command by id (see list_commands) in the running app. Always asks the human first. Needs TC Bridge.",
            keywords: &["run command", "command palette", "trigger"],
            scopes: &["execute:command"],
            path_args: &[],
        }),
    ]
}

fn plugins() -> Vec<ToolDef> {
    vec![
        routed::<SearchDql>(Spec {
            name: "search_dql",
            title: "Dataview query",
            description: "Run a Dataview DQL query (TABLE, LIST, TASK, CALENDAR; read-only) in the running Obsidian and get its rows; notes the caller may not read are left out. Needs TC Bridge and Dataview.",
            keywords: &["dataview", "dql", "query", "table"],
            scopes: &["read:notes", "read:dataview"],
            path_args: ORIGIN_READ,
        }),
        routed::<ValidateDql>(Spec {
            name: "validate_dql",
            title: "Validate a Dataview query",
            description: "Parse a Dataview DQL query without running it: ok, or the parse error and where it is. Needs TC Bridge and Dataview.",
            keywords: &[
                "written correctly",
                "correct",
                "valid",
                "dataview",
                "dql",
                "syntax",
                "parse",
            ],
            scopes: &["read:dataview"],
            path_args: &[],
        }),
        routed::<EvalDataviewField>(Spec {
            name: "eval_dataview_field",
            title: "Evaluate a Dataview expression",
            description: "Evaluate a Dataview expression (e.g. length(file.outlinks)) with one note as its context. Needs TC Bridge and Dataview.",
            keywords: &["dataview", "field", "expression", "inline field"],
            scopes: &["read:dataview"],
            path_args: PATH_READ,
        }),
        routed::<TasksFilter>(Spec {
            name: "tasks_filter",
            title: "Filter tasks (Tasks plugin)",
            description: "The tasks the Tasks plugin has parsed, filtered by status, due dates, path, description, tag and priority. Needs TC Bridge and Tasks; list_tasks works without Obsidian.",
            keywords: &["priority", "tasks plugin", "todo", "due", "checklist"],
            scopes: &["read:tasks"],
            path_args: &[],
        }),
        routed::<ListTemplates>(Spec {
            name: "list_templates",
            title: "List Templater templates",
            description: "The Templater templates of the running Obsidian, with their paths. Needs TC Bridge and Templater.",
            keywords: &["templater", "templates"],
            scopes: &["read:templater"],
            path_args: &[],
        }),
        routed::<ExecuteTemplate>(Spec {
            name: "execute_template",
            title: "Run a Templater template",
            description: "Create a new note at target from a Templater template (the template's code runs in Obsidian). Always asks the human first; never overwrites. Needs TC Bridge and Templater.",
            keywords: &["templater", "new note from template", "template"],
            scopes: &["write:templater"],
            path_args: TEMPLATE_TO_TARGET,
        }),
        routed::<ListQuickaddActions>(Spec {
            name: "list_quickadd_actions",
            title: "List QuickAdd actions",
            description: "The QuickAdd choices (templates, captures, macros) with their type and group. Needs TC Bridge and QuickAdd.",
            keywords: &["quickadd", "macro", "capture"],
            scopes: &["read:quickadd"],
            path_args: &[],
        }),
        routed::<TriggerQuickadd>(Spec {
            name: "trigger_quickadd",
            title: "Run a QuickAdd action",
            description: "Run a QuickAdd choice by name with values for its placeholders. Always asks the human first. Needs TC Bridge and QuickAdd.",
            keywords: &[
                "fire",
                "run quickadd",
                "quickadd",
                "macro",
                "capture",
                "run",
            ],
            scopes: &["execute:quickadd"],
            path_args: &[],
        }),
        routed::<OcrAttachment>(Spec {
            name: "ocr_attachment",
            title: "OCR an attachment",
            description: "The text of one image or PDF attachment, extracted by the Text Extractor plugin. Needs TC Bridge and Text Extractor.",
            keywords: &[
                "text on the image",
                "receipt",
                "text in a picture",
                "ocr",
                "image text",
                "pdf text",
                "text extractor",
            ],
            scopes: &["read:ocr"],
            path_args: PATH_READ,
        }),
        routed::<OcrBulk>(Spec {
            name: "ocr_bulk",
            title: "OCR many attachments",
            description: "The text of several attachments (given paths, or the supported files of a folder), each with its own result; more than 20 files asks the human in Obsidian. Needs TC Bridge and Text Extractor.",
            keywords: &[
                "scanned",
                "pdfs",
                "all the scans",
                "ocr",
                "image text",
                "pdf text",
                "text extractor",
                "batch",
            ],
            scopes: &["read:ocr"],
            path_args: &[],
        }),
        routed::<MakemdListSpaces>(Spec {
            name: "makemd_list_spaces",
            title: "List make.md spaces",
            description: "make.md's spaces (folder, tag and other spaces) with their contexts. Needs TC Bridge and make.md.",
            keywords: &["make.md", "spaces"],
            scopes: &["read:makemd"],
            path_args: &[],
        }),
        routed::<MakemdQuery>(Spec {
            name: "makemd_query",
            title: "Query a make.md space",
            description: "The rows of a make.md space's context table. Needs TC Bridge and make.md.",
            keywords: &["make.md", "space", "context", "table"],
            scopes: &["read:makemd"],
            path_args: &[],
        }),
        routed::<SearchOmnisearch>(Spec {
            name: "search_omnisearch",
            title: "Omnisearch",
            description: "Ranked full-text search with the Omnisearch plugin's index (with excerpts and matched words). Needs TC Bridge and Omnisearch; search_vault works without Obsidian.",
            keywords: &["omnisearch", "full text", "search"],
            scopes: &["read:omnisearch"],
            path_args: &[],
        }),
        routed::<ResolveDailyNote>(Spec {
            name: "resolve_daily_note",
            title: "Resolve a daily note",
            description: "The path of the daily note for a date (default today) with the core Daily notes plugin's folder and format, whether it exists, and its template. Needs TC Bridge; get_periodic_note works without Obsidian.",
            keywords: &[
                "where would",
                "which path",
                "path for a date",
                "daily note",
                "today",
                "journal",
            ],
            scopes: &["read:daily-notes"],
            path_args: &[],
        }),
    ]
}

fn excalidraw() -> Vec<ToolDef> {
    vec![
        bridge::<ReadExcalidraw>(
            Spec {
                name: "read_excalidraw",
                title: "Read an Excalidraw drawing",
                description: "An Excalidraw drawing's elements and the text of its text elements: through Obsidian's Excalidraw when it runs, otherwise from the drawing file (source: filesystem forces that).",
                keywords: &[
                    "what's written in",
                    "excalidraw",
                    "drawing",
                    "diagram",
                    "sketch",
                ],
                scopes: &["read:excalidraw"],
                path_args: PATH_READ,
            },
            excalidraw_file::read_excalidraw,
        ),
        routed::<CreateExcalidraw>(Spec {
            name: "create_excalidraw",
            title: "Create an Excalidraw drawing",
            description: "Create a new Excalidraw drawing (.excalidraw.md) with rectangles, texts, arrows and lines; never overwrites. Needs TC Bridge and Excalidraw.",
            keywords: &[
                "sketch",
                "boxes",
                "excalidraw",
                "drawing",
                "diagram",
                "new drawing",
            ],
            scopes: &["write:excalidraw"],
            path_args: PATH_WRITE,
        }),
        routed::<UpdateExcalidraw>(Spec {
            name: "update_excalidraw",
            title: "Update an Excalidraw drawing",
            description: "Add elements to and remove elements (by id, see read_excalidraw) from an Excalidraw drawing. Needs TC Bridge and Excalidraw.",
            keywords: &["excalidraw", "drawing", "diagram", "edit drawing"],
            scopes: &["write:excalidraw"],
            path_args: PATH_READ_WRITE,
        }),
    ]
}

fn editor() -> Vec<ToolDef> {
    vec![
        routed::<GetActiveNote>(Spec {
            name: "get_active_note",
            title: "Get the active note",
            description: "The note open in Obsidian's active editor: path, frontmatter and text ({note: null} when none). Needs TC Bridge.",
            keywords: &[
                "looking at",
                "right now",
                "current note",
                "open note",
                "editor",
                "focused",
            ],
            scopes: &["read:notes"],
            path_args: &[],
        }),
        routed::<OpenNote>(Spec {
            name: "open_note",
            title: "Open a note in Obsidian",
            description: "Open a note in the running Obsidian (optionally in a new tab) to show it to the user. Needs TC Bridge.",
            keywords: &["show note", "navigate", "focus", "open in obsidian"],
            scopes: &["read:notes"],
            path_args: PATH_READ,
        }),
    ]
}

fn sync_and_metadata() -> Vec<ToolDef> {
    vec![
        typed::<RemotelySaveStatus, SyncStatus>(
            Spec {
                name: "remotely_save_status",
                title: "Remotely Save sync status",
                description: "Remotely Save's sync state in the running Obsidian: sync_status (idle, syncing, ...; unknown when its version does not say) and last_success_sync (ms since the epoch, null before the first success). A backup check independent of the vault files. Needs TC Bridge and Remotely Save.",
                keywords: &[
                    "remotely save",
                    "last sync",
                    "sync status",
                    "backed up",
                    "cloud backup",
                ],
                scopes: &["read:remotely-save"],
                path_args: &[],
            },
            answered::<RemotelySaveStatus, SyncStatus>,
        ),
        typed::<RemotelySaveTrigger, SyncTriggered>(
            Spec {
                name: "remotely_save_trigger",
                title: "Start a Remotely Save sync",
                description: "Start a Remotely Save sync run in the running Obsidian (its command remotely-save:start-sync) and return at once with {triggered, fired_at} (ms): poll remotely_save_status until last_success_sync reaches fired_at. Needs TC Bridge with writes on and Remotely Save.",
                keywords: &["remotely save", "sync now", "start sync", "cloud backup"],
                scopes: &["write:remotely-save"],
                path_args: &[],
            },
            answered::<RemotelySaveTrigger, SyncTriggered>,
        ),
        typed::<QueryDatacore, DatacoreRows>(
            Spec {
                name: "query_datacore",
                title: "Datacore query",
                description: "Run a query in Datacore's own language (e.g. @page and #book) in the running Obsidian: rows {path, name, tags, types, fields} with frontmatter values as JSON, at most 500; rows naming notes the caller may not read are left out. Needs TC Bridge and Datacore.",
                keywords: &["datacore", "@page", "datacore query"],
                scopes: &["read:datacore"],
                path_args: &[],
            },
            answers::query_datacore,
        ),
        typed::<ReadMetadataFields, MetadataFields>(
            Spec {
                name: "read_metadata_fields",
                title: "Read Metadata Menu fields",
                description: "A note's fields as the Metadata Menu plugin types them: each field's value, type (Select, Date, ...), whether the value is valid, and where it is defined (fileClass or settings). Needs TC Bridge and Metadata Menu; read_frontmatter gives the raw values without Obsidian.",
                keywords: &["metadata menu", "fileclass", "field types", "valid fields"],
                scopes: &["read:metadata-menu"],
                path_args: PATH_READ,
            },
            answers::read_metadata_fields,
        ),
    ]
}

//! The arguments of each Obsidian tool (the JSON TC Bridge's route takes, field for field) and
//! the route each one calls, as [`ObsidianCall`]s: the route, the plugin it needs and its timeout
//! come from the Companion API contract ([`crate::companion::contract`]).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::companion::Needs;
use crate::companion::contract::tool;

/// An Obsidian tool's arguments and where they go.
pub(crate) trait ObsidianCall: DeserializeOwned + Serialize + JsonSchema {
    /// The route under `/obsidian-tc/v1`.
    const ROUTE: &'static str;
    /// The plugin it needs inside Obsidian, when one.
    const NEEDS: Option<Needs> = None;
    /// Whether it gets the slow timeout (OCR, Templater, QuickAdd).
    const SLOW: bool = false;
    /// The `mode` the route chooses its tool by, when it shares a route.
    const MODE: Option<&'static str> = None;
}

/// Implements [`ObsidianCall`] for `$args` with the route of the contract's tool `$tool`
/// ([`crate::companion::contract::tool`]).
macro_rules! obsidian_call {
    ($args:ty, $tool:ident) => {
        impl ObsidianCall for $args {
            const ROUTE: &'static str = tool::$tool.path;
            const NEEDS: Option<Needs> = tool::$tool.needs;
            const SLOW: bool = tool::$tool.slow();
            const MODE: Option<&'static str> = tool::$tool.mode;
        }
    };
}

/// `list_commands`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListCommands {
    /// Case-insensitive filter on the command id and name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// The most commands returned (default 200).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: Option<u32>,
}
obsidian_call!(ListCommands, LIST_COMMANDS);

/// `execute_command`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExecuteCommand {
    /// The command id, e.g. `editor:toggle-bold` (see list_commands).
    #[schemars(length(min = 1))]
    pub id: String,
}
obsidian_call!(ExecuteCommand, EXECUTE_COMMAND);

/// `search_dql`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchDql {
    /// The DQL query, e.g. `TABLE file.mtime FROM "Projects" SORT file.mtime DESC`.
    #[schemars(length(min = 1))]
    pub query: String,
    /// The note the query runs from (for `this` and relative links).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
}
obsidian_call!(SearchDql, SEARCH_DQL);

/// `validate_dql`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ValidateDql {
    /// The DQL query to parse.
    #[schemars(length(min = 1))]
    pub query: String,
}
obsidian_call!(ValidateDql, VALIDATE_DQL);

/// `eval_dataview_field`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct EvalDataviewField {
    /// The note whose fields the expression reads.
    #[schemars(length(min = 1))]
    pub path: String,
    /// The Dataview expression, e.g. `length(file.outlinks)`.
    #[schemars(length(min = 1))]
    pub expression: String,
}
obsidian_call!(EvalDataviewField, EVAL_DATAVIEW_FIELD);

/// `tasks_filter` (every filter optional, combined with AND).
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TasksFilter {
    /// The status type: `open` (default), `done`, `cancelled`, `in_progress`, `non_task`,
    /// `any`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    /// Due strictly before this YYYY-MM-DD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_before: Option<String>,
    /// Due strictly after this YYYY-MM-DD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_after: Option<String>,
    /// Due on this YYYY-MM-DD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub due_on: Option<String>,
    /// Whether the task has a due date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub has_due_date: Option<bool>,
    /// A substring of the task's note path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_includes: Option<String>,
    /// A substring of the description (case-insensitive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description_includes: Option<String>,
    /// A tag such as `#work` (nested tags match too).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tag: Option<String>,
    /// The priority name (`highest` ... `lowest`, `none`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<String>,
    /// The most tasks returned (default 100).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 1000))]
    pub limit: Option<u32>,
}
obsidian_call!(TasksFilter, TASKS_FILTER);

/// `list_templates`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListTemplates {}
obsidian_call!(ListTemplates, LIST_TEMPLATES);

/// `execute_template`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ExecuteTemplate {
    /// The template's path (see list_templates).
    #[schemars(length(min = 1))]
    pub template: String,
    /// The path of the new note, e.g. `Meetings/2026-05-01.md`.
    #[schemars(length(min = 1))]
    pub target: String,
}
obsidian_call!(ExecuteTemplate, EXECUTE_TEMPLATE);

/// `list_quickadd_actions`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListQuickaddActions {}
obsidian_call!(ListQuickaddActions, LIST_QUICKADD_ACTIONS);

/// `trigger_quickadd`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TriggerQuickadd {
    /// The choice's name (see list_quickadd_actions).
    #[schemars(length(min = 1))]
    pub name: String,
    /// Values for `{{VALUE:name}}` placeholders.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variables: Option<BTreeMap<String, Value>>,
    /// How long QuickAdd may run, in seconds (default 30).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 600))]
    pub timeout_seconds: Option<u32>,
}
obsidian_call!(TriggerQuickadd, TRIGGER_QUICKADD);

/// `ocr_attachment`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OcrAttachment {
    /// The attachment's vault path.
    #[schemars(length(min = 1))]
    pub path: String,
}
obsidian_call!(OcrAttachment, OCR_ATTACHMENT);

/// `ocr_bulk`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OcrBulk {
    /// The attachments' vault paths.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paths: Option<Vec<String>>,
    /// The folder whose supported files are read, when `paths` is not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    /// The most files read (default 20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 500))]
    pub limit: Option<u32>,
}
obsidian_call!(OcrBulk, OCR_BULK);

/// Where `read_excalidraw` reads the drawing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub(crate) enum ExcalidrawSource {
    /// Through Obsidian when it is reachable with Excalidraw, else the file itself.
    #[default]
    Auto,
    /// The file itself, without Obsidian.
    Filesystem,
}

/// `read_excalidraw`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReadExcalidraw {
    /// The drawing's vault path (`.excalidraw.md` or `.excalidraw`).
    #[schemars(length(min = 1))]
    pub path: String,
    /// Where to read it (default `auto`; TC Bridge gets only `path`).
    #[serde(default)]
    pub source: ExcalidrawSource,
}
obsidian_call!(ReadExcalidraw, READ_EXCALIDRAW);

/// `create_excalidraw`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct CreateExcalidraw {
    /// The new drawing's path, e.g. `Drawings/Plan.excalidraw.md`.
    #[schemars(length(min = 1))]
    pub path: String,
    /// Elements to draw: `{type: rectangle|text|arrow|line, x, y, width?, height?, text?,
    /// points?}`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elements: Option<Vec<Value>>,
}
obsidian_call!(CreateExcalidraw, CREATE_EXCALIDRAW);

/// `update_excalidraw`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct UpdateExcalidraw {
    /// The drawing's path.
    #[schemars(length(min = 1))]
    pub path: String,
    /// Elements to add (as in create_excalidraw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub add: Option<Vec<Value>>,
    /// Element ids to remove (see read_excalidraw).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remove: Option<Vec<String>>,
}
obsidian_call!(UpdateExcalidraw, UPDATE_EXCALIDRAW);

/// `makemd_list_spaces`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MakemdListSpaces {}
obsidian_call!(MakemdListSpaces, MAKEMD_LIST_SPACES);

/// `makemd_query`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct MakemdQuery {
    /// The space's path (see makemd_list_spaces).
    #[schemars(length(min = 1))]
    pub space: String,
    /// The context table (default `files`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub table: Option<String>,
}
obsidian_call!(MakemdQuery, MAKEMD_QUERY);

/// `search_omnisearch`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SearchOmnisearch {
    /// The search text.
    #[schemars(length(min = 1))]
    pub query: String,
    /// The most results (default 20).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 200))]
    pub limit: Option<u32>,
}
obsidian_call!(SearchOmnisearch, SEARCH_OMNISEARCH);

/// `resolve_daily_note`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResolveDailyNote {
    /// YYYY-MM-DD, or `today`, `yesterday`, `tomorrow` (default today).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}
obsidian_call!(ResolveDailyNote, RESOLVE_DAILY_NOTE);

/// `get_active_note`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct GetActiveNote {
    /// Include the note's text (default true).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub include_content: Option<bool>,
}
obsidian_call!(GetActiveNote, GET_ACTIVE_NOTE);

/// `open_note`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct OpenNote {
    /// The note's vault path (`.md` may be left off).
    #[schemars(length(min = 1))]
    pub path: String,
    /// Open it in a new tab (default false).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub new_tab: Option<bool>,
}
obsidian_call!(OpenNote, OPEN_NOTE);

/// `remotely_save_status`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RemotelySaveStatus {}
obsidian_call!(RemotelySaveStatus, REMOTELY_SAVE_STATUS);

/// `remotely_save_trigger`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct RemotelySaveTrigger {}
obsidian_call!(RemotelySaveTrigger, REMOTELY_SAVE_TRIGGER);

/// `query_datacore`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct QueryDatacore {
    /// The query in Datacore's language, e.g. `@page and #project`.
    #[schemars(length(min = 1))]
    pub query: String,
    /// The most rows returned (default 500).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 1, max = 500))]
    pub limit: Option<u32>,
}
obsidian_call!(QueryDatacore, QUERY_DATACORE);

/// `read_metadata_fields`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ReadMetadataFields {
    /// The note's vault path (`.md` may be left off).
    #[schemars(length(min = 1))]
    pub path: String,
}
obsidian_call!(ReadMetadataFields, READ_METADATA_FIELDS);

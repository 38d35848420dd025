//! `list_bookmarks`, `add_bookmark` and `remove_bookmark` over the Bookmarks core plugin's
//! `.obsidian/bookmarks.json`: `{"items": [...]}`, each item `{"type", "ctime", ...}` with
//! `path` (file, folder), `path` + `subpath` (`#Heading`, `#^block`), `query` (search),
//! `url` + `title` (url), or `title` + `items` (group, nested).
//!
//! Obsidian gives bookmarks no id. Here a bookmark's id is `bm_` and the first 16 hex digits
//! of the SHA-256 of its type, ctime, path, subpath, query, url and title joined by NUL: it
//! stays the same while the bookmark is unchanged, wherever it is moved, and two bookmarks
//! differ in it unless they are identical (which `add_bookmark` refuses).
//!
//! File, folder, heading and block bookmarks whose path the caller may not read are left
//! out of every answer and cannot be removed (they are `not_found`).

use engine_core::acl::AclOp;
use engine_core::hash::sha256_hex;
use schemars::JsonSchema;
use serde::Serialize;
use serde_json::{Map, Value, json};

use super::args::{AddBookmark, BookmarkKind, NoArgs, RemoveBookmark};
use super::json_file::{BOOKMARKS_FILE, JsonFile, bad_file, read_json, write_json};
use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::structured::structured;
use crate::tools::common::vault_error::tool_error_from_vault;

/// One bookmark (or group), flattened.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BookmarkOut {
    /// The stable id (see the module docs).
    pub id: String,
    /// `file`, `folder`, `heading`, `block`, `search`, `url`, `graph` or `group`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The titles of the groups it is in, outermost first.
    pub group: Vec<String>,
    /// When it was created, ms since the epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ctime: Option<i64>,
    /// The file or folder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// `#Heading` or `#^block`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subpath: Option<String>,
    /// The search query.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// The address.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The display title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
}

/// `list_bookmarks`'s result.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BookmarkList {
    /// Every bookmark and group the caller may see, in Obsidian's order (a group before
    /// its contents).
    pub bookmarks: Vec<BookmarkOut>,
}

/// The result of `add_bookmark` and `remove_bookmark`.
#[derive(Debug, Serialize, JsonSchema)]
pub(super) struct BookmarkChanged {
    /// The bookmark added or removed.
    pub bookmark: BookmarkOut,
    /// The SHA-256 of `.obsidian/bookmarks.json` now.
    pub sha256: String,
}

/// A text field of an item.
fn text(item: &Value, key: &str) -> Option<String> {
    item.get(key).and_then(Value::as_str).map(str::to_owned)
}

/// The stable id of an item (see the module docs).
fn bookmark_id(item: &Value) -> String {
    let ctime = item.get("ctime").map(Value::to_string).unwrap_or_default();
    let parts = [
        text(item, "type").unwrap_or_default(),
        ctime,
        text(item, "path").unwrap_or_default(),
        text(item, "subpath").unwrap_or_default(),
        text(item, "query").unwrap_or_default(),
        text(item, "url").unwrap_or_default(),
        text(item, "title").unwrap_or_default(),
    ];
    format!("bm_{}", &sha256_hex(parts.join("\0").as_bytes())[..16])
}

/// Whether the caller may see an item: one pointing at a path needs read access to it.
fn visible(ctx: &ToolContext<'_>, item: &Value) -> bool {
    match text(item, "type").as_deref() {
        Some("file" | "folder" | "heading" | "block") => {
            text(item, "path").is_some_and(|path| ctx.may(&path, AclOp::Read))
        }
        _ => true,
    }
}

/// An item as listed.
fn describe(item: &Value, group: &[String]) -> BookmarkOut {
    BookmarkOut {
        id: bookmark_id(item),
        kind: text(item, "type").unwrap_or_default(),
        group: group.to_vec(),
        ctime: item.get("ctime").and_then(Value::as_i64),
        path: text(item, "path"),
        subpath: text(item, "subpath"),
        query: text(item, "query"),
        url: text(item, "url"),
        title: text(item, "title"),
    }
}

/// The top-level `items` (empty when absent).
fn items(file: &JsonFile) -> Result<Vec<Value>, ToolError> {
    match file.root.get("items") {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => Ok(items.clone()),
        Some(_) => Err(bad_file(file.path, "'items' is not a list")),
    }
}

/// The visible items under `items`, depth first, with their group paths.
fn flatten(
    ctx: &ToolContext<'_>,
    items: &[Value],
    group: &mut Vec<String>,
    out: &mut Vec<BookmarkOut>,
) {
    for item in items.iter().filter(|item| visible(ctx, item)) {
        out.push(describe(item, group));
        if let Some(children) = item.get("items").and_then(Value::as_array) {
            group.push(text(item, "title").unwrap_or_default());
            flatten(ctx, children, group, out);
            group.pop();
        }
    }
}

/// Lists the bookmarks (see the module docs).
pub(super) fn list_bookmarks(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let _: NoArgs = parse(args)?;
    let file = read_json(ctx, BOOKMARKS_FILE)?;
    let mut bookmarks = Vec::new();
    flatten(ctx, &items(&file)?, &mut Vec::new(), &mut bookmarks);
    structured(&BookmarkList { bookmarks })
}

/// `invalid_input` for a missing field of a bookmark type.
fn needs(kind: BookmarkKind, field: &str) -> ToolError {
    ToolError::new(
        ErrorCode::InvalidInput,
        format!("a {kind:?} bookmark needs `{field}`").to_lowercase(),
    )
}

/// The new item for `args`: its target checked (a path must exist and be readable).
fn new_item(ctx: &ToolContext<'_>, args: &AddBookmark) -> Result<Map<String, Value>, ToolError> {
    let field = |value: &Option<String>, name: &str| {
        value
            .as_deref()
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(str::to_owned)
            .ok_or_else(|| needs(args.kind, name))
    };
    let kind = match args.kind {
        BookmarkKind::File => "file",
        BookmarkKind::Folder => "folder",
        BookmarkKind::Heading => "heading",
        BookmarkKind::Block => "block",
        BookmarkKind::Search => "search",
        BookmarkKind::Url => "url",
    };
    let mut item = Map::new();
    item.insert("type".to_owned(), json!(kind));
    item.insert("ctime".to_owned(), json!(ctx.clock().now_ms()));
    match args.kind {
        BookmarkKind::File | BookmarkKind::Heading | BookmarkKind::Block => {
            let path = field(&args.path, "path")?;
            ctx.check_path(&path, AclOp::Read)?;
            let file = ctx
                .vault()
                .read(&path)
                .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
            item.insert("path".to_owned(), json!(file.path));
        }
        BookmarkKind::Folder => {
            let path = field(&args.path, "path")?;
            ctx.check_path(&path, AclOp::Read)?;
            ctx.vault()
                .list(Some(&path))
                .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
            item.insert("path".to_owned(), json!(path.trim_end_matches('/')));
        }
        BookmarkKind::Search => {
            item.insert("query".to_owned(), json!(field(&args.query, "query")?));
        }
        BookmarkKind::Url => {
            item.insert("url".to_owned(), json!(field(&args.url, "url")?));
        }
    }
    match args.kind {
        BookmarkKind::Heading => {
            let heading = field(&args.subpath, "subpath")?;
            item.insert(
                "subpath".to_owned(),
                json!(format!("#{}", heading.trim_start_matches('#'))),
            );
        }
        BookmarkKind::Block => {
            let block = field(&args.subpath, "subpath")?;
            let block = block.trim_start_matches('#').trim_start_matches('^');
            item.insert("subpath".to_owned(), json!(format!("#^{block}")));
        }
        _ => {}
    }
    if let Some(title) = args.title.as_deref().filter(|t| !t.trim().is_empty()) {
        item.insert("title".to_owned(), json!(title));
    }
    Ok(item)
}

/// What makes two bookmarks the same target.
fn target(item: &Value) -> [Option<String>; 5] {
    ["type", "path", "subpath", "query", "url"].map(|key| text(item, key))
}

/// The first item anywhere under `items` with the target of `wanted`.
fn find_target<'a>(items: &'a [Value], wanted: &Value) -> Option<&'a Value> {
    items.iter().find_map(|item| {
        if item.get("type").and_then(Value::as_str) != Some("group")
            && target(item) == target(wanted)
        {
            return Some(item);
        }
        find_target(item.get("items")?.as_array()?, wanted)
    })
}

/// The `items` list of the group at `path` under `items`, creating missing groups.
fn group_items<'a>(
    ctx: &ToolContext<'_>,
    items: &'a mut Vec<Value>,
    path: &[String],
) -> Result<&'a mut Vec<Value>, ToolError> {
    let Some((name, rest)) = path.split_first() else {
        return Ok(items);
    };
    let at = items.iter().position(|item| {
        text(item, "type").as_deref() == Some("group")
            && text(item, "title").as_deref() == Some(name)
    });
    let at = match at {
        Some(at) => at,
        None => {
            items.push(
                json!({"type": "group", "ctime": ctx.clock().now_ms(), "items": [], "title": name}),
            );
            items.len() - 1
        }
    };
    let group = &mut items[at];
    if !group.get("items").is_some_and(Value::is_array) {
        group["items"] = json!([]);
    }
    match group.get_mut("items") {
        Some(Value::Array(children)) => group_items(ctx, children, rest),
        _ => Err(bad_file(BOOKMARKS_FILE, "a group's 'items' is not a list")),
    }
}

/// Adds a bookmark, refusing a duplicate target.
pub(super) fn add_bookmark(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: AddBookmark = parse(args)?;
    if args.group.iter().any(|name| name.trim().is_empty()) {
        return Err(ToolError::new(
            ErrorCode::InvalidInput,
            "a group name is empty: pass the group titles, outermost first",
        ));
    }
    let item = Value::Object(new_item(ctx, &args)?);
    let mut file = read_json(ctx, BOOKMARKS_FILE)?;
    let mut all = items(&file)?;
    if let Some(existing) = find_target(&all, &item) {
        let id = bookmark_id(existing);
        return Err(ToolError::new(
            ErrorCode::AlreadyExists,
            format!("this target is already bookmarked (id {id}); nothing was added"),
        )
        .with_details(json!({"id": id})));
    }
    group_items(ctx, &mut all, &args.group)?.push(item.clone());
    file.root.insert("items".to_owned(), Value::Array(all));
    let sha256 = write_json(ctx, &file)?;
    structured(&BookmarkChanged {
        bookmark: describe(&item, &args.group),
        sha256,
    })
}

/// Whether the caller may see every bookmark under `item` (a group is removed whole).
fn all_visible(ctx: &ToolContext<'_>, item: &Value) -> bool {
    visible(ctx, item)
        && item
            .get("items")
            .and_then(Value::as_array)
            .is_none_or(|children| children.iter().all(|child| all_visible(ctx, child)))
}

/// Removes the first visible item with `id` under `items`; returns it with its group path.
/// A group holding bookmarks the caller may not see is refused (`acl_denied`).
fn take(
    ctx: &ToolContext<'_>,
    items: &mut Vec<Value>,
    id: &str,
    group: &mut Vec<String>,
) -> Result<Option<BookmarkOut>, ToolError> {
    if let Some(at) = items
        .iter()
        .position(|item| visible(ctx, item) && bookmark_id(item) == id)
    {
        if !all_visible(ctx, &items[at]) {
            return Err(ToolError::new(
                ErrorCode::AclDenied,
                "this group holds bookmarks outside the folders you may read: remove the bookmarks you can see one by one",
            ));
        }
        return Ok(Some(describe(&items.remove(at), group)));
    }
    for item in items.iter_mut().filter(|item| visible(ctx, item)) {
        let title = text(item, "title").unwrap_or_default();
        if let Some(Value::Array(children)) = item.get_mut("items") {
            group.push(title);
            if let Some(found) = take(ctx, children, id, group)? {
                return Ok(Some(found));
            }
            group.pop();
        }
    }
    Ok(None)
}

/// Removes a bookmark (or a group with its contents) by id.
pub(super) fn remove_bookmark(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: RemoveBookmark = parse(args)?;
    let mut file = read_json(ctx, BOOKMARKS_FILE)?;
    let mut all = items(&file)?;
    let removed = take(ctx, &mut all, &args.id, &mut Vec::new())?.ok_or_else(|| {
        ToolError::new(
            ErrorCode::NotFound,
            format!(
                "no bookmark has id '{}': list_bookmarks gives the ids",
                args.id
            ),
        )
    })?;
    file.root.insert("items".to_owned(), Value::Array(all));
    let sha256 = write_json(ctx, &file)?;
    structured(&BookmarkChanged {
        bookmark: removed,
        sha256,
    })
}

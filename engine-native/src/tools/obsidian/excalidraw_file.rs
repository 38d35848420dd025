//! `read_excalidraw`: through Obsidian's Excalidraw when TC Bridge and Excalidraw are there,
//! otherwise (or with `source: filesystem`) from the drawing file itself, so it works
//! headless. A `.excalidraw` file is the scene's JSON; an `.excalidraw.md` note keeps it in a
//! `json` or `compressed-json` (LZ-String Base64) block under its `Drawing` heading.

use engine_core::acl::AclOp;
use serde_json::{Value, json};

use crate::errors::{ErrorCode, ToolError};
use crate::runtime::ToolContext;
use crate::tools::common::args::parse;
use crate::tools::common::vault_error::tool_error_from_vault;

use super::args::{ExcalidrawSource, ObsidianCall, ReadExcalidraw};
use super::lz_string::decompress_from_base64;
use crate::tools::common::companion::call_route;

/// The handler of `read_excalidraw`.
pub(crate) fn read_excalidraw(ctx: &ToolContext<'_>, args: Value) -> Result<Value, ToolError> {
    let args: ReadExcalidraw = parse(args)?;
    if args.source == ExcalidrawSource::Auto {
        let body = json!({ "path": args.path });
        let needs = ReadExcalidraw::NEEDS;
        match call_route(ctx, ReadExcalidraw::ROUTE, needs.as_ref(), false, &body) {
            Ok(mut found) => {
                if let Some(map) = found.as_object_mut() {
                    map.insert("source".to_owned(), json!("obsidian"));
                }
                return Ok(found);
            }
            Err(error) if !obsidian_unavailable(&error) => return Err(error),
            Err(_) => {}
        }
    }
    read_drawing_file(ctx, &args.path)
}

/// Whether `error` says Obsidian cannot read the drawing (rather than that the drawing is bad).
fn obsidian_unavailable(error: &ToolError) -> bool {
    matches!(
        error.code,
        ErrorCode::PluginMissing | ErrorCode::PluginUnreachable | ErrorCode::PluginIncompatible
    )
}

/// The drawing at `path` read from its file: `{path, elements, texts, source: "filesystem"}`
/// (deleted elements left out, as Excalidraw shows the scene).
fn read_drawing_file(ctx: &ToolContext<'_>, path: &str) -> Result<Value, ToolError> {
    let file = ctx
        .vault()
        .read(path)
        .map_err(|error| tool_error_from_vault(&error, AclOp::Read))?;
    let text =
        String::from_utf8(file.bytes).map_err(|_| not_a_drawing(&file.path, "not UTF-8 text"))?;
    let scene_text = if file.path.ends_with(".excalidraw") {
        text
    } else {
        scene_block(&text).ok_or_else(|| not_a_drawing(&file.path, "no Drawing block"))??
    };
    let scene: Value = serde_json::from_str(&scene_text)
        .map_err(|error| not_a_drawing(&file.path, &format!("the scene is not JSON: {error}")))?;
    let elements: Vec<Value> = scene
        .get("elements")
        .and_then(Value::as_array)
        .ok_or_else(|| not_a_drawing(&file.path, "the scene has no elements"))?
        .iter()
        .filter(|element| element.get("isDeleted").and_then(Value::as_bool) != Some(true))
        .cloned()
        .collect();
    let texts: Vec<&str> = elements
        .iter()
        .filter(|element| element.get("type").and_then(Value::as_str) == Some("text"))
        .filter_map(|element| element.get("text").and_then(Value::as_str))
        .collect();
    Ok(json!({ "path": file.path, "elements": elements, "texts": texts, "source": "filesystem" }))
}

/// The scene JSON of an `.excalidraw.md` note: the first `json` or `compressed-json` fenced
/// block after its `Drawing` heading. `None`: no such block; `Some(Err)`: a compressed block
/// that does not decompress.
fn scene_block(text: &str) -> Option<Result<String, ToolError>> {
    let mut lines = text.lines();
    lines.find(|line| matches!(line.trim_end(), "# Drawing" | "## Drawing"))?;
    let mut lines = lines.skip_while(|line| !line.trim_start().starts_with("```"));
    let fence = lines.next()?.trim();
    let compressed = match fence {
        "```compressed-json" => true,
        "```json" => false,
        _ => return None,
    };
    let body: Vec<&str> = lines.take_while(|line| line.trim() != "```").collect();
    let body = body.join("\n");
    if !compressed {
        return Some(Ok(body));
    }
    Some(decompress_from_base64(&body).ok_or_else(|| {
        ToolError::new(
            ErrorCode::InvalidInput,
            "the drawing's compressed-json block does not decompress",
        )
    }))
}

fn not_a_drawing(path: &str, why: &str) -> ToolError {
    ToolError::new(
        ErrorCode::InvalidInput,
        format!("'{path}' is not an Excalidraw drawing this server can read ({why})"),
    )
    .with_details(json!({ "path": path }))
    .with_recovery("give the path of an .excalidraw.md or .excalidraw drawing")
}

//! The layout Obsidian writes canvases in (JSON that keeps its key order:
//! [`crate::tools::common::ordered_json`]). [`write_canvas`] prints the canvas the way Obsidian does
//! (a tab-indented top level, one compact node or edge per line), so a canvas Obsidian wrote
//! is reproduced byte for byte.

pub(super) use crate::tools::common::ordered_json::Json;
use crate::tools::common::ordered_json::{compact, string};

/// The canvas document `root` in Obsidian's layout: `{`, each top-level key on its own
/// tab-indented line, the `nodes` and `edges` arrays with one compact item per line
/// (indented by two tabs), `}` without a trailing newline.
pub(super) fn write_canvas(root: &[(String, Json)]) -> String {
    let mut out = String::from("{\n");
    for (i, (key, value)) in root.iter().enumerate() {
        out.push('\t');
        string(key, &mut out);
        out.push(':');
        match value {
            Json::Array(items) if !items.is_empty() => {
                out.push_str("[\n");
                for (j, item) in items.iter().enumerate() {
                    out.push_str("\t\t");
                    compact(item, &mut out);
                    out.push_str(if j + 1 < items.len() { ",\n" } else { "\n" });
                }
                out.push_str("\t]");
            }
            _ => compact(value, &mut out),
        }
        out.push_str(if i + 1 < root.len() { ",\n" } else { "\n" });
    }
    out.push('}');
    out
}

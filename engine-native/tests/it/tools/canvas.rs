//! The canvas tools through the real dispatcher: a canvas in Obsidian's layout (key order
//! varying per node, unknown keys) comes back byte for byte after a no-op update; unknown
//! keys survive an edit; invalid edges and unknown ids are refused with nothing changed;
//! removing a node removes its edges; removing more than 10 nodes asks the user; create
//! validates and needs confirmation to overwrite; query filters and respects the ACL.

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::{Fixture, caller};

fn fixture(extra: Value) -> Fixture {
    let mut config = json!({"throttle": {"enabled": false}});
    if let (Some(root), Value::Object(extra)) = (config.as_object_mut(), extra) {
        root.extend(extra);
    }
    Fixture::new(config)
}

/// A canvas as Obsidian writes it: tabs, one node per line, keys in varying order, a
/// fractional coordinate, escapes, an unknown node key and an unknown top-level key.
const BOARD: &str = "{\n\t\"nodes\":[\n\t\t{\"id\":\"b204be3a55d5b767\",\"type\":\"file\",\"file\":\"Blog/Blog.md\",\"x\":-1960,\"y\":-1280,\"width\":400,\"height\":240,\"color\":\"5\"},\n\t\t{\"id\":\"c6750fe2cd95132f\",\"x\":-1580.5,\"y\":-1380,\"width\":250,\"height\":60,\"color\":\"6\",\"type\":\"text\",\"text\":\"Divengine \\\"Open\\\" Source\\n\\n- é ✓\",\"styleAttributes\":{\"border\":\"dashed\"}},\n\t\t{\"id\":\"g1\",\"type\":\"group\",\"label\":\"Area\",\"x\":-2000,\"y\":-1400,\"width\":1200,\"height\":800},\n\t\t{\"id\":\"l1\",\"type\":\"link\",\"url\":\"https://jsoncanvas.org\",\"x\":500,\"y\":500,\"width\":200,\"height\":100}\n\t],\n\t\"edges\":[\n\t\t{\"id\":\"4cddc6d96c882ee7\",\"fromNode\":\"c6750fe2cd95132f\",\"fromSide\":\"bottom\",\"toNode\":\"b204be3a55d5b767\",\"toSide\":\"left\",\"toEnd\":\"none\",\"x-weight\":3}\n\t],\n\t\"metadata\":{\"version\":\"1.0-1.0\",\"frontmatter\":{}}\n}";

fn read(fx: &Fixture, rel: &str) -> String {
    std::fs::read_to_string(fx.vault_dir("main").join(rel)).expect("file")
}

fn node(id: &str, x: i64) -> Value {
    json!({"id": id, "type": "text", "text": format!("card {id}"), "x": x, "y": 0, "width": 100, "height": 50})
}

#[test]
fn a_canvas_reads_typed_and_round_trips_byte_for_byte() {
    let fx = fixture(json!({}));
    fx.write("main", "Board.canvas", BOARD);
    fx.write("main", "Blog/Blog.md", "# Blog\n");
    let canvas = fx.ok("read_canvas", json!({"path": "Board.canvas"}));
    let nodes = canvas["nodes"].as_array().expect("nodes");
    assert_eq!(nodes.len(), 4);
    assert_eq!(nodes[0]["type"], "file");
    assert_eq!(nodes[0]["file"], "Blog/Blog.md");
    assert_eq!(nodes[0]["file_resolved"], true);
    assert_eq!(nodes[0]["groups"], json!(["g1"]));
    assert_eq!(nodes[1]["x"], -1580.5);
    assert_eq!(nodes[1]["text"], "Divengine \"Open\" Source\n\n- é ✓");
    assert_eq!(
        nodes[1]["extra"],
        json!({"styleAttributes": {"border": "dashed"}})
    );
    assert_eq!(nodes[3]["url"], "https://jsoncanvas.org");
    assert_eq!(nodes[3]["groups"], json!([]));
    assert_eq!(canvas["edges"][0]["toEnd"], "none");
    assert_eq!(canvas["edges"][0]["extra"], json!({"x-weight": 3}));
    assert_eq!(canvas["extra"]["metadata"]["version"], "1.0-1.0");

    // A change that is undone in the same call rewrites the file: the bytes are Obsidian's.
    fx.ok(
        "update_canvas",
        json!({"path": "Board.canvas", "add_nodes": [node("tmp", 0)]}),
    );
    let done = fx.ok(
        "update_canvas",
        json!({"path": "Board.canvas", "remove_nodes": ["tmp"]}),
    );
    assert_eq!(read(&fx, "Board.canvas"), BOARD);
    assert_eq!(done["sha256"], canvas["sha256"]);
}

#[test]
fn an_update_keeps_unknown_keys_and_key_order() {
    let fx = fixture(json!({}));
    fx.write("main", "Board.canvas", BOARD);
    let sha = fx.ok("read_canvas", json!({"path": "Board.canvas"}))["sha256"].clone();
    fx.ok(
        "update_canvas",
        json!({
            "path": "Board.canvas",
            "expected_sha256": sha,
            "update_nodes": [{"id": "c6750fe2cd95132f", "set": {"text": "Renamed", "color": null, "zIndex": 2}}],
            "add_edges": [{"id": "e2", "fromNode": "l1", "toNode": "g1", "toSide": "top"}],
        }),
    );
    let text = read(&fx, "Board.canvas");
    assert!(
        text.contains("\t\t{\"id\":\"c6750fe2cd95132f\",\"x\":-1580.5,\"y\":-1380,\"width\":250,\"height\":60,\"type\":\"text\",\"text\":\"Renamed\",\"styleAttributes\":{\"border\":\"dashed\"},\"zIndex\":2},\n"),
        "{text}"
    );
    assert!(text.contains("\"x-weight\":3"), "{text}");
    assert!(
        text.contains(
            "\t\t{\"id\":\"e2\",\"fromNode\":\"l1\",\"toNode\":\"g1\",\"toSide\":\"top\"}\n\t],"
        ),
        "{text}"
    );
    assert!(
        text.ends_with("\t\"metadata\":{\"version\":\"1.0-1.0\",\"frontmatter\":{}}\n}"),
        "{text}"
    );

    let stale = fx.err(
        "update_canvas",
        json!({"path": "Board.canvas", "expected_sha256": sha, "remove_edges": ["e2"]}),
        ErrorCode::ConcurrentModification,
    );
    assert!(!stale.message.is_empty());
}

#[test]
fn invalid_changes_are_refused_and_change_nothing() {
    let fx = fixture(json!({}));
    fx.write("main", "Board.canvas", BOARD);
    let refusals = [
        json!({"add_nodes": [node("n1", 0)], "add_edges": [{"id": "e9", "fromNode": "n1", "toNode": "ghost"}]}),
        json!({"add_edges": [{"id": "e9", "fromNode": "g1", "toNode": "l1", "fromSide": "middle"}]}),
        json!({"add_edges": [{"id": "e9", "fromNode": "g1", "toNode": "l1", "toEnd": "circle"}]}),
        json!({"add_nodes": [node("g1", 0)]}),
        json!({"add_nodes": [{"id": "n2", "type": "blob", "x": 0, "y": 0, "width": 1, "height": 1}]}),
        json!({"add_nodes": [{"id": "n2", "type": "file", "x": 0, "y": 0, "width": 1, "height": 1}]}),
        json!({"update_edges": [{"id": "4cddc6d96c882ee7", "set": {"toNode": "nowhere"}}]}),
    ];
    for mut args in refusals {
        args["path"] = json!("Board.canvas");
        fx.err("update_canvas", args, ErrorCode::InvalidInput);
    }
    fx.err(
        "update_canvas",
        json!({"path": "Board.canvas", "remove_nodes": ["missing"], "add_nodes": [node("n3", 0)]}),
        ErrorCode::NotFound,
    );
    assert_eq!(read(&fx, "Board.canvas"), BOARD);
}

#[test]
fn removing_a_node_removes_its_edges_and_many_removals_ask_first() {
    let fx = fixture(json!({}));
    fx.write("main", "Board.canvas", BOARD);
    let result = fx.ok(
        "update_canvas",
        json!({"path": "Board.canvas", "remove_nodes": ["b204be3a55d5b767"]}),
    );
    assert_eq!(result["removed_edges"], json!(["4cddc6d96c882ee7"]));
    assert_eq!(result["edges"], 0);
    assert!(read(&fx, "Board.canvas").contains("\t\"edges\":[],\n"));

    let nodes: Vec<Value> = (0..12).map(|i| node(&format!("n{i}"), i * 200)).collect();
    fx.ok(
        "create_canvas",
        json!({"path": "Many.canvas", "nodes": nodes}),
    );
    let ten: Vec<String> = (0..10).map(|i| format!("n{i}")).collect();
    let eleven: Vec<String> = (0..11).map(|i| format!("n{i}")).collect();
    let before = read(&fx, "Many.canvas");
    let args = json!({"path": "Many.canvas", "remove_nodes": eleven});
    let asked = fx.err("update_canvas", args.clone(), ErrorCode::ElicitRequired);
    assert_eq!(
        read(&fx, "Many.canvas"),
        before,
        "nothing removed before approval"
    );
    fx.approve_error(&asked);
    assert_eq!(fx.ok("update_canvas", args)["nodes"], 1);

    fx.ok("create_canvas", json!({"path": "Ten.canvas", "nodes": (0..10).map(|i| node(&format!("n{i}"), i)).collect::<Vec<_>>()}));
    assert_eq!(
        fx.ok(
            "update_canvas",
            json!({"path": "Ten.canvas", "remove_nodes": ten})
        )["nodes"],
        0
    );
}

#[test]
fn create_validates_and_overwrites_only_with_confirmation() {
    let fx = fixture(json!({}));
    let args = json!({
        "path": "New.canvas",
        "nodes": [node("a", 0), node("b", 300)],
        "edges": [{"label": "next", "toNode": "b", "fromNode": "a", "id": "ab"}],
    });
    let made = fx.ok("create_canvas", args.clone());
    assert_eq!(made["created"], true);
    assert_eq!(
        read(&fx, "New.canvas"),
        "{\n\t\"nodes\":[\n\t\t{\"id\":\"a\",\"type\":\"text\",\"text\":\"card a\",\"x\":0,\"y\":0,\"width\":100,\"height\":50},\n\t\t{\"id\":\"b\",\"type\":\"text\",\"text\":\"card b\",\"x\":300,\"y\":0,\"width\":100,\"height\":50}\n\t],\n\t\"edges\":[\n\t\t{\"id\":\"ab\",\"fromNode\":\"a\",\"toNode\":\"b\",\"label\":\"next\"}\n\t]\n}"
    );
    fx.err("create_canvas", args, ErrorCode::AlreadyExists);
    fx.err(
        "create_canvas",
        json!({"path": "Bad.canvas", "nodes": [node("a", 0)], "edges": [{"id": "x", "fromNode": "a", "toNode": "zz"}]}),
        ErrorCode::InvalidInput,
    );
    assert!(!fx.exists("main", "Bad.canvas"));
    fx.err(
        "create_canvas",
        json!({"path": "note.md"}),
        ErrorCode::InvalidInput,
    );

    let replace = json!({"path": "New.canvas", "overwrite": true});
    let asked = fx.err("create_canvas", replace.clone(), ErrorCode::ElicitRequired);
    assert!(read(&fx, "New.canvas").contains("card a"));
    fx.approve_error(&asked);
    fx.ok("create_canvas", replace);
    assert_eq!(
        read(&fx, "New.canvas"),
        "{\n\t\"nodes\":[],\n\t\"edges\":[]\n}"
    );
}

#[test]
fn query_filters_nodes_and_never_opens_a_hidden_canvas() {
    let fx = fixture(json!({"acl": {"readPaths": ["Public/**"], "writePaths": ["Public/**"]}}));
    fx.write("main", "Public/Board.canvas", BOARD);
    fx.write("main", "Public/Broken.canvas", "{not json");
    fx.write("main", "Secret/Board.canvas", BOARD);

    let all = fx.ok("query_canvas", json!({}));
    assert_eq!(all["canvases_searched"], 1);
    assert_eq!(all["total"], 4);
    assert_eq!(all["skipped"][0]["path"], "Public/Broken.canvas");
    assert!(!all.to_string().contains("Secret"), "{all}");

    let texts = fx.ok("query_canvas", json!({"type": "text", "contains": "open"}));
    assert_eq!(texts["total"], 1);
    assert_eq!(texts["matches"][0]["node"]["id"], "c6750fe2cd95132f");
    let in_group = fx.ok("query_canvas", json!({"group": "Area"}));
    assert_eq!(in_group["total"], 2);
    let by_file = fx.ok(
        "query_canvas",
        json!({"target": "blog/blog.md", "color": "5"}),
    );
    assert_eq!(by_file["total"], 1);
    assert_eq!(by_file["matches"][0]["node"]["file_resolved"], false);
    let page = fx.ok("query_canvas", json!({"limit": 3}));
    assert_eq!(page["matches"].as_array().expect("page").len(), 3);
    let rest = fx.ok(
        "query_canvas",
        json!({"limit": 3, "cursor": page["cursor"]}),
    );
    assert_eq!(rest["matches"].as_array().expect("rest").len(), 1);

    fx.err(
        "query_canvas",
        json!({"paths": ["Secret/Board.canvas"]}),
        ErrorCode::AclDenied,
    );
    fx.err(
        "read_canvas",
        json!({"path": "Secret/Board.canvas"}),
        ErrorCode::AclDenied,
    );

    let reader = caller("reader", &["read:notes"], Some("main"));
    let denied = fx.call(
        &reader,
        "read_canvas",
        json!({"path": "Public/Board.canvas"}),
    );
    assert!(denied.result.is_err(), "read:canvas is required");
}

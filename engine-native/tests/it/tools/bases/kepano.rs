//! `read_base` and `query_base` on every `.base` file of the kepano vault (copied into a temp
//! vault): the rows of the supported ones checked against expectations computed here from
//! the note files, and a precise `unsupported_base_filter` for the others.

use std::path::Path;

use obsidian_tc::errors::ErrorCode;
use serde_json::{Value, json};

use crate::support::dispatch::Fixture;

const KEPANO: &str = "../../shared/vaults/kepano";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("folder");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            if entry.file_name() != ".git" {
                copy_dir(&entry.path(), &target);
            }
        } else {
            std::fs::copy(entry.path(), target).expect("copy");
        }
    }
}

fn kepano() -> Option<Fixture> {
    let source = Path::new(env!("CARGO_MANIFEST_DIR")).join(KEPANO);
    if !source.exists() {
        eprintln!("skipped: {} is absent", source.display());
        return None;
    }
    let fx = Fixture::new(json!({"throttle": {"enabled": false}}));
    copy_dir(&source, &fx.vault_dir("main"));
    fx.ok("index_vault", json!({}));
    Some(fx)
}

/// The markdown files (vault-relative) whose frontmatter `categories` list holds `[[cat]]`,
/// read line by line, independently of the tools.
fn in_category(root: &Path, category: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().and_then(|e| e.to_str()) != Some("md") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("note");
            let Some(rest) = text.strip_prefix("---\n") else {
                continue;
            };
            let block = rest.split("\n---").next().unwrap_or("");
            let mut in_categories = false;
            let mut hit = false;
            for line in block.lines() {
                if line.starts_with("categories:") {
                    in_categories = true;
                    hit |= line.contains(&format!("[[{category}]]"));
                } else if in_categories && line.starts_with("  - ") {
                    hit |= line.contains(&format!("\"[[{category}]]\""));
                } else if !line.starts_with(' ') {
                    in_categories = false;
                }
            }
            let rel = path
                .strip_prefix(root)
                .expect("inside")
                .to_string_lossy()
                .into_owned();
            let name = path.file_name().expect("name").to_string_lossy();
            if hit && !name.contains("Template") {
                found.push(rel);
            }
        }
    }
    found.sort();
    found
}

fn rows(result: &Value) -> Vec<String> {
    result["rows"]
        .as_array()
        .expect("rows")
        .iter()
        .map(|r| r["path"].as_str().expect("path").to_owned())
        .collect()
}

fn sorted(mut paths: Vec<String>) -> Vec<String> {
    paths.sort();
    paths
}

#[test]
fn every_kepano_base_is_answered_or_precisely_refused() {
    let Some(fx) = kepano() else { return };
    let root = fx.vault_dir("main");
    let mut bases: Vec<String> = Vec::new();
    let mut stack = vec![root.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().and_then(|e| e.to_str()) == Some("base") {
                bases.push(
                    path.strip_prefix(&root)
                        .expect("inside")
                        .to_string_lossy()
                        .into_owned(),
                );
            }
        }
    }
    bases.sort();
    assert!(bases.len() >= 30, "{bases:?}");
    let mut supported = Vec::new();
    let mut refused = Vec::new();
    for base in &bases {
        let read = fx.ok("read_base", json!({"path": base}));
        assert_eq!(read["path"], *base);
        let views = read["view_names"].as_array().expect("views").len();
        for view in 0..views.max(1) {
            let args = if views == 0 {
                json!({"path": base})
            } else {
                json!({"path": base, "view": view.to_string()})
            };
            match fx
                .call(&obsidian_tc::auth::Caller::stdio(), "query_base", args)
                .result
            {
                Ok(result) => supported.push(format!(
                    "{base} [{}]: {} rows",
                    result["view"], result["matched"]
                )),
                Err(error) => {
                    assert_eq!(
                        error.code,
                        ErrorCode::UnsupportedBaseFilter,
                        "{base}: {error}"
                    );
                    assert!(
                        error.details["location"]
                            .as_str()
                            .is_some_and(|l| !l.is_empty())
                    );
                    assert!(
                        error.details["construct"]
                            .as_str()
                            .is_some_and(|c| !c.is_empty())
                    );
                    refused.push(format!(
                        "{base} view {view}: {} at {}",
                        error.details["construct"], error.details["location"]
                    ));
                }
            }
        }
    }
    eprintln!(
        "SUPPORTED:\n{}\nREFUSED:\n{}",
        supported.join("\n"),
        refused.join("\n")
    );
    assert!(supported.len() > refused.len());
}

#[test]
fn category_bases_return_the_notes_of_their_category() {
    let Some(fx) = kepano() else { return };
    let root = fx.vault_dir("main");
    for (base, category) in [
        ("Templates/Bases/Books.base", "Books"),
        ("Templates/Bases/Movies.base", "Movies"),
        ("Templates/Bases/Places.base", "Places"),
        ("Templates/Bases/Board games.base", "Board games"),
        ("Templates/Bases/Recipes.base", "Recipes"),
    ] {
        let expected = in_category(&root, category);
        let result = fx.ok("query_base", json!({"path": base}));
        assert_eq!(sorted(rows(&result)), expected, "{base}");
    }
    // Books' first view sorts by name; its columns carry the display names.
    let books = fx.ok("query_base", json!({"path": "Templates/Bases/Books.base"}));
    assert_eq!(
        rows(&books),
        [
            "References/Out of Control.md",
            "References/The Machine Stops.md"
        ]
    );
    assert_eq!(
        books["columns"][0],
        json!({"id": "file.name", "display_name": "Name"})
    );
    assert_eq!(books["rows"][1]["values"]["year"], 1909.0);
    assert_eq!(
        books["rows"][1]["values"]["author"],
        json!(["[[E. M. Forster]]"])
    );
    // A view filter with `this`: the movies whose genre links the note passed as this_path.
    let genre = fx.ok(
        "query_base",
        json!({"path": "Templates/Bases/Movies.base", "view": "Genre", "this_path": "References/Sci-fi.md"}),
    );
    assert!(
        rows(&genre).contains(&"References/Blade Runner.md".to_owned()),
        "{genre}"
    );
}

#[test]
fn unsupported_constructs_are_named_with_their_location() {
    let Some(fx) = kepano() else { return };
    let error = fx.err(
        "query_base",
        json!({"path": "Templates/Bases/People.base"}),
        ErrorCode::UnsupportedBaseFilter,
    );
    assert_eq!(error.details["location"], "formulas.Age");
    assert_eq!(error.details["construct"], "field `.years`");
    let error = fx.err(
        "query_base",
        json!({"path": "Templates/Bases/Related.base"}),
        ErrorCode::UnsupportedBaseFilter,
    );
    assert_eq!(error.details["location"], "formulas.Related");
    assert_eq!(error.details["construct"], "method `.filter()`");
}

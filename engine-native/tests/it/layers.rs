//! The module layers of `src/`, as the crate docs list them (`src/lib.rs`, "Layers"): every
//! `crate::` path (and every `super::` path that climbs to the crate root) in every source
//! file must name a module of a lower layer than the file's own top-level module. Comments
//! and string literals do not count: the files are read as Rust tokens.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use proc_macro2::{Delimiter, TokenStream, TokenTree};

/// The crate's `src/` folder.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// The layers of the crate docs, top first: layer number by top-level module.
pub(crate) fn documented_layers(lib_rs: &str) -> BTreeMap<String, usize> {
    let mut layers = BTreeMap::new();
    for line in lib_rs.lines() {
        let Some(item) = line.strip_prefix("//! ") else {
            continue;
        };
        let Some((number, rest)) = item.split_once(". ") else {
            continue;
        };
        let Ok(number) = number.parse::<usize>() else {
            continue;
        };
        let names = rest.split_once(':').map_or(rest, |(names, _)| names);
        for name in names.split(", ") {
            let name = name.trim_matches(|c| c == '[' || c == ']' || c == '`');
            assert!(
                layers.insert(name.to_owned(), number).is_none(),
                "{name} is listed in two layers"
            );
        }
    }
    layers
}

/// The top-level modules `lib.rs` declares.
fn declared_modules(lib_rs: &str) -> Vec<String> {
    lib_rs
        .lines()
        .filter_map(|line| line.strip_prefix("pub mod "))
        .map(|rest| rest.trim_end_matches(';').to_owned())
        .collect()
}

/// One use of another top-level module: the line it is on and the module it names.
#[derive(Debug, PartialEq, Eq)]
struct Edge {
    line: usize,
    target: String,
}

/// Every top-level module `source` names, for a file whose module path is `module` (e.g.
/// `["tools", "notes", "write"]`): `crate::x`, `crate::{x, y}`, and `super::...::x` when the
/// `super`s climb to the crate root.
fn edges(source: &str, module: &[String]) -> Vec<Edge> {
    let tokens = TokenStream::from_str(source).expect("the file lexes as Rust");
    let mut out = Vec::new();
    walk(tokens, module, &mut out);
    out
}

fn walk(tokens: TokenStream, module: &[String], out: &mut Vec<Edge>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut at = 0;
    while at < tokens.len() {
        if let TokenTree::Group(group) = &tokens[at] {
            walk(group.stream(), module, out);
        }
        let root_after = match ident(&tokens[at]).as_deref() {
            // `$crate` in a macro is the crate too, but names no module by itself
            Some("crate") if !is_dollar(at.checked_sub(1).map(|i| &tokens[i])) => Some(at + 1),
            Some("super") if at == 0 || !is_path_sep_before(&tokens, at) => {
                climb_to_root(&tokens, at, module.len())
            }
            _ => None,
        };
        if let Some(next) = root_after {
            collect_targets(&tokens, next, out);
        }
        at += 1;
    }
}

/// Whether the token before `at` ends a path (`::`), so `at` is not the start of one.
fn is_path_sep_before(tokens: &[TokenTree], at: usize) -> bool {
    at >= 2 && punct(&tokens[at - 1]) == Some(':') && punct(&tokens[at - 2]) == Some(':')
}

/// After `super` at `at`: the index just past the last `super ::` when the chain climbs
/// `depth` levels or more (to the crate root), else `None`.
fn climb_to_root(tokens: &[TokenTree], mut at: usize, depth: usize) -> Option<usize> {
    let mut climbed = 0;
    loop {
        if ident(tokens.get(at)?).as_deref() != Some("super") {
            return (climbed >= depth).then_some(at - 2);
        }
        climbed += 1;
        if !(punct(tokens.get(at + 1)?) == Some(':') && punct(tokens.get(at + 2)?) == Some(':')) {
            return None;
        }
        at += 3;
    }
}

/// The modules named after `crate` / the root at `at`: `:: name` or `:: { a, b::c, ... }`.
fn collect_targets(tokens: &[TokenTree], at: usize, out: &mut Vec<Edge>) {
    let (Some(first), Some(second)) = (tokens.get(at), tokens.get(at + 1)) else {
        return;
    };
    if punct(first) != Some(':') || punct(second) != Some(':') {
        return;
    }
    match tokens.get(at + 2) {
        Some(TokenTree::Ident(name)) => out.push(Edge {
            line: name.span().start().line,
            target: name.to_string(),
        }),
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => {
            let inner: Vec<TokenTree> = group.stream().into_iter().collect();
            let mut item_start = true;
            for token in &inner {
                match token {
                    TokenTree::Ident(name) if item_start => {
                        out.push(Edge {
                            line: name.span().start().line,
                            target: name.to_string(),
                        });
                        item_start = false;
                    }
                    TokenTree::Punct(p) if p.as_char() == ',' => item_start = true,
                    _ => item_start = false,
                }
            }
        }
        _ => {}
    }
}

fn ident(token: &TokenTree) -> Option<String> {
    match token {
        TokenTree::Ident(ident) => Some(ident.to_string()),
        _ => None,
    }
}

fn punct(token: &TokenTree) -> Option<char> {
    match token {
        TokenTree::Punct(punct) => Some(punct.as_char()),
        _ => None,
    }
}

fn is_dollar(token: Option<&TokenTree>) -> bool {
    token.and_then(punct) == Some('$')
}

/// The module path of the source file at `rel` (relative to `src/`).
fn module_path(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if let Some(last) = parts.pop() {
        let stem = last.trim_end_matches(".rs");
        if stem != "mod" {
            parts.push(stem.to_owned());
        }
    }
    parts
}

/// Every `.rs` file under `dir`, recursively.
pub(crate) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src") {
        let path = entry.expect("entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_top_level_module_is_in_exactly_one_documented_layer() {
    let lib_rs = std::fs::read_to_string(src().join("lib.rs")).expect("lib.rs");
    let layers = documented_layers(&lib_rs);
    let mut declared = declared_modules(&lib_rs);
    declared.sort();
    let documented: Vec<String> = layers.keys().cloned().collect();
    assert_eq!(
        documented, declared,
        "the layers of lib.rs and its modules differ"
    );
}

#[test]
fn no_module_uses_one_of_its_own_layer_or_above() {
    let root = src();
    let lib_rs = std::fs::read_to_string(root.join("lib.rs")).expect("lib.rs");
    let layers = documented_layers(&lib_rs);
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut upward = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&root).expect("inside src");
        let module = module_path(rel);
        let Some(own) = module.first().and_then(|top| layers.get(top)) else {
            continue; // lib.rs, main.rs
        };
        let text = std::fs::read_to_string(file).expect("read");
        for edge in edges(&text, &module) {
            let Some(&target) = layers.get(&edge.target) else {
                continue; // an item of lib.rs itself
            };
            if edge.target != module[0] && target <= *own {
                upward.push(format!(
                    "src/{}:{}: `{}` (layer {own}) uses `{}` (layer {target})",
                    rel.display(),
                    edge.line,
                    module[0],
                    edge.target
                ));
            }
        }
    }
    assert!(files.len() > 100, "only {} source files found", files.len());
    assert!(upward.is_empty(), "upward edges:\n{}", upward.join("\n"));
}

#[test]
fn the_scanner_finds_paths_and_ignores_comments_and_strings() {
    let module = ["tools".to_owned(), "notes".to_owned(), "write".to_owned()];
    let source = r#"
        // use crate::mcp::Server;
        /* crate::cli */
        use crate::dispatch::Dispatcher;
        use crate::{store::Store, vault};
        use super::super::super::index::Indexes;
        use super::super::args;
        fn f() -> &'static str { let _ = crate::errors::ToolError::internal("x"); "crate::facade" }
        macro_rules! m { () => { $crate::tools::x() } }
    "#;
    let found: Vec<(usize, String)> = edges(source, &module)
        .into_iter()
        .map(|edge| (edge.line, edge.target))
        .collect();
    assert_eq!(
        found,
        [
            (4, "dispatch".to_owned()),
            (5, "store".to_owned()),
            (5, "vault".to_owned()),
            (6, "index".to_owned()),
            (8, "errors".to_owned()),
        ]
    );
}

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

/// One use of another module: the line it is on and the module it names.
#[derive(Debug, PartialEq, Eq)]
struct Edge {
    line: usize,
    target: String,
}

/// One path a file names, resolved from the crate root and cut after `depth` modules: the
/// modules (`["tools", "links"]`), the line of the last one written, and whether the path
/// starts at the root (`crate::`, or `super::` climbing there) rather than below it.
#[derive(Debug)]
struct Named {
    line: usize,
    path: Vec<String>,
    from_root: bool,
}

/// Every top-level module `source` names, for a file whose module path is `module` (e.g.
/// `["tools", "notes", "write"]`): `crate::x`, `crate::{x, y}`, and `super::...::x` when the
/// `super`s climb to the crate root.
fn edges(source: &str, module: &[String]) -> Vec<Edge> {
    named(source, module, 1)
        .into_iter()
        .filter(|named| named.from_root)
        .map(|named| Edge {
            line: named.line,
            target: named.path[0].clone(),
        })
        .collect()
}

/// Every tool family (a module directly under `tools`) `source` names, for a file whose
/// module path is `module`: `crate::tools::x`, `crate::tools::{x, y}`, `crate::{tools::x}`,
/// and `super::...::x` when the `super`s climb to `tools` (or above, then down to it).
fn family_edges(source: &str, module: &[String]) -> Vec<Edge> {
    named(source, module, 2)
        .into_iter()
        .filter(|named| named.path.len() == 2 && named.path[0] == "tools")
        .map(|named| Edge {
            line: named.line,
            target: named.path[1].clone(),
        })
        .collect()
}

/// Every `crate::` and `super::` path of `source` (module path `module`), cut after `depth`
/// modules.
fn named(source: &str, module: &[String], depth: usize) -> Vec<Named> {
    let tokens = TokenStream::from_str(source).expect("the file lexes as Rust");
    let mut out = Vec::new();
    walk(tokens, module, depth, &mut out);
    out
}

fn walk(tokens: TokenStream, module: &[String], depth: usize, out: &mut Vec<Named>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut at = 0;
    while at < tokens.len() {
        if let TokenTree::Group(group) = &tokens[at] {
            match inline_module(&tokens, at) {
                Some(name) => walk(group.stream(), &[module, &[name]].concat(), depth, out),
                None => walk(group.stream(), module, depth, out),
            }
        }
        let root = match ident(&tokens[at]).as_deref() {
            // `$crate` in a macro is the crate too, but names no module by itself
            Some("crate") if !is_dollar(at.checked_sub(1).map(|i| &tokens[i])) => Some((at + 1, 0)),
            Some("super") if at == 0 || !is_path_sep_before(&tokens, at) => {
                climb(&tokens, at, module.len())
                    .map(|(next, climbed)| (next, module.len() - climbed))
            }
            _ => None,
        };
        if let Some((next, kept)) = root {
            let start = Start {
                prefix: &module[..kept],
                line: tokens[at].span().start().line,
                from_root: kept == 0,
            };
            collect_paths(&tokens, next, &start, depth, out);
        }
        at += 1;
    }
}

/// The name of the module whose body is the group at `at` (`mod name { ... }`).
fn inline_module(tokens: &[TokenTree], at: usize) -> Option<String> {
    let before = at.checked_sub(2)?;
    (ident(&tokens[before]).as_deref() == Some("mod")).then_some(ident(&tokens[before + 1])?)
}

/// Whether the token before `at` ends a path (`::`), so `at` is not the start of one.
fn is_path_sep_before(tokens: &[TokenTree], at: usize) -> bool {
    at >= 2 && punct(&tokens[at - 1]) == Some(':') && punct(&tokens[at - 2]) == Some(':')
}

/// After `super` at `at`: the index of the `::` after the last `super` and how many levels
/// the chain climbs, when it stays inside the crate (`depth` levels at most), else `None`.
fn climb(tokens: &[TokenTree], mut at: usize, depth: usize) -> Option<(usize, usize)> {
    let mut climbed = 0;
    loop {
        if ident(tokens.get(at)?).as_deref() != Some("super") {
            return (climbed <= depth).then_some((at - 2, climbed));
        }
        climbed += 1;
        if !(punct(tokens.get(at + 1)?) == Some(':') && punct(tokens.get(at + 2)?) == Some(':')) {
            return None;
        }
        at += 3;
    }
}

/// Where a path starts: the modules its root stands for, the root's line, and whether the
/// root is the crate root.
struct Start<'a> {
    prefix: &'a [String],
    line: usize,
    from_root: bool,
}

/// The paths named after the root at `at` (`:: name ...` or `:: { a, b::c, ... }`), each
/// after `start`'s modules and cut after `depth` modules.
fn collect_paths(
    tokens: &[TokenTree],
    at: usize,
    start: &Start<'_>,
    depth: usize,
    out: &mut Vec<Named>,
) {
    if start.prefix.len() >= depth {
        out.push(Named {
            line: start.line,
            path: start.prefix[..depth].to_vec(),
            from_root: start.from_root,
        });
        return;
    }
    let (Some(first), Some(second)) = (tokens.get(at), tokens.get(at + 1)) else {
        return;
    };
    if punct(first) != Some(':') || punct(second) != Some(':') {
        return;
    }
    match tokens.get(at + 2) {
        Some(TokenTree::Ident(name)) => {
            let prefix = [start.prefix, &[name.to_string()]].concat();
            let next = Start {
                prefix: &prefix,
                line: name.span().start().line,
                from_root: start.from_root,
            };
            collect_paths(tokens, at + 3, &next, depth, out);
        }
        Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => {
            let inner: Vec<TokenTree> = group.stream().into_iter().collect();
            for item in inner.split(|token| punct(token) == Some(',')) {
                let Some(TokenTree::Ident(name)) = item.first() else {
                    continue;
                };
                let prefix = [start.prefix, &[name.to_string()]].concat();
                let next = Start {
                    prefix: &prefix,
                    line: name.span().start().line,
                    from_root: start.from_root,
                };
                collect_paths(item, 1, &next, depth, out);
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

/// The modules under `src/tools/` that are no tool family: what every family may use.
const SHARED_TOOL_PARTS: &[&str] = &["common"];

/// Every use of one tool family by a file of another (a family is a module directly under
/// `tools`, but [`SHARED_TOOL_PARTS`]), as `(file, line, from family, to family)`;
/// `tools/mod.rs`, which registers every family, is not one of them.
fn cross_family_uses() -> Vec<(String, usize, String, String)> {
    let root = src();
    let mut files = Vec::new();
    rust_files(&root.join("tools"), &mut files);
    files.sort();
    assert!(files.len() > 100, "only {} tool files found", files.len());
    let mut uses = Vec::new();
    for file in &files {
        let rel = file.strip_prefix(&root).expect("inside src");
        let module = module_path(rel);
        let Some(own) = module.get(1) else {
            continue; // tools/mod.rs
        };
        let text = std::fs::read_to_string(file).expect("read");
        for edge in family_edges(&text, &module) {
            if edge.target != *own && !SHARED_TOOL_PARTS.contains(&edge.target.as_str()) {
                uses.push((
                    format!("src/{}", rel.display()),
                    edge.line,
                    own.clone(),
                    edge.target,
                ));
            }
        }
    }
    uses
}

#[test]
fn no_tool_family_uses_another() {
    let listed: Vec<String> = cross_family_uses()
        .iter()
        .map(|(file, line, from, to)| format!("{file}:{line}: family {from} uses family {to}"))
        .collect();
    assert!(
        listed.is_empty(),
        "tool families use each other (move what they share to tools/common):\n{}",
        listed.join("\n")
    );
}

#[test]
fn the_family_scanner_resolves_paths_into_tools() {
    let module = ["tools".to_owned(), "notes".to_owned(), "write".to_owned()];
    let source = r#"
        use crate::tools::links::table::link_table;
        use crate::tools::{search::cursor_offset, common::args, links};
        use crate::{tools::tags::x, store::Store};
        use super::super::memory::memory_folder;
        use super::super::super::tools::frontmatter;
        use super::edit_flow::apply;
        use crate::tools;
        // use crate::tools::kanban;
        mod tests { use super::super::tags; use super::super::super::uri; }
    "#;
    let found: Vec<(usize, String)> = family_edges(source, &module)
        .into_iter()
        .map(|edge| (edge.line, edge.target))
        .collect();
    assert_eq!(
        found,
        [
            (2, "links".to_owned()),
            (3, "search".to_owned()),
            (3, "common".to_owned()),
            (3, "links".to_owned()),
            (4, "tags".to_owned()),
            (5, "memory".to_owned()),
            (6, "frontmatter".to_owned()),
            (7, "notes".to_owned()),
            (10, "notes".to_owned()),
            (10, "uri".to_owned()),
        ]
    );
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

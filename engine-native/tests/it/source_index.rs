//! The types whose methods are spread over several files (`Vault`, `Runtime`, `Dispatcher`)
//! keep an index in their module's docs: every file with an `impl` block of the type is
//! named there, and so is every public method declared away from the type's own file, as
//! `Type::method`. A method added in a new place without an entry fails here.

use std::path::Path;

use regex::Regex;

use crate::layers::rust_files;

/// `(module folder under src/, type, the file declaring the type)`.
const SPREAD_TYPES: [(&str, &str, &str); 3] = [
    ("vault", "Vault", "handle.rs"),
    ("runtime", "Runtime", "state.rs"),
    ("dispatch", "Dispatcher", "dispatcher.rs"),
];

/// The public methods of the `impl <ty> {` blocks of `source` (`None`: no such block).
fn public_methods(source: &str, ty: &str) -> Option<Vec<String>> {
    let opening = format!("impl {ty} {{");
    let method = Regex::new(r"^    pub fn ([a-z_0-9]+)").expect("pattern");
    let mut inside = false;
    let mut found = None::<Vec<String>>;
    for line in source.lines() {
        if line == opening {
            inside = true;
            found.get_or_insert_with(Vec::new);
        } else if inside && line == "}" {
            inside = false;
        } else if inside && let Some(name) = method.captures(line) {
            found.get_or_insert_with(Vec::new).push(name[1].to_owned());
        }
    }
    found
}

#[test]
fn the_module_docs_index_every_file_and_method_of_a_spread_type() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut missing = Vec::new();
    for (folder, ty, home) in SPREAD_TYPES {
        let dir = src.join(folder);
        let docs = std::fs::read_to_string(dir.join("mod.rs")).expect("mod.rs");
        let docs: String = docs
            .lines()
            .filter_map(|line| line.strip_prefix("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        let mut files = Vec::new();
        rust_files(&dir, &mut files);
        let mut blocks = 0;
        for file in files {
            let rel = file
                .strip_prefix(&dir)
                .expect("inside")
                .to_string_lossy()
                .replace('\\', "/");
            let source = std::fs::read_to_string(&file).expect("read");
            let Some(methods) = public_methods(&source, ty) else {
                continue;
            };
            blocks += 1;
            if !docs.contains(&format!("`{rel}`")) {
                missing.push(format!(
                    "src/{folder}/mod.rs does not name `{rel}` (impl {ty})"
                ));
            }
            if rel == home {
                continue;
            }
            for method in methods {
                if !docs.contains(&format!("{ty}::{method}`")) {
                    missing.push(format!(
                        "src/{folder}/mod.rs does not name {ty}::{method} ({rel})"
                    ));
                }
            }
        }
        assert!(blocks > 1, "{ty}: only {blocks} impl blocks found");
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}

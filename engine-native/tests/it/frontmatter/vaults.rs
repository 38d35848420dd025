//! Reading every note of the real sample vaults: no panics, invalid YAML is an error, and a
//! set/remove round trip on each readable note gives back the very same text.

use std::fs;
use std::path::{Path, PathBuf};

use obsidian_tc::frontmatter::{Edit, apply, read};
use serde_json::json;

fn notes(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            notes(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

fn survey(vault: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/vaults")
        .join(vault);
    if !root.is_dir() {
        eprintln!("{vault}: vault absent, skipped");
        return;
    }
    let mut paths = Vec::new();
    notes(&root, &mut paths);
    let (mut with_block, mut invalid, mut edited) = (0, 0, 0);
    for path in &paths {
        let Ok(text) = fs::read_to_string(path) else {
            continue;
        };
        match read(&text) {
            Ok(fm) => {
                with_block += usize::from(fm.yaml_range.is_some());
                let set = Edit::Set {
                    key: "obsidian-tc-probe".to_owned(),
                    value: json!(["01234", 1.5]),
                };
                // Layouts the line editor does not understand are refused, never mangled.
                if let Ok(added) = apply(&text, &set) {
                    let remove = Edit::Remove {
                        key: "obsidian-tc-probe".to_owned(),
                    };
                    let back = apply(&added.text, &remove).expect("remove after set");
                    assert_eq!(back.text, text, "{}", path.display());
                    assert_eq!(back.after, fm.properties, "{}", path.display());
                    edited += 1;
                }
            }
            Err(err) => {
                with_block += 1;
                invalid += 1;
                eprintln!("{}: {err}", path.display());
            }
        }
    }
    eprintln!(
        "{vault}: {} notes, {with_block} with frontmatter, {invalid} not parseable, {edited} edited and restored",
        paths.len()
    );
}

#[test]
fn kepano_vault() {
    survey("kepano");
}

#[test]
fn brain_vault() {
    survey("brain");
}

#[test]
#[ignore = "large vault (6,600 notes); run with --ignored"]
fn obsidian_hub_vault() {
    survey("obsidian-hub");
}

#[test]
#[ignore = "large vault (11,000 notes); run with --ignored"]
fn pf2e_srd_vault() {
    survey("pf2e-srd");
}

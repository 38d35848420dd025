//! Sections of the real Obsidian help vault (`../shared/vaults/obsidian-help-en`, skipped when
//! absent): every heading's section, read by its heading path, starts with the heading and
//! holds no heading of the same or a higher level after its first line.

use std::fs;
use std::path::{Path, PathBuf};

use engine_core::markdown::extract;
use obsidian_tc::edits::{EditError, ReadTarget, heading_paths, read_range};

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

#[test]
fn every_heading_section_of_the_help_vault() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/vaults/obsidian-help-en");
    if !root.is_dir() {
        eprintln!("skipped: {} is absent", root.display());
        return;
    }
    let mut files = Vec::new();
    markdown_files(&root, &mut files);
    assert!(files.len() > 100, "{} notes", files.len());
    let (mut read, mut ambiguous) = (0, 0);
    for file in &files {
        let Ok(raw) = fs::read_to_string(file) else {
            continue;
        };
        let text = raw.trim_start_matches('\u{feff}').replace("\r\n", "\n");
        let meta = extract(&text);
        for (i, path) in heading_paths(&meta.headings).into_iter().enumerate() {
            let heading = &meta.headings[i];
            match read_range(&text, &ReadTarget::Heading(path.clone())) {
                Ok(section) => {
                    read += 1;
                    assert_eq!(
                        section.lines.start,
                        heading.position.start.line + 1,
                        "{} {path:?}",
                        file.display()
                    );
                    let first = section.text.lines().next().unwrap_or_default();
                    assert!(
                        first.contains(heading.heading.as_str()),
                        "{} {path:?}: {first:?}",
                        file.display()
                    );
                    let inside = extract(&section.text);
                    let later_line = heading.position.end.line - heading.position.start.line;
                    for other in inside
                        .headings
                        .iter()
                        .filter(|h| h.position.start.line > later_line)
                    {
                        assert!(
                            other.level > heading.level,
                            "{} {path:?}: {:?} at level {}",
                            file.display(),
                            other.heading,
                            other.level
                        );
                    }
                }
                Err(EditError::Ambiguous { candidates, .. }) => {
                    // Two headings with the same full path: both are offered.
                    ambiguous += 1;
                    assert!(
                        candidates
                            .iter()
                            .any(|c| c.line == heading.position.start.line + 1)
                    );
                }
                Err(other) => panic!("{} {path:?}: {other}", file.display()),
            }
        }
    }
    eprintln!(
        "{read} sections read, {ambiguous} ambiguous paths, {} notes",
        files.len()
    );
    assert!(read > 500, "{read}");
}

//! Resolves every link of real vaults in `shared/vaults/`: the official Obsidian help
//! (curated, so nearly every link must resolve, in 34 languages with duplicated names) and
//! the pf2e SRD (about 84k markdown links with anchors). Prints counts and timings.
//!
//! Links are found with a deliberately small scanner (wikilinks and inline markdown links
//! outside fenced code), not the markdown extractor, so this test checks resolution only.

use std::path::{Path, PathBuf};
use std::time::Instant;

use engine_core::links::{LinkResolver, Resolution, parse_link};

/// The vault at `shared/vaults/<name>`, if this machine has it.
fn vault_dir(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/vaults")
        .join(name);
    dir.is_dir().then_some(dir)
}

/// Every file under `dir` (vault-relative, `/`-separated), skipping dot folders.
fn files(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.file_name().unwrap().to_string_lossy().starts_with('.') {
                continue;
            }
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(dir)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push(rel);
            }
        }
    }
    out.sort();
    out
}

/// Wikilinks, embeds and inline markdown links outside fenced code blocks and code spans.
fn links(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        if fenced {
            continue;
        }
        let mut in_code = false;
        let mut i = 0;
        while i < line.len() {
            let rest = &line[i..];
            if rest.starts_with('`') {
                in_code = !in_code;
            } else if !in_code && rest.starts_with("[[") {
                if let Some(end) = rest.find("]]") {
                    let start = if i > 0 && line.as_bytes()[i - 1] == b'!' {
                        i - 1
                    } else {
                        i
                    };
                    out.push(&line[start..i + end + 2]);
                    i += end + 2;
                    continue;
                }
            } else if !in_code
                && rest.starts_with("](")
                && let (Some(open), Some(close)) = (line[..i].rfind('['), rest.find(')'))
            {
                out.push(&line[open..i + close + 1]);
                i += close + 1;
                continue;
            }
            i += rest.chars().next().unwrap().len_utf8();
        }
    }
    out
}

/// Counts of one vault's link resolution.
#[derive(Debug, Default)]
struct Tally {
    links: usize,
    resolved: usize,
    ambiguous: usize,
    /// Unresolved links to notes.
    unresolved: usize,
    /// Unresolved links to attachments (`obsidian-help-all` holds markdown only).
    unresolved_attachments: usize,
    external_or_unparsed: usize,
}

impl Tally {
    /// Links to vault files that were looked up.
    fn internal(&self) -> usize {
        self.resolved + self.ambiguous + self.unresolved + self.unresolved_attachments
    }
}

/// Whether `linkpath` names an attachment (a file format other than markdown).
fn is_attachment(linkpath: &str) -> bool {
    const FORMATS: &[&str] = &[
        "avif", "bmp", "gif", "jpeg", "jpg", "png", "svg", "webp", "flac", "m4a", "mp3", "ogg",
        "wav", "webm", "3gp", "mkv", "mov", "mp4", "ogv", "pdf", "base", "canvas",
    ];
    let name = linkpath
        .rsplit('/')
        .next()
        .unwrap_or(linkpath)
        .to_lowercase();
    name.rsplit_once('.')
        .is_some_and(|(_, ext)| FORMATS.contains(&ext))
}

fn resolve_vault(name: &str) -> Option<Tally> {
    let dir = vault_dir(name)?;
    let paths = files(&dir);
    let t0 = Instant::now();
    let resolver = LinkResolver::new(&paths).unwrap();
    let built = t0.elapsed();
    let mut tally = Tally::default();
    let mut spent = std::time::Duration::ZERO;
    for source in paths.iter().filter(|p| p.ends_with(".md")) {
        let text = std::fs::read_to_string(dir.join(source)).unwrap();
        for link in links(&text) {
            tally.links += 1;
            let Ok(parsed) = parse_link(link) else {
                tally.external_or_unparsed += 1;
                continue;
            };
            if parsed.external {
                tally.external_or_unparsed += 1;
                continue;
            }
            let t = Instant::now();
            let resolution = resolver.resolve(&parsed.linkpath, source);
            spent += t.elapsed();
            match resolution {
                Resolution::Resolved(_) => tally.resolved += 1,
                Resolution::Ambiguous(_) => tally.ambiguous += 1,
                Resolution::Unresolved if is_attachment(&parsed.linkpath) => {
                    tally.unresolved_attachments += 1
                }
                Resolution::Unresolved => tally.unresolved += 1,
            }
        }
    }
    let per_link = spent.as_nanos() / (tally.links.max(1) as u128);
    println!(
        "{name}: {} files indexed in {built:?}; {tally:?}; resolution {spent:?} in all, {per_link} ns per link",
        paths.len()
    );
    Some(tally)
}

#[test]
fn the_english_help_vault_resolves() {
    let Some(t) = resolve_vault("obsidian-help-en") else {
        return;
    };
    assert!(t.links > 2000, "{t:?}");
    // The only unresolved notes are the help's own `[[Example]]` demonstrations.
    assert!(t.unresolved <= 6, "{t:?}");
    assert!(t.unresolved_attachments <= 2, "{t:?}");
}

#[test]
fn duplicated_help_names_prefer_the_linking_note_s_folder() {
    let Some(dir) = vault_dir("obsidian-help-en") else {
        return;
    };
    let resolver = LinkResolver::new(files(&dir)).unwrap();
    for (source, expected) in [
        (
            "Obsidian Sync/Set up Obsidian Sync.md",
            "Obsidian Sync/Security and privacy.md",
        ),
        (
            "Obsidian Publish/Introduction to Obsidian Publish.md",
            "Obsidian Publish/Security and privacy.md",
        ),
    ] {
        let r = resolver.resolve("Security and privacy", source);
        assert!(matches!(r, Resolution::Ambiguous(_)), "{r:?}");
        assert_eq!(r.first(), Some(expected));
    }
}

#[test]
fn the_multilingual_help_vault_resolves() {
    let Some(t) = resolve_vault("obsidian-help-all") else {
        return;
    };
    assert!(t.links > 50_000, "{t:?}");
    // Translations link to a few untranslated titles; under 3% of note links.
    assert!(t.unresolved * 100 < t.internal() * 3, "{t:?}");
    assert!(
        t.ambiguous > 1000,
        "duplicated names across languages must show up: {t:?}"
    );
}

#[test]
fn the_pf2e_vault_markdown_links_resolve() {
    let Some(t) = resolve_vault("pf2e-srd") else {
        return;
    };
    assert!(t.links > 50_000, "{t:?}");
    // The SRD links a few hundred trait pages it does not ship; under 2%.
    assert!(t.unresolved * 100 < t.internal() * 2, "{t:?}");
}

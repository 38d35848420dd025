//! The repository's documentation pages: every relative link resolves inside the repository
//! (to a file or folder, and an `#anchor` into a markdown page to one of its headings, by
//! GitHub's slug rules), the README stays short, and the layer list of `docs/architecture.md`
//! is the one of `engine-native/src/lib.rs`. Links inside fenced code blocks and inline code
//! are not links. The workspace builds no markdown parser, so this one is by hand: inline
//! links `[text](target)`, `<a href="target">`, and reference definitions `[id]: target`.

use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use super::layers::documented_layers;

/// The README's hard limit (the page is meant to stay near 250 lines).
const README_MAX_LINES: usize = 300;

/// The repository root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("engine-native has a parent")
        .to_path_buf()
}

/// The pages checked: the front door, the contributor and change pages, the plugin's page and
/// every page of `docs/`.
fn pages() -> Vec<PathBuf> {
    let root = root();
    let mut pages: Vec<PathBuf> = [
        "README.md",
        "CONTRIBUTING.md",
        "CHANGELOG.md",
        "plugin/README.md",
    ]
    .iter()
    .map(|page| root.join(page))
    .collect();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ exists")
        .map(|entry| entry.expect("entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// The page's lines outside fenced code blocks (```` ``` ```` or `~~~`), with their numbers
/// (fenced lines are left out), inline code blanked out.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut fence: Option<(char, usize)> = None;
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker = trimmed.chars().next().filter(|c| *c == '`' || *c == '~');
        let run = marker.map_or(0, |c| trimmed.chars().take_while(|x| *x == c).count());
        match (fence, marker) {
            (None, Some(c)) if run >= 3 => {
                fence = Some((c, run));
                continue;
            }
            (Some((c, len)), Some(m))
                if m == c && run >= len && trimmed[run..].trim().is_empty() =>
            {
                fence = None;
                continue;
            }
            (Some(_), _) => continue,
            _ => {}
        }
        out.push((index + 1, without_inline_code(line)));
    }
    out
}

/// `line` with every inline code span (`` `x` ``, ``` ``x`` ```) blanked out.
fn without_inline_code(line: &str) -> String {
    let chars: Vec<char> = line.chars().collect();
    let mut out = String::with_capacity(line.len());
    let mut at = 0;
    while at < chars.len() {
        if chars[at] != '`' {
            out.push(chars[at]);
            at += 1;
            continue;
        }
        let run = chars[at..].iter().take_while(|c| **c == '`').count();
        let close = (at + run..chars.len()).find(|&i| {
            chars[i..].iter().take_while(|c| **c == '`').count() == run
                && (i == 0 || chars[i - 1] != '`')
        });
        match close {
            Some(end) => {
                out.extend(std::iter::repeat_n(' ', end + run - at));
                at = end + run;
            }
            None => {
                out.extend(&chars[at..at + run]);
                at += run;
            }
        }
    }
    out
}

/// The link targets of one prose line: `](target)`, `<a href="target">` and a reference
/// definition `[id]: target`.
fn targets(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(at) = rest.find("](") {
        let after = &rest[at + 2..];
        let mut depth = 0usize;
        let end = after
            .char_indices()
            .find(|&(_, c)| match c {
                '(' => {
                    depth += 1;
                    false
                }
                ')' if depth == 0 => true,
                ')' => {
                    depth -= 1;
                    false
                }
                _ => false,
            })
            .map_or(after.len(), |(i, _)| i);
        let inner = after[..end].trim();
        // `<target with spaces>` or `target "title"`
        let target = match inner.strip_prefix('<') {
            Some(angled) => angled.split('>').next().unwrap_or_default(),
            None => inner.split_whitespace().next().unwrap_or_default(),
        };
        out.push(target.to_owned());
        rest = &after[end.min(after.len())..];
    }
    let lower = line.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = lower[from..].find("href=") {
        let start = from + at + "href=".len();
        let quote = line[start..].chars().next();
        if let Some(q @ ('"' | '\'')) = quote {
            let value = &line[start + 1..];
            out.push(value.split(q).next().unwrap_or_default().to_owned());
        }
        from = start;
    }
    let trimmed = line.trim_start();
    if trimmed.starts_with('[')
        && let Some(close) = trimmed.find("]:")
        && !trimmed[..close].contains("](")
        && let Some(target) = trimmed[close + 2..].split_whitespace().next()
    {
        out.push(target.to_owned());
    }
    out
}

/// GitHub's anchor of a heading: lower case, punctuation other than `-` and `_` dropped,
/// spaces to `-`; a repeated heading gets `-1`, `-2`, ...
fn slugs(text: &str) -> Vec<String> {
    let mut seen: BTreeMap<String, usize> = BTreeMap::new();
    let mut out = Vec::new();
    for (_, line) in prose_lines_keeping_code(text) {
        let Some(heading) = atx_heading(&line) else {
            continue;
        };
        let base: String = heading
            .to_lowercase()
            .chars()
            .filter_map(|c| match c {
                ' ' => Some('-'),
                '-' | '_' => Some(c),
                c if c.is_alphanumeric() => Some(c),
                _ => None,
            })
            .collect();
        let count = seen.entry(base.clone()).or_insert(0);
        out.push(if *count == 0 {
            base.clone()
        } else {
            format!("{base}-{count}")
        });
        *count += 1;
    }
    out
}

/// The lines outside fenced code, inline code kept (a heading's code spans are part of its
/// text and of its anchor).
fn prose_lines_keeping_code(text: &str) -> Vec<(usize, String)> {
    let blanked = prose_lines(text);
    let all: Vec<&str> = text.lines().collect();
    blanked
        .into_iter()
        .map(|(number, _)| (number, all[number - 1].to_owned()))
        .collect()
}

/// The text of an ATX heading (`# Title`, up to six `#`), without its closing `#`s.
fn atx_heading(line: &str) -> Option<String> {
    let trimmed = line.trim_start();
    let hashes = trimmed.chars().take_while(|c| *c == '#').count();
    if !(1..=6).contains(&hashes) || line.len() - trimmed.len() > 3 {
        return None;
    }
    let rest = &trimmed[hashes..];
    if !(rest.is_empty() || rest.starts_with(' ')) {
        return None;
    }
    Some(rest.trim().trim_end_matches('#').trim().to_owned())
}

/// `path` with `.` and `..` resolved lexically; `None` when it climbs above `root`.
fn normalize(root: &Path, path: &Path) -> Option<PathBuf> {
    let relative = path.strip_prefix(root).ok()?;
    let mut parts: Vec<&std::ffi::OsStr> = Vec::new();
    for component in relative.components() {
        match component {
            Component::Normal(part) => parts.push(part),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(
        parts
            .iter()
            .fold(root.to_path_buf(), |path, part| path.join(part)),
    )
}

/// Decodes `%XX` escapes (a link to `My%20Note.md`).
fn percent_decoded(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == b'%'
            && let Some(hex) = text.get(at + 1..at + 3)
            && let Ok(byte) = u8::from_str_radix(hex, 16)
        {
            out.push(byte);
            at += 3;
            continue;
        }
        out.push(bytes[at]);
        at += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// What is wrong with `target`, a link of the page `page`; `None` when it resolves.
fn broken(root: &Path, page: &Path, target: &str) -> Option<String> {
    if target.is_empty() {
        return Some("an empty link".to_owned());
    }
    let lower = target.to_ascii_lowercase();
    if lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("mailto:")
    {
        return None;
    }
    if target.contains("://") || lower.starts_with("file:") {
        return Some("a link outside the repository".to_owned());
    }
    let (path_part, anchor) = match target.split_once('#') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let path_part = percent_decoded(path_part);
    let file = if path_part.is_empty() {
        page.to_path_buf()
    } else if path_part.starts_with('/') {
        return Some("an absolute path (relative links only)".to_owned());
    } else {
        let joined = page.parent().expect("a page's folder").join(&path_part);
        match normalize(root, &joined) {
            Some(file) => file,
            None => return Some("climbs outside the repository".to_owned()),
        }
    };
    if !file.exists() {
        return Some(format!("{} does not exist", file.display()));
    }
    let anchor = anchor?;
    if file.extension().is_none_or(|ext| ext != "md") {
        return None; // an anchor into a source file (a line) or a folder is GitHub's business
    }
    let text = std::fs::read_to_string(&file).expect("read the linked page");
    let anchor = percent_decoded(anchor);
    if slugs(&text).contains(&anchor) {
        None
    } else {
        Some(format!(
            "no heading of {} has the anchor #{anchor}",
            file.display()
        ))
    }
}

/// Every broken link of `text` (the page at `page`), as `page:line: target: why`.
fn broken_links(root: &Path, page: &Path, text: &str) -> Vec<String> {
    let shown = page
        .strip_prefix(root)
        .unwrap_or(page)
        .display()
        .to_string();
    prose_lines(text)
        .into_iter()
        .flat_map(|(number, line)| {
            targets(&line)
                .into_iter()
                .filter_map(|target| {
                    broken(root, page, &target)
                        .map(|why| format!("{shown}:{number}: {target}: {why}"))
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn every_relative_link_of_the_pages_resolves_inside_the_repository() {
    let root = root();
    let mut broken = Vec::new();
    let mut links = 0;
    for page in pages() {
        let text = std::fs::read_to_string(&page)
            .unwrap_or_else(|error| panic!("{}: {error}", page.display()));
        links += prose_lines(&text)
            .iter()
            .map(|(_, line)| targets(line).len())
            .sum::<usize>();
        broken.extend(broken_links(&root, &page, &text));
    }
    assert!(
        links > 50,
        "only {links} links found: is the parser reading the pages?"
    );
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

#[test]
fn the_readme_is_short() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let lines = readme.lines().count();
    assert!(
        lines <= README_MAX_LINES,
        "README.md has {lines} lines, more than {README_MAX_LINES}: move the detail to docs/"
    );
}

/// The `## Layers` section of a markdown page, each line prefixed as the crate docs are, so
/// the parser of `tests/it/layers.rs` reads it as it reads `lib.rs`.
fn layers_section(page: &str) -> String {
    let mut inside = false;
    let mut out = String::new();
    for (_, line) in prose_lines_keeping_code(page) {
        if let Some(heading) = atx_heading(&line) {
            inside = heading == "Layers" && line.trim_start().starts_with("## ");
            continue;
        }
        if inside {
            out.push_str("//! ");
            out.push_str(&line);
            out.push('\n');
        }
    }
    out
}

#[test]
fn the_layers_of_the_architecture_page_are_those_of_lib_rs() {
    let root = root();
    let lib_rs = std::fs::read_to_string(root.join("engine-native/src/lib.rs")).expect("lib.rs");
    let page =
        std::fs::read_to_string(root.join("docs/architecture.md")).expect("docs/architecture.md");
    let in_code = documented_layers(&lib_rs);
    let in_docs = documented_layers(&layers_section(&page));
    assert!(
        in_code.len() > 20,
        "lib.rs lists only {} modules",
        in_code.len()
    );
    assert_eq!(
        in_docs, in_code,
        "docs/architecture.md's `## Layers` list differs from engine-native/src/lib.rs's `# Layers` (module -> layer)"
    );
}

#[test]
fn the_link_reader_finds_links_and_skips_code() {
    let text = "# A `b` c\n\n[x](docs/a.md#a-b-c) `[y](no.md)` <a href=\"z.md\">\n```\n[w](no.md)\n```\n[r]: ref.md\n## A `b` c\n";
    let found: Vec<(usize, String)> = prose_lines(text)
        .into_iter()
        .flat_map(|(number, line)| targets(&line).into_iter().map(move |t| (number, t)))
        .collect();
    assert_eq!(
        found,
        [
            (3, "docs/a.md#a-b-c".to_owned()),
            (3, "z.md".to_owned()),
            (7, "ref.md".to_owned()),
        ]
    );
    assert_eq!(slugs(text), ["a-b-c", "a-b-c-1"]);
    let root = Path::new("/repo");
    assert_eq!(
        broken(
            root,
            &root.join("docs/x.md"),
            "../../shared/ARCHITECTURE.md"
        )
        .as_deref(),
        Some("climbs outside the repository")
    );
}

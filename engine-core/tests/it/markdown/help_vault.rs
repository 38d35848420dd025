//! `extract` and `chunk` over real vaults: every note of the official help in all 34
//! languages (and the English help, `brain` and `kepano`) parses without a panic and with
//! consistent positions; for a sample of notes, counts of links, embeds, tags and block ids
//! are checked against counts made by reading the notes. `frontmatter_of` finds the same block
//! as `extract` in every note.
//!
//! The vaults live in `../shared/vaults` from the repository root; when that folder is
//! absent the tests say so and pass without checking anything.

use std::path::{Path, PathBuf};

use crate::support::markdown::{check_chunks, check_metadata};
use engine_core::markdown::{ChunkOptions, NoteMetadata, chunk_extracted, extract, frontmatter_of};

fn vault(name: &str) -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../shared/vaults")
        .join(name);
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!(
            "SKIPPED: vault {name} not found at {} (../shared is absent)",
            dir.display()
        );
        None
    }
}

fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("vault folder is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            markdown_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "md") {
            out.push(path);
        }
    }
}

/// Extracts and chunks (default budget and a small one) every note of the vault, checking
/// the invariants; returns how many notes were read.
fn check_vault(name: &str) -> Option<usize> {
    let dir = vault(name)?;
    let mut files = Vec::new();
    markdown_files(&dir, &mut files);
    files.sort();
    let small = ChunkOptions::new(64, 4).unwrap();
    let mut failures = Vec::new();
    for file in &files {
        let bytes = std::fs::read(file).expect("note is readable");
        let text = String::from_utf8_lossy(&bytes);
        let meta = extract(&text);
        if frontmatter_of(&text) != meta.frontmatter {
            failures.push(format!(
                "{}: frontmatter_of differs from extract",
                file.display()
            ));
        }
        let result = check_metadata(&text, &meta).and_then(|()| {
            for options in [ChunkOptions::default(), small] {
                check_chunks(
                    &text,
                    &meta,
                    &chunk_extracted(&text, &meta, &options),
                    &options,
                )?;
            }
            Ok(())
        });
        if let Err(why) = result {
            failures.push(format!("{}: {why}", file.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} notes failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    Some(files.len())
}

#[test]
fn every_note_of_the_help_in_34_languages_extracts_and_chunks() {
    if let Some(notes) = check_vault("obsidian-help-all") {
        assert_eq!(notes, 6289);
    }
}

#[test]
fn english_help_brain_and_kepano_extract_and_chunk() {
    for name in ["obsidian-help-en", "brain", "kepano"] {
        if let Some(notes) = check_vault(name) {
            assert!(notes > 0, "{name} has no notes");
        }
    }
}

/// Counts written by reading each note (see the comment at each call).
struct Counts {
    links: usize,
    embeds: usize,
    tags: usize,
    blocks: usize,
}

fn note(relative: &str) -> Option<(String, NoteMetadata)> {
    let path = vault("obsidian-help-all")?.join(relative);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let meta = extract(&text);
    check_metadata(&text, &meta).unwrap();
    Some((text, meta))
}

fn assert_counts(relative: &str, want: Counts) -> Option<NoteMetadata> {
    let (_, meta) = note(relative)?;
    let got = (
        meta.links.len(),
        meta.embeds.len(),
        meta.tags.len(),
        meta.blocks.len(),
    );
    assert_eq!(
        got,
        (want.links, want.embeds, want.tags, want.blocks),
        "{relative}: (links, embeds, tags, blocks)"
    );
    Some(meta)
}

#[test]
fn english_tags_note() {
    // Links: 10 wikilinks in the body plus [[Tags view]] inside the note callout (11); the
    // alias `hasTag` of [[Functions#hasTag|`hasTag`]] is code inside a link, still a link.
    // Tags: #y1984 (not #1984), #tag, #TAG, the callout's #Tag #TAG #Tag, and the four list
    // items #camelCase #PascalCase #snake_case #kebab-case; `#meeting`, `#inbox/to-read`...
    // are code spans; the YAML example is in a fence.
    let meta = assert_counts(
        "en/Editing and formatting/Tags.md",
        Counts {
            links: 11,
            embeds: 0,
            tags: 10,
            blocks: 0,
        },
    );
    if let Some(meta) = meta {
        let keys: Vec<&str> = meta.tags.iter().map(|t| t.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "y1984",
                "tag",
                "tag",
                "tag",
                "tag",
                "tag",
                "camelcase",
                "pascalcase",
                "snake_case",
                "kebab-case"
            ]
        );
    }
}

#[test]
fn english_internal_links_note() {
    // Links: 21 wikilinks outside code ([[Settings]] x2 and its three #-links, [[Command
    // palette]], [[Accepted file formats]], [[Embed Files]], the same-note [[#Preview a linked
    // file]] ...) plus two markdown links [Custom name](Example.md) and [Section
    // name](Example.md#Details); every `[[...]]` in backticks and the escaped
    // \[\[Wikilinks\]\] are not links. Embeds: ![[Quick switcher#^search-autocomplete-large]],
    // ![[internal-links-header.png#interface]], ![[link-block-heading.png#interface]].
    // Tags: none (every # is code, a link or a heading). Blocks: ^b15695 ending the first
    // paragraph and ^callout-internal-links-link-text under the tip callout; ^37066d,
    // ^37066f, ^37006f, ^quote-of-the-day are inside fences.
    let meta = assert_counts(
        "en/Linking notes and files/Internal links.md",
        Counts {
            links: 23,
            embeds: 3,
            tags: 0,
            blocks: 2,
        },
    );
    if let Some(meta) = meta {
        // [URL encode](https://...) and [safe filename practices](https://...).
        assert_eq!(meta.external_links.len(), 2);
        let ids: Vec<&str> = meta.blocks.iter().map(|b| b.id.as_str()).collect();
        assert_eq!(ids, ["b15695", "callout-internal-links-link-text"]);
    }
}

#[test]
fn japanese_tags_note() {
    // Links: the same 11 wikilinks as the English note, in Japanese. Tags: only the four
    // list items (#camelCase ...): in the prose, every # follows 、 or a kana (例えば、#1984は,
    // #tagと#TAGは, 、#Tagを), and Obsidian starts a tag only after whitespace.
    assert_counts(
        "ja/編集と書式設定/タグ.md",
        Counts {
            links: 11,
            embeds: 0,
            tags: 4,
            blocks: 0,
        },
    );
}

#[test]
fn russian_tags_note() {
    // Links: 11 wikilinks (incl. [[#Вложенные теги|вложенных тегов]] and the one in the
    // callout). Tags: #y1984, #tag, #TAG, the callout's #Tag #TAG #Tag, the four list items;
    // #1984 is all digits.
    assert_counts(
        "ru/Редактирование и форматирование/Теги.md",
        Counts {
            links: 11,
            embeds: 0,
            tags: 10,
            blocks: 0,
        },
    );
}

#[test]
fn thai_tags_note() {
    // Links: 11 wikilinks, most glued to Thai words (ปลั๊กอิน[[ค้นหา]]). Tags: #y1984, #tag,
    // #TAG, the callout's #Tag #TAG #Tag, the four list items (the Thai prose puts spaces
    // around them).
    assert_counts(
        "th/การแก้ไขและการจัดรูปแบบ/แท็ก.md",
        Counts {
            links: 11,
            embeds: 0,
            tags: 10,
            blocks: 0,
        },
    );
}

#[test]
fn chinese_callouts_note() {
    // Links: [[#支持的类型]], [[发布服务简介|...]], the callout's two links, [[命令面板|命令]]
    // right after a code span, [[编辑与预览笔记#实时预览|...]], [[CSS 代码片段]],
    // [[第三方插件]], [[#自定义标注]]. Embeds: ![[Engelbart.jpg]] in the info callout and
    // ![[贡献者#^lucide]] in the warning callout; the fenced copies do not count. Callouts:
    // 23 (info, tip, tip, faq, question > todo > example, warning, tip, tip, then 13 type
    // samples); the `> > [!note]` lines inside `> ```md` fences are code.
    let meta = assert_counts(
        "zh/编辑与格式化/标注.md",
        Counts {
            links: 9,
            embeds: 2,
            tags: 0,
            blocks: 0,
        },
    );
    if let Some(meta) = meta {
        assert_eq!(meta.callouts.len(), 23);
        let nested: Vec<usize> = meta.callouts[4..7].iter().map(|c| c.depth).collect();
        assert_eq!(nested, [1, 2, 3]);
    }
}

#[test]
fn arabic_embed_files_note() {
    // Links: 6 wikilinks (one glued to the letter و). Embeds outside the ```md fences:
    // ![[روابط داخلية#^b15695]], ![[Engelbart.jpg#outline]], ![[Engelbart.jpg#outline|100]],
    // the .ogg, and ![[الإضافات الأساسية#...]]; ![250](https://...) is an external image.
    // Blocks: ^my-list-id is inside a fence.
    let meta = assert_counts(
        "ar/ربط الملاحظات والملفات/تضمين الملفات.md",
        Counts {
            links: 6,
            embeds: 5,
            tags: 0,
            blocks: 0,
        },
    );
    if let Some(meta) = meta {
        assert_eq!(meta.external_links.len(), 1);
        assert!(meta.external_links[0].embed);
    }
}

#[test]
fn hebrew_manage_notes_note() {
    // Links: 10 wikilinks (two glued to the prefix מ). Blocks: ^blockquote-system-limitation,
    // on the line after the hint callout (a lazy continuation, then a blank line).
    assert_counts(
        "he/קבצים ותיקיות/ניהול הערות.md",
        Counts {
            links: 10,
            embeds: 0,
            tags: 0,
            blocks: 1,
        },
    );
}

#[test]
fn korean_templates_note() {
    // Links: 17 wikilinks, among them [[#^template-settings-date-time-formatting|...]] to a
    // block of the same note; the `[[]]` and `tags:` in the ```markdown fence do not count.
    // Embeds: ![[lucide-cog.svg#icon]] glued after **[[설정]]** and
    // ![[속성#^templates-properties]]. Blocks: ^template-settings-date-time-formatting.
    // List items: two ordered lists of two.
    let meta = assert_counts(
        "ko/플러그인/템플릿.md",
        Counts {
            links: 17,
            embeds: 2,
            tags: 0,
            blocks: 1,
        },
    );
    if let Some(meta) = meta {
        assert_eq!(meta.list_items.len(), 4);
        assert_eq!(meta.list_items[1].parent, None);
    }
}

//! The compact Unigram model (`embed::local::unigram`) against the `tokenizers` crate's own,
//! on the default model's stand-in tokenizer (XLM-R's 250,002 pieces): the same ids and
//! offsets for every note of the help vault in eleven languages and for hostile text, in a
//! fraction of the memory.

use std::path::Path;

use obsidian_tc::embed::local::tokenizer::{TextModel, TextTokenizer};

use crate::support::hub_mirror::e5_model;

/// Texts no note has: empty, blank, characters no piece covers (runs fused into one `unk`),
/// added-token look-alikes, a long run of one character, mixed scripts, control characters.
const HOSTILE: [&str; 12] = [
    "",
    "   \t\n  ",
    "𓀀𓀁𓀂 hieroglyphs 𓀃",
    "<s> <unk> </s> <pad> <mask>",
    "query: passage: ",
    "\u{0}\u{1}\u{7f}\u{200b}\u{feff}zero width",
    "🦀🦀🦀 emoji 👩‍👩‍👧 family",
    "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ １２３",
    "mixed Кириллица 漢字 العربية ไทย 한국어 text",
    "a̐éö̲ combining marks",
    "[[Link|alias]] `code` **bold** #tag ^block-id",
    "x",
];

fn notes(language: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut folders = vec![
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../shared/vaults/obsidian-help-all")
            .join(language),
    ];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("help vault folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|ext| ext == "md") {
                out.push(std::fs::read_to_string(&path).expect("read"));
            }
        }
    }
    out
}

#[test]
fn the_compact_unigram_gives_the_crate_s_ids_and_offsets() {
    let path = e5_model().join("tokenizer.json");
    let compact = TextTokenizer::from_file(&path).expect("compact");
    assert!(
        matches!(compact.get_model(), TextModel::Compact(_)),
        "XLM-R's Unigram loads compact"
    );
    if let TextModel::Compact(model) = compact.get_model() {
        eprintln!("compact Unigram: {} bytes on the heap", model.heap_bytes());
    }
    let reference = tokenizers::Tokenizer::from_file(&path).expect("crate");
    let mut texts: Vec<String> = HOSTILE.iter().map(|t| (*t).to_owned()).collect();
    texts.push("a".repeat(5_000));
    let long_run = texts.len() - 1;
    for language in [
        "en", "ru", "de", "fr", "es", "ja", "zh", "ar", "th", "ko", "bn",
    ] {
        texts.extend(notes(language));
    }
    assert!(texts.len() > 1_000, "{} texts", texts.len());
    let mut pieces = 0;
    for (at, text) in texts.iter().enumerate() {
        let ours = compact.encode(text.as_str(), true).expect("ours");
        let theirs = reference.encode(text.as_str(), true).expect("theirs");
        assert_eq!(
            ours.get_ids(),
            theirs.get_ids(),
            "ids of text {at}: {:.80}",
            text
        );
        assert_eq!(
            ours.get_offsets(),
            theirs.get_offsets(),
            "offsets of text {at}"
        );
        pieces += ours.get_ids().len();
    }
    assert!(pieces > 1_000_000, "{pieces} pieces compared");
    let unk = compact.token_to_id("<unk>").expect("unk");
    let hieroglyphs = compact.encode(HOSTILE[2], false).expect("hieroglyphs");
    assert!(
        hieroglyphs.get_ids().contains(&unk),
        "uncovered characters are unk"
    );
    assert!(
        compact
            .encode(texts[long_run].as_str(), false)
            .expect("run")
            .len()
            > 1
    );
    assert_eq!(compact.get_vocab_size(true), reference.get_vocab_size(true));
    for id in [0, 3, 5, 250_001] {
        assert_eq!(
            compact.id_to_token(id),
            reference.id_to_token(id),
            "piece {id}"
        );
    }
}

/// The local engines' batches are formed by word pieces, not bytes: over texts whose byte
/// order differs from their word-piece order, every row holds its own text's ids, rows run
/// fewest pieces first, and each batch is padded only to its own longest row.
#[test]
fn batches_are_sorted_by_word_pieces_and_padded_to_their_own_longest() {
    use obsidian_tc::embed::local::encoder::{length_sorted_batches, load_tokenizer};
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/tiny-models/e5-small-like/tokenizer.json");
    let tokenizer = load_tokenizer(&path, 512).expect("tokenizer");
    let texts = [
        "a b c d e f g h i j k l m n o p",
        "日本語",
        "internationalization",
        "x",
        "one two three four five six seven eight nine ten eleven twelve",
        "Semantic search finds notes by meaning.",
        "a b c",
    ];
    let pieces: Vec<usize> = texts
        .iter()
        .map(|text| tokenizer.encode(*text, true).expect("encode").len())
        .collect();
    assert!(
        texts[1].len() > texts[6].len() && pieces[1] < pieces[6],
        "the texts' byte order differs from their word-piece order: {pieces:?}"
    );
    let (order, batches) = length_sorted_batches(&tokenizer, &texts, 3).expect("batches");
    let mut sorted = order.clone();
    sorted.sort_unstable();
    assert_eq!(
        sorted,
        (0..texts.len()).collect::<Vec<_>>(),
        "every text once"
    );
    assert_eq!(
        batches.iter().map(|b| b.rows).collect::<Vec<_>>(),
        vec![3, 3, 1]
    );
    let counts: Vec<usize> = order.iter().map(|&i| pieces[i]).collect();
    assert!(
        counts.windows(2).all(|pair| pair[0] <= pair[1]),
        "fewest word pieces first: {counts:?}"
    );
    let mut row = 0;
    for batch in &batches {
        let longest = order[row..row + batch.rows]
            .iter()
            .map(|&i| pieces[i])
            .max()
            .expect("rows");
        assert_eq!(batch.width, longest, "padded to its own longest row");
        for r in 0..batch.rows {
            let text = order[row + r];
            let own = tokenizer.encode(texts[text], true).expect("encode");
            let cells = r * batch.width..(r + 1) * batch.width;
            assert_eq!(
                &batch.ids[cells.start..cells.start + own.len()],
                own.get_ids()
            );
            let real: u32 = batch.mask[cells].iter().sum();
            assert_eq!(
                real as usize,
                own.len(),
                "text {text}: its own pieces unpadded"
            );
        }
        row += batch.rows;
    }
}

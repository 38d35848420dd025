#!/usr/bin/env python3
"""Writes tests/vectors/text_analyze.json (export `analyze`): tokenization cases.

Expected values are written BY HAND below, from the tokenization rules documented in
engine-core/src/text/mod.rs: each expected token is given as (term, source text). This
script only does the clerical part: it finds each source text in the input (after the
end of the previous token; with "~" after the start of the previous token, for overlapping
bigrams; with "=" at the same place as the previous token) and turns it into UTF-8 byte
offsets, and numbers the positions. Stems in the default-settings cases were worked out by
hand with the Porter2 rules (and agree with snowballstemmer).

Run from the repository root: python3 tests/vectors/gen/text_analyze.py
"""

import os
import unicodedata as ud

from text_common import ROOT, write_doc

OUT = os.path.join(ROOT, "tests", "vectors", "text_analyze.json")

PLAIN = {"stemmer": "none"}
ENGLISH = {"stopwords": "english"}
BLOB = "QUJD" * 2500  # 10,000 characters of base64

CASES = [
    # --- empty and non-word input -------------------------------------------------------------
    ("empty text", "", {}, []),
    ("whitespace only", " \t\r\n\u000b\u000c  ", {}, []),
    ("punctuation only", "!?.,;:—…«»()[]{}#@&*%$^~`|\\/<>=+-_\"'", {}, []),
    ("emoji, skin tones, ZWJ sequences and flags are not tokens", "😀 👍🏽 👨‍👩‍👧‍👦 🏳️‍🌈 🇫🇷🇩🇪 ❤️", {}, []),
    ("invisible characters only", "\u200b\u200d\ufeff\u00ad\u200e", {}, []),
    ("replacement character U+FFFD separates words", "abc\ufffddef \ufffd", PLAIN, [("abc", "abc"), ("def", "def")]),
    # --- words, case, numbers -----------------------------------------------------------------
    ("words are lowercased, offsets point into the input", "Hello, World! Obsidian VAULT", PLAIN,
     [("hello", "Hello"), ("world", "World"), ("obsidian", "Obsidian"), ("vault", "VAULT")]),
    ("case kept when fold_case is off", "Hello WORLD", {"fold_case": False, "stemmer": "none"},
     [("Hello", "Hello"), ("WORLD", "WORLD")]),
    ("numbers keep separators between digits only", "Pi is 3.14, about 1,000 or 1'000; v1.2.3 (2024-05-01) 1..2 x.1",
     PLAIN, [("pi", "Pi"), ("is", "is"), ("3.14", "3.14"), ("about", "about"), ("1,000", "1,000"), ("or", "or"),
             ("1'000", "1'000"), ("v1.2.3", "v1.2.3"), ("2024", "2024"), ("05", "05"), ("01", "01"), ("1", "1"),
             ("2", "2"), ("x", "x"), ("1", "1")]),
    ("fraction slash joins digits like UAX #29 MidNum", "½ 3⁄4", PLAIN, [("1⁄2", "½"), ("3⁄4", "3⁄4")]),
    ("underscore splits numbers too", "1_000", PLAIN, [("1", "1"), ("000", "000")]),
    # --- apostrophes -------------------------------------------------------------------------
    ("apostrophes split words; possessive s is dropped",
     "don't l'homme cafe's it’s O'Brien rock'n'roll students' 1's", PLAIN,
     [("don", "don"), ("t", "t"), ("l", "l"), ("homme", "homme"), ("cafe", "cafe"), ("it", "it"), ("o", "O"),
      ("brien", "Brien"), ("rock", "rock"), ("n", "n"), ("roll", "roll"), ("students", "students"), ("1", "1"),
      ("s", "s")]),
    ("possessive with default stemming", "The cat's whiskers", {},
     [("the", "The"), ("cat", "cat"), ("whisker", "whiskers")]),
    ("upper-case possessive S", "CAFE'S NAÏVE’S", PLAIN, [("cafe", "CAFE"), ("naive", "NAÏVE")]),
    # --- stop words and stemming ---------------------------------------------------------------
    ("english preset: stop words and Porter2", "The quick brown foxes are jumping over the lazy dogs", ENGLISH,
     [("quick", "quick"), ("brown", "brown"), ("fox", "foxes"), ("jump", "jumping"), ("over", "over"),
      ("lazi", "lazy"), ("dog", "dogs")]),
    ("stop words are matched after case folding", "THE And OF", ENGLISH, []),
    ("stop words are exact when case is not folded", "The the A a", {"stopwords": "english", "fold_case": False, "stemmer": "none"},
     [("The", "The"), ("A", "A")]),
    ("stop words are removed without gaps in positions", "war and peace", {"stopwords": "english", "stemmer": "none"},
     [("war", "war"), ("peace", "peace")]),
    ("only a-z terms are stemmed", "runs covid19 running2 Ελληνικά", {}, [("run", "runs"), ("covid19", "covid19"),
     ("running2", "running2"), ("ελληνικα", "Ελληνικά")]),
    ("ligatures fold before stemming", "ﬁnding signiﬁcant ﬂows", {},
     [("find", "ﬁnding"), ("signific", "signiﬁcant"), ("flow", "ﬂows")]),
    ("default settings fold and stem", "Crème Brûlée recipes", {}, [("creme", "Crème"), ("brule", "Brûlée"), ("recip", "recipes")]),
    # --- punctuation inside words --------------------------------------------------------------
    ("intra-word punctuation splits words", "snake_case node.js e.g. user@example.com https://obsidian.md/help#Links a:b",
     PLAIN, [("snake", "snake"), ("case", "case"), ("node", "node"), ("js", "js"), ("e", "e"), ("g", "g"),
             ("user", "user"), ("example", "example"), ("com", "com"), ("https", "https"), ("obsidian", "obsidian"),
             ("md", "md"), ("help", "help"), ("links", "Links"), ("a", "a"), ("b", "b")]),
    ("obsidian markup", "[[Note Name|alias]] #tag/sub ![[image.png]] ^block-id %%comment%%", PLAIN,
     [("note", "Note"), ("name", "Name"), ("alias", "alias"), ("tag", "tag"), ("sub", "sub"), ("image", "image"),
      ("png", "png"), ("block", "block"), ("id", "id"), ("comment", "comment")]),
    ("markdown emphasis and code", "**bold** _italic_ `code_span` ~~strike~~", PLAIN,
     [("bold", "bold"), ("italic", "italic"), ("code", "code"), ("span", "span"), ("strike", "strike")]),
    ("url with query string", "https://example.com/path?q=hello+world&x=1", PLAIN,
     [("https", "https"), ("example", "example"), ("com", "com"), ("path", "path"), ("q", "q"), ("hello", "hello"),
      ("world", "world"), ("x", "x"), ("1", "1")]),
    ("hyphens and dashes split", "state-of-the-art well‐known 1990–2000 a—b", PLAIN,
     [("state", "state"), ("of", "of"), ("the", "the"), ("art", "art"), ("well", "well"), ("known", "known"),
      ("1990", "1990"), ("2000", "2000"), ("a", "a"), ("b", "b")]),
    ("C-family names", "C++ C# .NET F#", PLAIN, [("c", "C"), ("c", "C"), ("net", "NET"), ("f", "F")]),
    ("catalan middle dot splits", "col·lecció", PLAIN, [("col", "col"), ("leccio", "lecció")]),
    # --- CJK, Hangul, Thai ---------------------------------------------------------------------
    ("japanese: overlapping bigrams across kanji and kana", "東京都に住んでいます", {},
     [("東京", "東京"), ("京都", "京都", "~"), ("都に", "都に", "~"), ("に住", "に住", "~"), ("住ん", "住ん", "~"),
      ("んで", "んで", "~"), ("でい", "でい", "~"), ("いま", "いま", "~"), ("ます", "ます", "~")]),
    ("chinese: full-width punctuation ends a run", "我爱北京，天安门。", {},
     [("我爱", "我爱"), ("爱北", "爱北", "~"), ("北京", "北京", "~"), ("天安", "天安"), ("安门", "安门", "~")]),
    ("a lone ideograph is a unigram", "日 本 日", {}, [("日", "日"), ("本", "本"), ("日", "日")]),
    ("latin word then katakana run", "Obsidianのプラグイン", {},
     [("obsidian", "Obsidian"), ("のプ", "のプ"), ("プラ", "プラ", "~"), ("ラグ", "ラグ", "~"), ("グイ", "グイ", "~"),
      ("イン", "イン", "~")]),
    ("japanese hashtag", "#日本語タグ", {},
     [("日本", "日本"), ("本語", "本語", "~"), ("語タ", "語タ", "~"), ("タグ", "タグ", "~")]),
    ("newline ends a CJK run", "日本\n語", {}, [("日本", "日本"), ("語", "語")]),
    ("digits split CJK runs", "2024年5月", {}, [("2024", "2024"), ("年", "年"), ("5", "5"), ("月", "月")]),
    ("korean: bigrams per word", "한국어 텍스트 검색", {},
     [("한국", "한국"), ("국어", "국어", "~"), ("텍스", "텍스"), ("스트", "스트", "~"), ("검색", "검색")]),
    ("korean as NFD jamo gives the NFC terms", ud.normalize("NFD", "한국어"), {},
     [("한국", ud.normalize("NFD", "한국")), ("국어", ud.normalize("NFD", "국어"), "~")]),
    ("hangul and digits in one UAX #29 word", "아이폰15", {}, [("아이", "아이"), ("이폰", "이폰", "~"), ("15", "15")]),
    ("thai: bigrams of letters", "ภาษาไทย", {},
     [("ภา", "ภา"), ("าษ", "าษ", "~"), ("ษา", "ษา", "~"), ("าไ", "าไ", "~"), ("ไท", "ไท", "~"), ("ทย", "ทย", "~")]),
    ("thai: marks stay with their consonant", "ที่นี่ไทย", {},
     [("ที่นี่", "ที่นี่"), ("นี่ไ", "นี่ไ", "~"), ("ไท", "ไท", "~"), ("ทย", "ทย", "~")]),
    ("thai: zero width space separates words; thai digits are a number", "ภาษา\u200bไทย ๑๒๓", {},
     [("ภา", "ภา"), ("าษ", "าษ", "~"), ("ษา", "ษา", "~"), ("ไท", "ไท"), ("ทย", "ทย", "~"), ("๑๒๓", "๑๒๓")]),
    ("cjk_bigrams off: plain UAX #29 words", "東京都 カタカナ 한국어 ไทย", {"cjk_bigrams": False},
     [("東", "東"), ("京", "京"), ("都", "都"), ("カタカナ", "カタカナ"), ("한국어", "한국어"), ("ไ", "ไ"), ("ท", "ท"),
      ("ย", "ย")]),
    ("half-width katakana composes with its voicing marks", "ｶﾞｷﾞ", {}, [("ガギ", "ｶﾞｷﾞ")]),
    ("full-width latin and ideographic space", "ＯＢＳＩＤＩＡＮ　ノート", PLAIN,
     [("obsidian", "ＯＢＳＩＤＩＡＮ"), ("ノー", "ノー"), ("ート", "ート", "~")]),
    # --- mixed scripts -------------------------------------------------------------------------
    ("mixed scripts in one string", "Latin Кириллица العربية 漢字 한글 ไทย हिन्दी Ελληνικά", PLAIN,
     [("latin", "Latin"), ("кириллица", "Кириллица"), ("العربية", "العربية"), ("漢字", "漢字"), ("한글", "한글"),
      ("ไท", "ไท"), ("ทย", "ทย", "~"), ("हिन्दी", "हिन्दी"), ("ελληνικα", "Ελληνικά")]),
    ("latin and cyrillic joined by a hyphen", "Moskva-Москва", PLAIN, [("moskva", "Moskva"), ("москва", "Москва")]),
    ("mixed-script lookalike stays one word", "pаypal", PLAIN, [("pаypal", "pаypal")]),
    ("arabic harakat and hamza are folded", "السَّلامُ عَلَيْكُم أحمد", PLAIN,
     [("السلام", "السَّلامُ"), ("عليكم", "عَلَيْكُم"), ("احمد", "أحمد")]),
    ("hebrew niqqud is folded", "שָׁלוֹם", PLAIN, [("שלום", "שָׁלוֹם")]),
    ("devanagari vowel signs and nukta are kept", "हिन्दी ज़िंदगी", PLAIN, [("हिन्दी", "हिन्दी"), ("ज़िंदगी", "ज़िंदगी")]),
    ("cyrillic yo and short i are folded", "Ёлка йод", PLAIN, [("елка", "Ёлка"), ("иод", "йод")]),
    # --- emoji and invisible characters ---------------------------------------------------------
    ("emoji between words", "I ❤️ Obsidian 👍🏽 and 🇫🇷", PLAIN, [("i", "I"), ("obsidian", "Obsidian"), ("and", "and")]),
    ("keycap: the digit is a token, the keycap marks are dropped", "#️⃣ 1️⃣ 2", PLAIN, [("1", "1️⃣"), ("2", "2")]),
    ("zero width joiner and soft hyphen vanish inside words", "foo\u200dbar hy\u00adphen", PLAIN,
     [("foobar", "foo\u200dbar"), ("hyphen", "hy\u00adphen")]),
    ("zero width space separates words", "foo\u200bbar", PLAIN, [("foo", "foo"), ("bar", "bar")]),
    ("bidi marks are invisible; a trailing one stays in the span", "\u200fשלום\u200e world", PLAIN,
     [("שלום", "שלום\u200e"), ("world", "world")]),
    ("line and paragraph separators, NEL and no-break space separate words",
     "one\u2028two\u2029three\u0085four a\u00a0b", PLAIN,
     [("one", "one"), ("two", "two"), ("three", "three"), ("four", "four"), ("a", "a"), ("b", "b")]),
    # --- normalization ---------------------------------------------------------------------------
    ("NFD input gives NFC terms", "Cafe\u0301 cre\u0300me", {"fold_diacritics": False, "stemmer": "none"},
     [("café", "Cafe\u0301"), ("crème", "cre\u0300me")]),
    ("NFC input gives the same terms", "Café crème", {"fold_diacritics": False, "stemmer": "none"},
     [("café", "Café"), ("crème", "crème")]),
    ("a leading combining mark is not a token", "\u0301abc", {"fold_diacritics": False, "stemmer": "none"},
     [("abc", "abc")]),
    ("compatibility characters", "Ⅻ ① ㎏ ℃ x² H₂O", PLAIN,
     [("xii", "Ⅻ"), ("1", "①"), ("kg", "㎏"), ("c", "℃"), ("x2", "x²"), ("h2o", "H₂O")]),
    ("without compatibility folding superscripts are separate tokens", "x² ＡＢＣ",
     {"fold_compatibility": False, "stemmer": "none"}, [("x", "x"), ("²", "²"), ("ａｂｃ", "ＡＢＣ")]),
    ("greek final sigma folds to sigma", "ΣΊΣΥΦΟΣ Σίσυφος", PLAIN, [("σισυφοσ", "ΣΊΣΥΦΟΣ"), ("σισυφοσ", "Σίσυφος")]),
    ("german sharp s", "Straße STRASSE ẞ", PLAIN, [("strasse", "Straße"), ("strasse", "STRASSE"), ("ss", "ẞ")]),
    ("turkish dotted and dotless i", "İstanbul ISPARTA ısparta", PLAIN,
     [("istanbul", "İstanbul"), ("isparta", "ISPARTA"), ("isparta", "ısparta")]),
    ("turkish i without diacritic folding", "İstanbul ısparta", {"fold_diacritics": False, "stemmer": "none"},
     [("i\u0307stanbul", "İstanbul"), ("ısparta", "ısparta")]),
    ("zalgo text", "Z̴̡͖a̷l̸g̶o̵", PLAIN, [("zalgo", "Z̴̡͖a̷l̸g̶o̵")]),
    ("500 combining marks on one letter", "a" + "\u0301" * 500, PLAIN, [("a", "a" + "\u0301" * 500)]),
    ("500 kept combining marks exceed max_token_chars", "a" + "\u0301" * 500, {"fold_diacritics": False}, []),
    # --- long tokens -----------------------------------------------------------------------------
    ("a 10,000-character base64 blob is dropped", f"before {BLOB} after", PLAIN, [("before", "before"), ("after", "after")]),
    ("64 characters are kept, 65 dropped", "a" * 64 + " " + "b" * 65, PLAIN, [("a" * 64, "a" * 64)]),
    ("max_token_chars 0 means no limit", "b" * 100, {"max_token_chars": 0, "stemmer": "none"}, [("b" * 100, "b" * 100)]),
    ("max_token_chars counts characters, not bytes", "éé ééé", {"max_token_chars": 2, "stemmer": "none"}, [("ee", "éé")]),
    ("long CJK runs give many short bigrams", "漢" * 100, {}, [("漢漢", "漢漢")] + [("漢漢", "漢漢", "~")] * 98),
]

ERRORS = [
    ("missing text", {}),
    ("text is not a string", {"text": 5}),
    ("unknown input field", {"text": "a", "lang": "en"}),
    ("unknown settings field", {"text": "a", "settings": {"fold_cases": True}}),
    ("unknown stemmer", {"text": "a", "settings": {"stemmer": "porter"}}),
    ("negative max_token_chars", {"text": "a", "settings": {"max_token_chars": -1}}),
]


def locate(text, specs):
    tokens, prev_start, prev_end = [], 0, 0
    for spec in specs:
        term, source, mode = (spec + ("",))[:3]
        if mode == "=":
            start = prev_start
        else:
            origin = prev_start + 1 if mode == "~" else prev_end
            start = text.find(source, origin)
            assert start >= 0, (text, spec)
        end = start + len(source)
        b_start, b_end = len(text[:start].encode("utf-8")), len(text[:end].encode("utf-8"))
        tokens.append({"term": term, "start": b_start, "end": b_end, "position": len(tokens)})
        prev_start, prev_end = start, end
    return tokens


def main():
    cases = []
    for name, text, settings, specs in CASES:
        inp = {"text": text} if settings == {} and name.startswith("empty") else {"text": text, "settings": settings}
        cases.append({"name": name, "input": inp, "expected": {"tokens": locate(text, specs)}})
    cases.append({"name": "settings omitted: defaults", "input": {"text": "Running cats"},
                  "expected": {"tokens": locate("Running cats", [("run", "Running"), ("cat", "cats")])}})
    cases.append({"name": "settings null: defaults", "input": {"text": "Running cats", "settings": None},
                  "expected": {"tokens": locate("Running cats", [("run", "Running"), ("cat", "cats")])}})
    for name, inp in ERRORS:
        cases.append({"name": name, "input": inp, "error": "invalid_input"})
    doc = {
        "function": "analyze",
        "description": "Tokenization: words, numbers, apostrophes, stop words, stemming, punctuation, CJK/Hangul/Thai "
        "bigrams, mixed scripts, emoji, invisible characters, normalization, long tokens, invalid input.",
        "expected_source": "hand-written (term and source span per token) in tests/vectors/gen/text_analyze.py, "
        "which only converts spans to UTF-8 byte offsets",
        "cases": cases,
    }
    write_doc(OUT, doc)


if __name__ == "__main__":
    main()

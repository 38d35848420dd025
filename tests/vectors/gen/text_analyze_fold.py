#!/usr/bin/env python3
"""Generates tests/vectors/text_analyze_fold.json (export `analyze`): normalization and
folding of whole words.

Independent source: Python's `unicodedata` (NFC/NFD/NFKC/NFKD, categories) and
`str.casefold()`, applying the folding rules documented in engine-core/src/text
(normalize.rs, chars.rs), restated below without looking at the engine's output:

  fold(s) = NF[K]C( strip( lower(casefold(NF[K]D(s))) ) )

  1. NFKD (fold_compatibility) or NFD;
  2. drop Default_Ignorable_Code_Point characters except U+200B, and enclosing marks (Me);
  3. fold_case: str.casefold() then str.lower(), decomposed again;
  4. fold_diacritics: drop combining marks (category M*) of the diacritic blocks below, and
     map the stroke letters below;
  5. NFKC (fold_compatibility) or NFC.

Stems come from the `snowballstemmer` package (English), applied as the engine documents:
only to terms made of the letters a-z.

Every case is a few space-separated words, each of which is one token (letters, digits and
marks only, no CJK/Thai, no punctuation), so a token's byte offsets are those of its word.
Each case whose NFD form differs is emitted a second time with NFD input: same terms,
different offsets.

Run from the repository root: python3 tests/vectors/gen/text_analyze_fold.py
"""

import os
import unicodedata as ud
from importlib.metadata import version

import snowballstemmer

from text_common import ROOT, write_doc

OUT = os.path.join(ROOT, "tests", "vectors", "text_analyze_fold.json")

IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200C, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]
DIACRITIC_BLOCKS = [
    (0x0300, 0x036F), (0x0483, 0x0489), (0x0591, 0x05C7), (0x0610, 0x061A), (0x064B, 0x065F),
    (0x0670, 0x0670), (0x06D6, 0x06ED), (0x1AB0, 0x1AFF), (0x1DC0, 0x1DFF), (0x20D0, 0x20FF),
    (0xFE20, 0xFE2F),
]
STROKE = dict(zip("ØøĐđĦħıŁłŦŧƀƗƵƶǤǥȷɃɨ", "OoDdHhiLlTtbIZzGgjBi"))
BIGRAM_BLOCKS = [
    (0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1100, 0x11FF), (0x1780, 0x17FF), (0x2E80, 0x2FDF),
    (0x3005, 0x3007), (0x3021, 0x3029), (0x3031, 0x3035), (0x3038, 0x303C), (0x3041, 0x30FF),
    (0x3131, 0x318F), (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xA960, 0xA97F),
    (0xAC00, 0xD7FF), (0xF900, 0xFAFF), (0xFF66, 0xFFDC), (0x20000, 0x3FFFF),
]

STEMMER = snowballstemmer.stemmer("english")
DEFAULTS = {"fold_case": True, "fold_diacritics": True, "fold_compatibility": True, "stemmer": "english"}


def in_ranges(c, ranges):
    return any(lo <= ord(c) <= hi for lo, hi in ranges)


def dropped(c):
    return in_ranges(c, IGNORABLE) or ud.category(c) == "Me"


def fold(s, case, diacritics, compat):
    decomposed = "NFKD" if compat else "NFD"
    s = ud.normalize(decomposed, s)
    s = "".join(c for c in s if not dropped(c))
    if case:
        s = ud.normalize(decomposed, s.casefold()).lower()
    if diacritics:
        s = "".join(STROKE.get(c, c) for c in s if not (in_ranges(c, DIACRITIC_BLOCKS) and ud.category(c)[0] == "M"))
    s = "".join(c for c in s if not dropped(c))
    return ud.normalize("NFKC" if compat else "NFC", s)


def term_of(word, settings):
    s = {**DEFAULTS, **settings}
    term = fold(word, s["fold_case"], s["fold_diacritics"], s["fold_compatibility"])
    assert term and all(ud.category(c)[0] in "LNM" for c in term), (word, term)
    assert not any(in_ranges(c, BIGRAM_BLOCKS) for c in term), (word, term)
    assert ud.category(term[0])[0] != "M", (word, term)
    if s["stemmer"] == "english" and term.isascii() and term.isalpha() and term.islower():
        term = STEMMER.stemWord(term)
    return term


def tokens(text, settings):
    out, offset = [], 0
    for word in text.split(" "):
        start = offset
        offset += len(word.encode("utf-8")) + 1
        if word:
            end = start + len(word.encode("utf-8"))
            out.append({"term": term_of(word, settings), "start": start, "end": end, "position": len(out)})
    return out


PLAIN = {"stemmer": "none"}
NO_DIACRITICS = {"fold_diacritics": False, "stemmer": "none"}
CASES = [
    ("french accents", "Crème Brûlée naïve café Noël", [{}, PLAIN, NO_DIACRITICS, {"fold_case": False, "stemmer": "none"},
                                                          {"fold_case": False, "fold_diacritics": False, "stemmer": "none"}]),
    ("german sharp s and umlauts", "Straße STRASSE Maß Fußgänger ÄÖÜ ẞ", [{}, PLAIN, NO_DIACRITICS]),
    ("turkish dotted and dotless i", "İstanbul ISPARTA ısparta Iğdır İzmir", [PLAIN, NO_DIACRITICS]),
    ("greek tonos, final sigma, iota subscript", "ΟΔΥΣΣΕΥΣ Ὀδυσσεύς ᾅδης ΐ Σίσυφος ᾼ", [PLAIN, NO_DIACRITICS]),
    ("cyrillic yo, short i, ukrainian", "Ёлка ЙОГУРТ Ўзбек Їжак Ґанок", [PLAIN, NO_DIACRITICS]),
    ("vietnamese stacked diacritics", "Tiếng Việt Hà Nội Đà Nẵng", [PLAIN, NO_DIACRITICS]),
    ("polish and nordic letters", "Łódź Gdańsk Ørsted Ærø Håkon", [PLAIN, NO_DIACRITICS]),
    ("full-width latin and digits", "ＡＢＣ ｄｅｆ １２３ Ｈｅｌｌｏ", [PLAIN, {"fold_compatibility": False, "stemmer": "none"}]),
    ("ligatures", "ﬁle ﬂow ﬃx ﬆop Œuvre", [{}, PLAIN, {"fold_compatibility": False, "stemmer": "none"}]),
    ("compatibility letters and signs", "Ⅻ ① ㎏ x² H₂O µm Ω K Å", [PLAIN]),
    ("canonical-only folding keeps compatibility letters", "Ⅻ ① µm Ω K Å", [{"fold_compatibility": False, "stemmer": "none"}]),
    ("armenian and cherokee case", "և ՄԱՅՐ ᏣᎳᎩ ꮳꮃꭹ", [PLAIN]),
    ("arabic harakat and hamza", "مُحَمَّد أحمد إسلام آمين", [PLAIN, NO_DIACRITICS]),
    ("hebrew niqqud", "שָׁלוֹם עִבְרִית", [PLAIN, NO_DIACRITICS]),
    ("devanagari marks are not diacritics", "हिन्दी संस्कृतम्", [PLAIN]),
    ("zalgo and reordered marks", "Z̴̡͖a̷l̸g̶o̵ ṩ q̣̇ q̣̇", [PLAIN, NO_DIACRITICS]),
    ("english stemming after folding", "Running CATS Generously universities Cafés", [{}]),
]


def main():
    cases = []
    for name, text, settings_list in CASES:
        for settings in settings_list:
            label = ", ".join(f"{k}={v}" for k, v in settings.items()) or "defaults"
            for form, source in [("NFC", ud.normalize("NFC", text)), ("NFD", ud.normalize("NFD", text))]:
                if form == "NFD" and source == ud.normalize("NFC", text):
                    continue
                cases.append({
                    "name": f"{name} ({form} input; {label})",
                    "input": {"text": source, "settings": settings},
                    "expected": {"tokens": tokens(source, settings)},
                })
    doc = {
        "function": "analyze",
        "description": "Unicode normalization, case folding, diacritic and compatibility folding of whole words; "
        "NFD input gives the same terms as NFC input.",
        "expected_source": f"Python {ud.unidata_version} unicodedata + str.casefold applying the documented folding rules, "
        f"snowballstemmer {version('snowballstemmer')} for stems; generated by tests/vectors/gen/text_analyze_fold.py",
        "cases": cases,
    }
    write_doc(OUT, doc)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Generates tests/vectors/text_stem.json (export `stem`).

Independent source: the `snowballstemmer` Python package (PyPI; Snowball's own generated
`english` stemmer, version recorded in the file), which is not the engine's code. The word
list is made here: irregular and short words, the Porter2 exception lists, -ing/-ed/-ly,
-ies/-ied, -ational/-ization and the other step 2-4 suffixes, words with y, apostrophes
and upper case, plus words sampled from the SciFact queries
(../shared/data/scifact/queries.jsonl). Every expected stem is snowballstemmer's output.

A few cases are written by hand, from the documented behaviour of the export: the `none`
stemmer returns the word, and non-ASCII words are returned unchanged (Snowball would treat
their non-ASCII letters as consonants; the engine does not stem them).

Run from the repository root: pip install snowballstemmer && python3 tests/vectors/gen/text_stem.py
"""

import json
import os
import re
from importlib.metadata import version

import snowballstemmer

from text_common import ROOT, write_doc

OUT = os.path.join(ROOT, "tests", "vectors", "text_stem.json")
QUERIES = os.path.join(ROOT, "..", "shared", "data", "scifact", "queries.jsonl")

HANDMADE = """
a an as at be by do go he if in is it me my no of on or so to up us we ox
the and are but for not you all any can had her was one our out day get has him his how
man new now old see two way who boy did its let put say she too use
running runs ran runner hopping hoping hopped hoped happy happily happiness
cats caress caresses ponies pony ties tie cries cried dies died lies lied spied skies skis sky
gas gases bus buses this his us plus news atlas bias cosmos andes howe
dying lying tying flying crying eying yearly early gently idly ugly only singly
succeed succeeded succeeding proceed proceeded exceed exceeding agreed agreeing feed feeding
bleed bleeding speed speedily indeed
inning innings outing canning herring earring evening evenings cannings
generate generation generator generous generously general generalization
communism communication community communicate universe universal university universities
arsenal arsenic emerge emerging emergency interest interesting international later lateral
organ organic organization organize past pasta pasted paste
relational conditional rational valency hesitancy digitizer conformabli radicalli
differentli vileli analogousli vietnamization predication operator feudalism decisiveness
hopefulness callousness formaliti sensitiviti sensibiliti
triplicate formative formalize electriciti electrical hopeful goodness
revival allowance inference airliner gyroscopic adjustable defensible irritant
replacement adjustment dependent adoption homologou communism activate angulariti
homologous effective bowdlerize
probate rate cease controlling rolling roll
fluently uniquely motherly lovely absolutely beautifully
sized sizing hazard hazardous
faded fading bled bleeding hoped hopping tanned tanning
filing filling failing fizzed fizzing
luxuriate luxuriating luxurious
consign consigned consigning consignment consist consisted consistency consistent
knack knackered knaves knavish kneel knelt knock knocked knot knotted
abandon abandoned abandonment abase abatement abbess abbey
ability able ably aboard abode abolish abominable about above abroad abruptly
boyish boys buy buying buyer say saying sayings toy toying toys enjoy enjoyed enjoying
play played player playing replay employee employees obeying yelling yes yield yielded
yoyo sayyid bayyed
cafe's don't won't o'clock rock'n'roll 'tis students' students's cats' ''s 's'
Running CATS Generously Yes YELLING
ied ies sses sing ring king thing nothing something bring
abated gaped taped rated fated dated agreement disagreement
ogist biologist geology geologist ecology ecologist analogue
helpless helplessly hopelessly carelessly fully fullness
""".split()

# Dictionary order, no duplicates.
HANDMADE = list(dict.fromkeys(HANDMADE))


def scifact_sample(count):
    """Every k-th distinct lower-case alphabetic word of the SciFact queries."""
    words = set()
    with open(QUERIES, encoding="utf-8") as f:
        for line in f:
            words.update(w.lower() for w in re.findall(r"[A-Za-z]+", json.loads(line)["text"]))
    words = sorted(w for w in words if len(w) >= 3 and w not in HANDMADE)
    step = max(1, len(words) // count)
    return words[::step][:count]


def main():
    stemmer = snowballstemmer.stemmer("english")
    words = HANDMADE + scifact_sample(160)
    cases = []
    for word in words:
        cases.append({"name": f"stem {word}", "input": {"word": word}, "expected": {"stem": stemmer.stemWord(word)}})
    # Written by hand (see the module docstring).
    for word, stem in [("naïve", "naïve"), ("Ελληνικά", "Ελληνικά"), ("", "")]:
        cases.append({"name": f"non-ASCII or empty word unchanged: {word!r}", "input": {"word": word}, "expected": {"stem": stem}})
    cases.append({"name": "stemmer none returns the word", "input": {"word": "running", "stemmer": "none"}, "expected": {"stem": "running"}})
    cases.append({"name": "unknown stemmer is invalid input", "input": {"word": "running", "stemmer": "porter"}, "error": "invalid_input"})
    cases.append({"name": "missing word is invalid input", "input": {}, "error": "invalid_input"})
    cases.append({"name": "unknown field is invalid input", "input": {"word": "running", "lang": "en"}, "error": "invalid_input"})
    doc = {
        "function": "stem",
        "description": "English (Porter2 / Snowball english) stemming of single words.",
        "expected_source": f"snowballstemmer {version('snowballstemmer')} (PyPI) stemWord for the English words, "
        "generated by tests/vectors/gen/text_stem.py; the non-ASCII, `none` and error cases by hand",
        "cases": cases,
    }
    write_doc(OUT, doc)


if __name__ == "__main__":
    main()

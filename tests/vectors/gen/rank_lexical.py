#!/usr/bin/env python3
"""Generates rank_lexical_search.json, rank_lexical_roundtrip.json and rank_lexical_decode.json.

Independent source: the text-level index is the term-level BM25F (scored here by the same
f64 "by hand" model as rank_bm25.py) over terms analyzed from text. The inputs are plain
ASCII sentences, whose analysis is unambiguous: words are the runs of ASCII letters and
digits, lowercased; Lucene's 33 English stop words are dropped when enabled; words made
only of a-z are stemmed with the Snowball English (Porter2) stemmer of the `snowballstemmer`
Python package when the English stemmer is enabled. Aliases, headings and tags are
analyzed one by one and their terms concatenated. None of this calls the engine.

The decode cases' bytes come from the independent Python encoder of rank_bm25.py; their
error codes are written by hand.

Run: python3 tests/vectors/gen/rank_lexical.py, then
     BLESS=1 cargo test -p engine-wasm --test vectors
"""

import re

import snowballstemmer

from rank_model import FIELDS, P, TOL, apply_ops, bm25f, encode
from rank_common import write_vectors

STOP = set("a an and are as at be but by for if in into is it no not of on or such that the their then there "
           "these they this to was will with".split())
STEM = snowballstemmer.stemmer("english")


def terms(text, analyzer):
    assert all(ord(c) < 128 for c in text), "reference tokenization is for ASCII input only"
    out = []
    for w in re.findall(r"[A-Za-z0-9]+", text):
        w = w.lower()
        if analyzer.get("stopwords") == "english" and w in STOP:
            continue
        if analyzer.get("stemmer", "english") == "english" and re.fullmatch("[a-z]+", w):
            w = STEM.stemWord(w)
        out.append(w)
    return out


def analyzed_fields(doc, analyzer):
    fields = {}
    for f in FIELDS:
        v = doc.get(f, [] if f in ("aliases", "headings", "tags") else "")
        texts = v if isinstance(v, list) else [v]
        fields[f] = [t for text in texts for t in terms(text, analyzer)]
    return fields


def term_state(docs, ops, analyzer):
    """The equivalent pre-analyzed documents and operations."""
    tdocs = [{"id": d["id"], "fields": analyzed_fields(d.get("doc", {}), analyzer)} for d in docs]
    tops = [dict(op, fields=analyzed_fields(op.get("doc", {}), analyzer)) if op["op"] == "upsert" else op
            for op in ops]
    return apply_ops(tdocs, tops)


def T(id, **doc):
    return {"id": id, "doc": doc}


NOTES = [
    T("projects/engine.md", title="Search engine", aliases=["BM25 engine", "Ranker"],
      headings=["Running the indexer", "Ranking"], tags=["project/search", "rust"],
      body="The engine ranks notes. Running queries is fast; the runner indexes every note."),
    T("journal/2024-05-01.md", title="Daily note", headings=["Morning"], tags=["journal"],
      body="Went running in the morning. Ran five kilometres, then read about search engines."),
    T("reading/ir-book.md", title="Introduction to Information Retrieval", aliases=["IR book"],
      headings=["Ranked retrieval", "Index construction"], tags=["book", "search"],
      body="Chapters on scoring, term weighting and the vector space model. Indexes and queries."),
    T("recipes/bread.md", title="Bread", tags=["cooking"], body="Flour, water, salt and yeast. Knead and bake."),
]

STEMMED = {"stemmer": "english", "stopwords": "none"}
PLAIN = {"stemmer": "none", "stopwords": "none"}
ENGLISH = {"stemmer": "english", "stopwords": "english"}
NOTE_PARAMS = P(k1=1.2, b=0.75, title=3.0, aliases=3.0, headings=1.5, tags=2.0, body=1.0)

search_cases = []


def search(name, docs, query, k, analyzer, params=NOTE_PARAMS, ops=None, visible=None):
    inp = {"analyzer": analyzer, "params": params, "docs": docs, "query": query, "k": k}
    if ops:
        inp["ops"] = ops
    if visible is not None:
        inp["visible"] = visible
    # A caller who sees only `visible` gets the scores of an index of those documents alone.
    seen = [d for d in docs if visible is None or d["id"] in visible]
    ref = bm25f(term_state(seen, ops or [], analyzer), params, terms(query, analyzer), k)
    search_cases.append({"name": name, "input": inp, "reference": ref, "tolerance": TOL})


search("stemmed query matches inflections", NOTES, "running engines", 10, STEMMED)
search("unstemmed query matches exact words only", NOTES, "running engines", 10, PLAIN)
search("stop words dropped from query and notes", NOTES, "the search and the index", 10, ENGLISH)
search("stop words kept", NOTES, "the search and the index", 10, STEMMED)
search("case folded", NOTES, "BREAD Yeast", 10, STEMMED)
search("alias and tag fields", NOTES, "ranker rust book", 10, STEMMED)
search("heading field", NOTES, "morning construction", 10, STEMMED)
search("body only weights", NOTES, "search engine", 10, STEMMED,
       params=P(k1=1.2, b=0.75, title=0, aliases=0, headings=0, tags=0, body=1))
search("repeated query words count once", NOTES, "search search search notes", 10, STEMMED)
search("query of punctuation only", NOTES, "?! -- ...", 10, STEMMED)
search("empty query", NOTES, "", 10, STEMMED)
search("query of stop words only", NOTES, "the and of to", 10, ENGLISH)
search("numbers are terms", NOTES, "2024 bm25", 10, STEMMED)
search("k one", NOTES, "search", 1, STEMMED)
search("upsert and remove", NOTES, "search bread", 10, STEMMED, ops=[
    {"op": "remove", "id": "reading/ir-book.md"},
    {"op": "upsert", "id": "recipes/bread.md", "doc": {"title": "Sourdough bread", "body": "Search for the best bread."}},
    {"op": "remove", "id": "missing.md"},
])
search("empty index", [], "search", 10, STEMMED)
HIDDEN = [T(f"secret/{i}.md", title="Search plans", tags=["search"], body=f"search engine draft {i}")
          for i in range(60)]
PUBLIC_IDS = [d["id"] for d in NOTES]
search("visible notes only: 60 hidden notes sharing the terms change no score", NOTES + HIDDEN,
       "search engine", 10, STEMMED, visible=PUBLIC_IDS)
search("visible notes only: no hidden note", NOTES, "search engine", 10, STEMMED, visible=PUBLIC_IDS)
search("visible notes only: none visible", NOTES + HIDDEN, "search engine", 10, STEMMED, visible=[])

roundtrip_cases = []


def roundtrip(name, docs, query, k, analyzer, params=NOTE_PARAMS, ops=None):
    inp = {"analyzer": analyzer, "params": params, "docs": docs, "query": query, "k": k}
    if ops:
        inp["ops"] = ops
    ref = bm25f(term_state(docs, ops or [], analyzer), params, terms(query, analyzer), k)
    roundtrip_cases.append({"name": name, "input": inp, "tolerance": TOL,
                            "reference": {"results": ref, "stable_bytes": True}})


roundtrip("notes stemmed", NOTES, "running search engines", 10, STEMMED)
roundtrip("notes with stop words", NOTES, "the index of the book", 10, ENGLISH)
roundtrip("notes unstemmed after changes", NOTES, "bread notes", 10, PLAIN,
          ops=[{"op": "remove", "id": "projects/engine.md"},
               {"op": "upsert", "id": "new.md", "doc": {"tags": ["bread"], "body": "notes on bread"}}])
roundtrip("empty index", [], "anything", 10, STEMMED)

decode_cases = []


def decode_err(name, blob, error, note, hex_text=None):
    decode_cases.append({"name": name, "input": {"bytes_hex": hex_text if hex_text is not None else blob.hex(),
                                                 "query": "search", "k": 10},
                         "error": error, "note": note})


STATE = {"a": {"body": ["search"]}}
decode_err("fingerprint of another analyzer", encode(STATE, P(), {"fingerprint": "0" * 32, "settings": "{}"}),
           "analyzer_mismatch", "valid bytes, but no analyzer of this build has fingerprint 000...0")
decode_err("settings not json", encode(STATE, P(), {"fingerprint": "x", "settings": "not json"}),
           "invalid_settings", "the stored settings must be AnalyzerSettings as JSON")
decode_err("settings with unknown field", encode(STATE, P(), {"fingerprint": "x", "settings": "{\"bogus\":1}"}),
           "invalid_settings", "AnalyzerSettings refuses unknown fields")
decode_err("pre-analyzed index without settings", encode(STATE, P(), {"fingerprint": "", "settings": ""}),
           "invalid_settings", "an index built from pre-analyzed terms has no analyzer to rebuild")
decode_err("foreign bytes", b"PK\x03\x04", "not_an_index", "a zip file")
decode_err("truncated", encode(STATE, P(), {"fingerprint": "x", "settings": "{}"})[:30], "truncated",
           "cut short")
decode_err("bad hex", b"", "invalid_input", "not hex", hex_text="0g")

write_vectors("rank_lexical_search.json", "lexical_search",
              "BM25F over notes given as text: analysis (stemming, stop words, folding) feeding the index",
              "reference: Snowball English stemmer + Lucene stop words + ASCII word split, then BM25F by hand in "
              "f64 (tests/vectors/gen/rank_lexical.py); expected blessed after matching", search_cases)
write_vectors("rank_lexical_roundtrip.json", "lexical_roundtrip",
              "text-level index to bytes and back: same results, and re-serializing gives the same bytes",
              "reference as rank_lexical_search (tests/vectors/gen/rank_lexical.py); stable_bytes true by "
              "definition of the canonical format; expected blessed after matching", roundtrip_cases)
write_vectors("rank_lexical_decode.json", "lexical_decode",
              "reading a text-level index: analyzer and settings checks on top of the byte format",
              "inputs from the independent Python encoder of rank_bm25.py; error codes by hand", decode_cases)

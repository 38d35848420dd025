#!/usr/bin/env python3
"""Validate bench/tuning/vault-queries.json and cross-lingual-queries.json: schema, unique
ids, known categories, and that every relevant/partial path exists in its vault.

Usage: check_vault_queries.py [VAULTS_ROOT]   (default: $OBSIDIAN_TC_VAULTS or /work/shared/vaults)
Exits 1 and lists every problem when anything is wrong.
"""
import json
import os
import sys
from collections import Counter

CATEGORIES = {"keyword", "conceptual", "syntax", "mention", "non_english", "title"}
# The cross-lingual set's entries are translations of graded queries, which keep their grades.
LANGUAGES = {"ru", "de"}
FIELDS = {"id", "vault", "query", "category", "relevant_paths", "partial_paths"}
TRANSLATION_FIELDS = {"id", "source", "language", "query"}


def duplicate_ids(entries):
    """Yield a message for each id used more than once."""
    ids = Counter(e.get("id") for e in entries)
    for dup in (i for i, n in ids.items() if n > 1):
        yield f"duplicate id {dup}"


def translation_problems(entries, sources):
    """Yield one message per problem found in the list of translations of `sources`."""
    yield from duplicate_ids(entries)
    for e in entries:
        qid = e.get("id", "?")
        if e.keys() != TRANSLATION_FIELDS:
            yield f"{qid}: fields {sorted(e.keys())}, expected {sorted(TRANSLATION_FIELDS)}"
            continue
        if e["language"] not in LANGUAGES:
            yield f"{qid}: unknown language {e['language']!r}"
        if e["source"] not in sources:
            yield f"{qid}: no graded query {e['source']!r}"
        if not e["query"].strip():
            yield f"{qid}: empty query"


def problems(entries, root):
    """Yield one message per problem found in the query list."""
    yield from duplicate_ids(entries)
    for e in entries:
        qid = e.get("id", "?")
        missing = FIELDS - e.keys()
        if missing:
            yield f"{qid}: missing fields {sorted(missing)}"
            continue
        if e["category"] not in CATEGORIES:
            yield f"{qid}: unknown category {e['category']!r}"
        if "obsidian-help-all/en" in e["vault"]:
            yield f"{qid}: obsidian-help-all/en is the held-out test vault"
        if not e["relevant_paths"]:
            yield f"{qid}: no relevant path"
        if set(e["relevant_paths"]) & set(e["partial_paths"]):
            yield f"{qid}: a path is both relevant and partial"
        for p in e["relevant_paths"] + e["partial_paths"]:
            if not os.path.isfile(os.path.join(root, e["vault"], p)):
                yield f"{qid}: no such note {e['vault']}/{p}"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("OBSIDIAN_TC_VAULTS", "/work/shared/vaults")
    here = os.path.dirname(os.path.abspath(__file__))

    def load(name):
        with open(os.path.join(here, name), encoding="utf-8") as f:
            return json.load(f)

    graded, translated = load("vault-queries.json"), load("cross-lingual-queries.json")
    found = [f"vault-queries.json: {msg}" for msg in problems(graded, root)]
    found += [f"cross-lingual-queries.json: {msg}"
              for msg in translation_problems(translated, {e.get("id") for e in graded})]
    print(f"{len(graded)} queries; by category {dict(Counter(e['category'] for e in graded))}")
    print(f"by vault {dict(Counter(e['vault'] for e in graded))}")
    print(f"{len(translated)} translations; by language {dict(Counter(e.get('language') for e in translated))}")
    for msg in found:
        print(msg)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()

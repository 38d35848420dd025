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
# The cross-lingual set's category is the language a query was translated into.
LANGUAGES = {"ru", "de"}
FIELDS = {"id", "vault", "query", "category", "relevant_paths", "partial_paths"}


def problems(entries, root, categories):
    """Yield one message per problem found in the query list."""
    ids = Counter(e.get("id") for e in entries)
    for dup in (i for i, n in ids.items() if n > 1):
        yield f"duplicate id {dup}"
    for e in entries:
        qid = e.get("id", "?")
        missing = FIELDS - e.keys()
        if missing:
            yield f"{qid}: missing fields {sorted(missing)}"
            continue
        if e["category"] not in categories:
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
    found = []
    for name, categories in [("vault-queries.json", CATEGORIES), ("cross-lingual-queries.json", LANGUAGES)]:
        with open(os.path.join(here, name), encoding="utf-8") as f:
            entries = json.load(f)
        found += [f"{name}: {msg}" for msg in problems(entries, root, categories)]
        print(f"{name}: {len(entries)} queries; by category {dict(Counter(e['category'] for e in entries))}")
        print(f"by vault {dict(Counter(e['vault'] for e in entries))}")
    for msg in found:
        print(msg)
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()

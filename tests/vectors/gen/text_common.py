"""What the text_* generators share: the repository root and how a vector file is written."""

import json
import os

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")


def write_doc(path, doc):
    """Writes a vector file (unique case names, one-space indent, UTF-8) and says so."""
    names = [c["name"] for c in doc["cases"]]
    assert len(names) == len(set(names)), "case names must be unique"
    with open(path, "w", encoding="utf-8") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print(f"wrote {len(doc['cases'])} cases to {os.path.relpath(path, ROOT)}")

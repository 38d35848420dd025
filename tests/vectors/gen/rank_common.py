"""Shared helpers of the rank_* vector generators: f32 rounding and writing vector files.

Cases carry an independently computed `reference` (and `tolerance`); `expected` is filled by
`BLESS=1 cargo test -p engine-wasm --test vectors` only after the engine agrees with the
reference. Re-running a generator keeps the blessed `expected` of every case whose input and
reference did not change, and drops it otherwise (so it must be re-blessed).
"""

import json
import os
import struct

VECTORS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def f32(x):
    """Rounds a Python float to the nearest IEEE-754 binary32 value (as the engine does)."""
    return struct.unpack("<f", struct.pack("<f", x))[0]


def write_vectors(file_name, function, description, expected_source, cases):
    path = os.path.join(VECTORS, file_name)
    old = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for c in json.load(f)["cases"]:
                old[c["name"]] = c
    names = set()
    for case in cases:
        assert case["name"] not in names, "duplicate case name " + case["name"]
        names.add(case["name"])
        prev = old.get(case["name"])
        if (
            prev is not None
            and "expected" in prev
            and "reference" in case
            and prev.get("input") == case["input"]
            and prev.get("reference") == case["reference"]
        ):
            case["expected"] = prev["expected"]
    doc = {
        "function": function,
        "description": description,
        "expected_source": expected_source,
        "cases": cases,
    }
    with open(path, "w", encoding="utf-8") as f:
        f.write(json.dumps(doc, indent=2, ensure_ascii=False, sort_keys=True) + "\n")
    print(f"{file_name}: {len(cases)} cases")

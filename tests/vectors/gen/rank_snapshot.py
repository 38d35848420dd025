#!/usr/bin/env python3
"""Generates rank_note_snapshot_decode.json and rank_note_snapshot_roundtrip.json.

Independent source: the decode cases' bytes come from a Python encoder of the snapshot format
documented in engine-core/src/rank/snapshot.rs (the header), in front of index bytes from the
independent encoder of rank_model.py (engine-core/src/rank/codec.rs), stamped with the default
analyzer's fingerprint computed by text_fingerprint.py from its documented identity text.
The expected notes are the notes encoded; the error codes are written by hand from the
documented validation rules.

The roundtrip cases' expectations are written by hand: the chunks follow the documented
chunking (a chunk per heading, text before the first heading under `[]`, a note with no
text past its frontmatter, an empty one too, has one chunk under `[]`: engine-core index_chunks), a chunk's key is `path NUL ordinal` (ten digits), notes come back sorted by path, and
a snapshot read back ranks, scores included, as the index it was written from.

Run: python3 tests/vectors/gen/rank_snapshot.py
"""

import hashlib
import json
import struct

from rank_common import write_vectors
from rank_model import encode, P, seal, string, varint
from text_fingerprint import DEFAULTS, identity

BUILD = "tc-bridge 0.1.0; engine sha256 0123abcd"
FINGERPRINT = hashlib.sha256(identity(DEFAULTS).encode("utf-8")).digest()[:16].hex()
STAMP = {"fingerprint": FINGERPRINT, "settings": "{}"}


def key(path, ordinal):
    return f"{path}\u0000{ordinal:010d}"


def index_of(notes):
    """Index bytes whose documents are the chunks of `notes` (one body term each)."""
    state = {key(n["path"], i): {"body": ["word"]} for n in notes for i in range(len(n["chunks"]))}
    return encode(state, P(), STAMP)


def header(build, notes, index_sum, version=1):
    """The sealed header, notes in the order given."""
    out = bytearray(b"OTCNOTES") + struct.pack("<H", version) + struct.pack("<Q", 0)
    out += string(build) + varint(len(notes))
    for n in notes:
        out += string(n["path"]) + struct.pack("<d", n["mtime"]) + varint(n["size"]) + varint(len(n["chunks"]))
        for headings in n["chunks"]:
            out += varint(len(headings)) + b"".join(string(h) for h in headings)
    out += index_sum
    return seal(out)


def snapshot(build, notes):
    index = index_of(notes)
    return header(build, notes, index[-32:]) + index


def host(notes):
    """The notes as the decoder returns them: sorted by path, chunks keyed."""
    return [{"path": n["path"], "mtime": n["mtime"], "size": n["size"],
             "chunks": [{"key": key(n["path"], i), "headings": h} for i, h in enumerate(n["chunks"])]}
            for n in sorted(notes, key=lambda n: n["path"].encode("utf-8"))]


NOTES = [
    {"path": "Daily/2026-11-20.md", "mtime": 1732630000123.4567, "size": 29, "chunks": [[]]},
    {"path": "Empty.md", "mtime": 0.0, "size": 0, "chunks": []},
    {"path": "Recipes/Bread.md", "mtime": 1.5, "size": 61, "chunks": [["Bread"], ["Bread", "Baking"]]},
    {"path": "日記/ノート.md", "mtime": -2.25, "size": 2**40, "chunks": [["見出し"]]},
]
VALID = snapshot(BUILD, NOTES)
HEADER_LEN = struct.unpack("<Q", VALID[10:18])[0]

decode_cases = []


def ok(name, blob, notes, build=BUILD):
    documents = sum(len(n["chunks"]) for n in notes)
    decode_cases.append({"name": name, "input": {"bytes_hex": blob.hex(), "build": build},
                         "expected": {"notes": host(notes), "documents": documents}})


def err(name, blob, error, note, build=BUILD):
    decode_cases.append({"name": name, "input": {"bytes_hex": blob.hex(), "build": build}, "error": error,
                         "note": note})


def flipped(at):
    bad = bytearray(VALID)
    bad[at] ^= 0x01
    return bytes(bad)


ok("notes and their index", VALID, NOTES)
ok("no notes", snapshot(BUILD, []), [])
ok("an empty build id", snapshot("", NOTES[:1]), NOTES[:1], build="")
err("empty input", b"", "not_a_snapshot", "nothing to read")
err("an index without a header", index_of(NOTES), "not_a_snapshot", "the index's own magic is not the snapshot's")
err("preamble cut", VALID[:12], "truncated", "shorter than magic + version + length")
err("header cut", VALID[: HEADER_LEN // 2], "truncated", "half the header")
err("future version", header(BUILD, NOTES, index_of(NOTES)[-32:], version=2) + index_of(NOTES), "unsupported_version",
    "version 2 is not read by format 1 builds")
err("another build", VALID, "build_changed", "written by another build: stale", build="tc-bridge 0.2.0")
err("flipped bit in the header", flipped(20), "checksum_mismatch", "the header's SHA-256 detects it")
err("flipped bit in the header checksum", flipped(HEADER_LEN - 1), "checksum_mismatch", "the header's SHA-256")
err("flipped bit in the index", flipped(HEADER_LEN + 40), "checksum_mismatch", "the index's own SHA-256")
err("flipped bit in the index checksum", flipped(len(VALID) - 1), "checksum_mismatch",
    "no longer the checksum the header names")
err("no index", VALID[:HEADER_LEN], "checksum_mismatch", "the index the header names is missing")
err("another index", VALID[:HEADER_LEN] + index_of(NOTES[:1]), "checksum_mismatch",
    "an index with another checksum than the header names")
err("paths not ascending", header(BUILD, [NOTES[2], NOTES[0]], index_of(NOTES[:1])[-32:]) + index_of(NOTES[:1]),
    "malformed", "under a valid checksum, notes must be sorted by path")
err("a path twice", header(BUILD, [NOTES[0], NOTES[0]], index_of(NOTES[:1])[-32:]) + index_of(NOTES[:1]),
    "malformed", "under a valid checksum, each path once")
fewer = [dict(NOTES[2], chunks=[["Bread"]])]
err("notes and index disagree", header(BUILD, fewer, index_of(NOTES[2:3])[-32:]) + index_of(NOTES[2:3]),
    "malformed", "the header lists one chunk, the index holds two")
other_analyzer = encode({key("a.md", 0): {"body": ["x"]}}, P(), {"fingerprint": "0" * 32, "settings": "{}"})
err("index of another analyzer", header(BUILD, [{"path": "a.md", "mtime": 1.0, "size": 1, "chunks": [[]]}],
                                        other_analyzer[-32:]) + other_analyzer,
    "analyzer_mismatch", "the index was built by an analyzer this build does not have")
decode_cases.append({"name": "not hex", "input": {"bytes_hex": "zz", "build": BUILD}, "error": "invalid_input",
                     "note": "bytes_hex must be hex"})

write_vectors("rank_note_snapshot_decode.json", "note_snapshot_decode",
              "Reads a note index snapshot: its notes (sorted by path, chunks keyed) and how many documents its index "
              "holds, or why it is refused",
              "Python encoder of the documented snapshot and index formats (tests/vectors/gen/rank_snapshot.py); "
              "error codes by hand", decode_cases)

# ------------------------------------------------------------------------------ roundtrip

BREAD = "# Bread\n\nFlour, water and salt.\n\n## Baking\n\nBake at 230 degrees.\n"
DAILY = "Met Ana about the bread oven.\n"
TEXT_NOTES = [
    {"path": "Recipes/Bread.md", "text": BREAD, "mtime": 1.5, "size": len(BREAD.encode("utf-8"))},
    {"path": "Daily/2026-11-20.md", "text": DAILY, "mtime": 1732630000123.4567, "size": len(DAILY.encode("utf-8"))},
    {"path": "Empty.md", "text": "", "mtime": 0.0, "size": 0},
]
CHUNKS = {"Recipes/Bread.md": [["Bread"], ["Bread", "Baking"]], "Daily/2026-11-20.md": [[]], "Empty.md": [[]]}

roundtrip_cases = [
    {"name": "notes read back as written", "input": {"build": BUILD, "notes": TEXT_NOTES, "query": "bread", "k": 10},
     "expected": {"notes": host([{**{k: n[k] for k in ("path", "mtime", "size")}, "chunks": CHUNKS[n["path"]]}
                                 for n in TEXT_NOTES]),
                  "ranked": ["Recipes/Bread.md", "Daily/2026-11-20.md"], "same_results": True, "stable_bytes": True}},
    {"name": "no notes", "input": {"build": BUILD, "notes": [], "query": "bread", "k": 10},
     "expected": {"notes": [], "ranked": [], "same_results": True, "stable_bytes": True}},
    {"name": "a path twice", "input": {"build": BUILD, "notes": [TEXT_NOTES[1], TEXT_NOTES[1]], "query": "x", "k": 1},
     "error": "invalid_notes", "note": "two notes cannot share a path"},
    {"name": "unknown field", "input": {"build": BUILD, "notes": [dict(TEXT_NOTES[1], tags=[])], "query": "x", "k": 1},
     "error": "invalid_input", "note": "a note is path, text, mtime, size"},
]
write_vectors("rank_note_snapshot_roundtrip.json", "note_snapshot_roundtrip",
              "Indexes notes as the plugin does, writes the snapshot, reads it back: the notes, the ranking of the copy, "
              "whether it ranks exactly as the original and whether its snapshot is the same bytes",
              "by hand from the documented chunking, chunk keys and snapshot rules (tests/vectors/gen/rank_snapshot.py)",
              roundtrip_cases)

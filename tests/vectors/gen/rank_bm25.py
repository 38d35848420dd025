#!/usr/bin/env python3
"""Generates rank_bm25_search.json, rank_bm25_roundtrip.json and rank_bm25_decode.json.

Independent source: "BM25 by hand". Every score is computed here in f64 straight from the
BM25F formula documented in engine-core/src/rank/mod.rs (Lucene IDF
ln(1 + (N - df + 0.5) / (df + 0.5)); per-field length normalisation
w_f * tf_f / ((1 - b) + b * len_f / avglen_f) summed over fields; one saturation
(k1 + 1) * tf / (k1 + tf); each distinct query term counted once), without looking at
the engine's code or output. The engine computes in f32, hence `tolerance`.

The serialized bytes are produced by an independent Python encoder of the byte format
documented in engine-core/src/rank/codec.rs, so `bytes_hex` of the roundtrip cases and the
crafted inputs of the decode cases do not come from the engine either.

Error cases (`error`) are written by hand from the documented validation rules.

Run: python3 tests/vectors/gen/rank_bm25.py, then
     BLESS=1 cargo test -p engine-wasm --test vectors
"""

import struct

from rank_common import write_vectors
from rank_model import FIELDS, P, TOL, apply_ops, bm25f, encode, params_f32, seal, string, varint

# ------------------------------------------------------------------------- the scenarios


def D(id, **fields):
    return {"id": id, "fields": {f: v.split() if isinstance(v, str) else v for f, v in fields.items()}}


def lcg_docs(count, vocab, seed):
    """Deterministic pseudo-random documents (a 32-bit LCG, no library randomness)."""
    x = seed
    def nxt():
        nonlocal x
        x = (1103515245 * x + 12345) % (1 << 31)
        return x
    docs = []
    for i in range(count):
        title = [vocab[nxt() % len(vocab)] for _ in range(1 + nxt() % 4)]
        body = [vocab[nxt() % len(vocab)] for _ in range(5 + nxt() % 60)]
        tags = [vocab[nxt() % len(vocab)] for _ in range(nxt() % 3)]
        docs.append({"id": f"note-{i:03d}", "fields": {"title": title, "body": body, "tags": tags}})
    return docs


VOCAB = ("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho "
         "sigma tau upsilon phi chi psi omega").split()

BASIC = [
    D("a", title="cats", body="cat cat dog"),
    D("b", title="dogs", body="dog"),
    D("c", title="birds", body="bird sings and the dog barks at the bird"),
]

FIVE = [
    D("n1", title="project alpha", aliases="alpha proj", headings="goals risks", tags="project work",
      body="the alpha project aims to ship the engine"),
    D("n2", title="weekly review", aliases="", headings="alpha notes", tags="review",
      body="reviewed the alpha and beta projects this week"),
    D("n3", title="beta", aliases="beta project", headings="", tags="project",
      body="beta beta beta"),
    D("n4", title="groceries", body="milk eggs bread"),
]

search_cases = []


def search(name, docs, query, k, params=None, ops=None, note=None):
    params = params or P()
    inp = {"params": params, "docs": docs, "query": query, "k": k}
    if ops:
        inp["ops"] = ops
    case = {"name": name, "input": inp, "reference": bm25f(apply_ops(docs, ops or []), params, query, k),
            "tolerance": TOL}
    if note:
        case["note"] = note
    search_cases.append(case)


def search_error(name, docs, query, k, params, error, note):
    search_cases.append({"name": name, "input": {"params": params, "docs": docs, "query": query, "k": k},
                         "error": error, "note": note})


search("single doc single term", [D("only", body="hello world")], ["hello"], 10)
search("basic term in two docs", BASIC, ["dog"], 10)
search("basic rare term wins", BASIC, ["cat", "dog"], 10)
search("basic bird repeated in long doc", BASIC, ["bird"], 10)
search("title weighted above body", BASIC, ["cats", "dog"], 10, P(title=3.0))
search("body only weights", BASIC, ["dog"], 10, P(title=0, aliases=0, headings=0, tags=0))
search("doc matching only a disabled field is absent", BASIC, ["cats", "birds"], 10, P(title=0.0))
search("five fields all weighted", FIVE, ["alpha", "project"], 10,
       P(title=2.5, aliases=2.0, headings=1.5, tags=1.2, body=1.0))
search("five fields tags only", FIVE, ["project"], 10, P(title=0, aliases=0, headings=0, tags=1, body=0))
search("five fields uniform", FIVE, ["beta", "review", "milk"], 10)
search("b zero disables length normalisation", BASIC, ["dog", "bird"], 10, P(b=0.0))
search("b one full normalisation", BASIC, ["dog", "bird"], 10, P(b=1.0))
search("k1 zero is binary", BASIC, ["bird", "dog"], 10, P(k1=0.0))
search("k1 large nearly linear", BASIC, ["bird", "dog"], 10, P(k1=1000.0))
search("k1 small", BASIC, ["bird"], 10, P(k1=0.1, b=0.3))
search("field empty everywhere takes no part", BASIC, ["dog"], 10, P(headings=5.0, aliases=7.0))
search("duplicate query terms count once", BASIC, ["dog", "dog", "cat"], 10)
search("duplicate query terms order of first occurrence", BASIC, ["cat", "dog", "cat"], 10)
search("query terms absent", BASIC, ["zebra", "lion"], 10)
search("some query terms absent", BASIC, ["zebra", "cat"], 10)
search("empty query", BASIC, [], 10)
search("empty index", [], ["dog"], 10)
search("empty index empty query", [], [], 5)
search("k zero", BASIC, ["dog"], 0)
search("k one", BASIC, ["dog"], 1)
search("k larger than n", BASIC, ["dog"], 1000)
search("all scores tied break by id", [D(i, body="same text") for i in ["d", "b", "a", "c"]], ["same"], 10)
search("tie break by bytes uppercase first", [D(i, body="x") for i in ["b", "B", "a", "A", "_"]], ["x"], 10)
search("tie break by bytes non ascii", [D(i, body="x") for i in ["é", "e", "z", "😀", "中", "ÿ"]], ["x"], 10)
search("tie break with k cut", [D(i, body="x y") for i in ["n3", "n10", "n2", "n1"]], ["x"], 2)
search("same content different ids", [D("z", title="t", body="a b"), D("y", title="t", body="a b"),
                                      D("x", body="a")], ["a", "t"], 10)
search("one doc", [D("solo", title="note", body="a b c a")], ["a", "note", "c"], 10)
search("empty document counts in n", [D("empty"), D("full", body="word other")], ["word"], 10)
search("empty string term", [D("e", body=["", "a"]), D("f", body=["a"])], [""], 10)
search("mixed scripts terms", [
    D("ja", title="東京", body=["東京", "タワー", "café"]),
    D("ar", title="مرحبا", body=["مرحبا", "بالعالم", "café"]),
    D("mix", body=["e\u0301", "café", "café", "🦀", "東京"]),
], ["café", "東京", "🦀"], 10)
search("combining mark terms are distinct", [D("nfc", body=["caf\u00e9"]), D("nfd", body=["cafe\u0301"])],
       ["cafe\u0301"], 10)
search("high tf", [D("many", body=["w"] * 1000 + ["x"]), D("few", body=["w", "x"])], ["w"], 10)
search("long vs short document", [D("short", body="topic words"), D("long", body="topic " + "filler " * 200)],
       ["topic"], 10)
search("huge weight saturates", BASIC, ["dog", "bird"], 10, P(body=1e30))
search("max f32 weight saturates", BASIC, ["dog"], 10, P(title=3e38, body=3e38))
search("tiny weights", BASIC, ["dog", "bird"], 10, P(title=1e-30, body=1e-20))
search("many docs lcg top 10", lcg_docs(200, VOCAB, 7), ["alpha", "omega", "sigma"], 10, P(title=2.0, tags=1.5))
search("many docs lcg all", lcg_docs(60, VOCAB, 42), ["pi", "rho"], 100, P(title=1.7, b=0.6, k1=0.9))
search("long query", lcg_docs(50, VOCAB, 3), VOCAB * 2, 5, P(title=2.0))
search("upsert replaces duplicate id in docs", [D("a", body="old words"), D("b", body="words"),
                                                 D("a", body="new words")], ["old", "new", "words"], 10)
search("upsert via ops", BASIC, ["dog", "cat"], 10,
       ops=[{"op": "upsert", "id": "a", "fields": {"body": ["dog", "dog"]}}])
search("remove via ops", BASIC, ["dog"], 10, ops=[{"op": "remove", "id": "b"}])
search("remove missing id is a no-op", BASIC, ["dog"], 10, ops=[{"op": "remove", "id": "nope"}])
search("remove then re-add", BASIC, ["cat", "dog"], 10,
       ops=[{"op": "remove", "id": "a"}, {"op": "upsert", "id": "a", "fields": {"title": ["cat"]}}])
search("remove all", BASIC, ["dog"], 10, ops=[{"op": "remove", "id": i} for i in ["a", "b", "c"]])
search("churn keeps statistics exact", lcg_docs(30, VOCAB, 11), ["beta", "tau"], 10, P(title=2.0),
       ops=[{"op": "remove", "id": f"note-{i:03d}"} for i in range(0, 30, 3)]
       + [{"op": "upsert", "id": f"note-{i:03d}", "fields": {"body": ["beta", "extra", "beta"]}}
          for i in range(1, 30, 4)]
       + [{"op": "upsert", "id": "new", "fields": {"title": ["tau"], "body": ["tau", "beta"]}}])
search("upsert with fields missing", [D("a", body="x"), {"id": "bare"}], ["x"], 10)

search_error("b above one", BASIC, ["dog"], 10, P(b=1.5), "invalid_params", "b must be within [0, 1]")
search_error("negative k1", BASIC, ["dog"], 10, P(k1=-0.5), "invalid_params", "k1 must be >= 0")
search_error("k1 above maximum", BASIC, ["dog"], 10, P(k1=1001.0), "invalid_params", "k1 must be <= 1000")
search_error("negative weight", BASIC, ["dog"], 10, P(tags=-1.0), "invalid_params", "weights must be >= 0")
search_error("unknown field", [{"id": "a", "fields": {"summary": ["x"]}}], ["x"], 10, P(), "invalid_input",
             "fields are title, aliases, headings, tags, body")
search_error("unknown parameter", BASIC, ["dog"], 10, dict(P(), k3=1.0), "invalid_input",
             "params are k1, b, weights")
search_error("missing query", BASIC, None, 10, P(), "invalid_input", "query is required (null is not a list)")

# ------------------------------------------------------------------------------ roundtrip

roundtrip_cases = []


def roundtrip(name, docs, query, k, params=None, ops=None, analyzer=None):
    params = params or P()
    analyzer = analyzer or {"fingerprint": "", "settings": ""}
    state = apply_ops(docs, ops or [])
    inp = {"params": params, "docs": docs, "query": query, "k": k, "analyzer": analyzer}
    if ops:
        inp["ops"] = ops
    blob = encode(state, params, analyzer)
    roundtrip_cases.append({"name": name, "input": inp, "tolerance": TOL, "reference": {
        "results": bm25f(state, params, query, k), "byte_len": len(blob), "bytes_hex": blob.hex()}})


STAMP = {"fingerprint": "analyzer-v1:unicode+lower+porter", "settings": "{\"stemmer\":\"porter\"}"}
roundtrip("basic", BASIC, ["dog", "cat"], 10, analyzer=STAMP)
roundtrip("empty index", [], ["x"], 10)
roundtrip("empty index with stamp", [], [], 10, P(k1=0.9, b=0.4, title=2.0), analyzer=STAMP)
roundtrip("five fields", FIVE, ["alpha", "project", "beta"], 10,
          P(title=2.5, aliases=2.0, headings=1.5, tags=1.2, body=1.0))
roundtrip("unicode ids terms and stamp", [
    D("日記/2024-01-01.md", title="日記", body=["東京", "🦀", "e\u0301"]),
    D("é.md", body=["café", "🦀"]),
], ["🦀"], 10, analyzer={"fingerprint": "ƒ-😀", "settings": "{\"x\":\"ü\"}"})
roundtrip("history independent bytes", [D("b", body="old"), D("c", body="x x x"), D("a", body="x y")], ["x"], 10,
          ops=[{"op": "remove", "id": "c"}, {"op": "upsert", "id": "b", "fields": {"body": ["y", "z"]}}])
roundtrip("empty document and empty term", [D("e"), D("f", body=["", "a"])], ["", "a"], 10)
roundtrip("large tf and multi-byte varints", [D("many", body=["w"] * 300 + ["x"] * 20000), D("few", body="w")],
          ["w", "x"], 10)
roundtrip("many docs", lcg_docs(150, VOCAB, 5), ["alpha", "beta"], 10, P(title=2.0, tags=1.5))
roundtrip("zero weights and extreme params", BASIC, ["dog"], 10, P(k1=0.0, b=1.0, title=0.0, body=3e38))
roundtrip("all removed", BASIC, ["dog"], 10, ops=[{"op": "remove", "id": i} for i in ["a", "b", "c"]])

# --------------------------------------------------------------------------------- decode

decode_cases = []
VALID_STATE = apply_ops(BASIC, [])
VALID_PARAMS = P(title=2.0)
VALID = encode(VALID_STATE, VALID_PARAMS, STAMP)


def params_out(params):
    k1, b, w = params_f32(params)
    return {"k1": k1, "b": b, "weights": dict(zip(FIELDS, w))}


def decode_ok(name, blob, query, k, state, params, analyzer):
    decode_cases.append({"name": name, "input": {"bytes_hex": blob.hex(), "query": query, "k": k},
                         "tolerance": TOL, "reference": {
                             "doc_count": len(state), "analyzer": analyzer, "params": params_out(params),
                             "results": bm25f(state, params, query, k)}})


def decode_err(name, blob, error, note, hex_text=None):
    decode_cases.append({"name": name, "input": {"bytes_hex": hex_text if hex_text is not None else blob.hex(),
                                                 "query": ["dog"], "k": 10},
                         "error": error, "note": note})


def resealed(mutate):
    """The valid blob's content mutated, with total_len and checksum made valid again."""
    content = bytearray(VALID[:-32])
    mutate(content)
    return seal(content)


decode_ok("valid python-encoded index", VALID, ["dog", "cats"], 10, VALID_STATE, VALID_PARAMS, STAMP)
decode_ok("valid with uppercase hex", VALID, ["bird"], 2, VALID_STATE, VALID_PARAMS, STAMP)
decode_cases[-1]["input"]["bytes_hex"] = VALID.hex().upper()
decode_ok("valid empty index", encode({}, P(), {}), ["x"], 10, {}, P(), {"fingerprint": "", "settings": ""})
decode_err("empty input", b"", "not_an_index", "nothing to read")
decode_err("json text", b'{"index":[]}', "not_an_index", "foreign bytes")
decode_err("sqlite header", b"SQLite format 3\x00", "not_an_index", "foreign bytes")
decode_err("gzip magic", bytes.fromhex("1f8b0800000000000003"), "not_an_index", "foreign bytes")
decode_err("magic prefix only", b"OTCBM", "truncated", "a prefix of the magic: a cut-off index")
decode_err("preamble cut", VALID[:12], "truncated", "shorter than magic + version + length")
decode_err("cut before checksum", VALID[:-32], "truncated", "checksum missing")
decode_err("cut by one byte", VALID[:-1], "truncated", "one byte short of the announced length")
decode_err("cut in the middle", VALID[: len(VALID) // 2], "truncated", "half the bytes")
decode_err("one extra byte", VALID + b"\x00", "trailing_bytes", "longer than announced")
decode_err("appended copy", VALID + VALID, "trailing_bytes", "two indexes concatenated")
decode_err("future version", bytearray(VALID[:8]) + struct.pack("<H", 2) + VALID[10:], "unsupported_version",
           "version 2 is not read by format 1 builds")
decode_err("version zero", bytearray(VALID[:8]) + struct.pack("<H", 0) + VALID[10:], "unsupported_version",
           "version 0 never existed")
for at, what in [(20, "k1"), (40, "analyzer fingerprint"), (len(VALID) - 40, "postings"),
                 (len(VALID) - 1, "checksum")]:
    bad = bytearray(VALID)
    bad[at] ^= 0x04
    decode_err(f"flipped bit in {what}", bytes(bad), "checksum_mismatch", "SHA-256 detects the change")
decode_err("announced length leaves no room for checksum",
           b"OTCBM25F\x01\x00" + struct.pack("<Q", 20) + b"\x00\x00", "malformed",
           "20 bytes announced and present, but a checksum alone needs 32")


def set_f32(offset, value):
    def mutate(c):
        c[offset:offset + 4] = struct.pack("<f", value)
    return mutate


decode_err("stored k1 is NaN", resealed(set_f32(18, float("nan"))), "invalid_params", "checksum valid, k1 invalid")
decode_err("stored b above one", resealed(set_f32(22, 2.0)), "invalid_params", "checksum valid, b invalid")
decode_err("stored weight negative", resealed(set_f32(26, -1.0)), "invalid_params", "checksum valid, weight < 0")
decode_err("stored weight infinite", resealed(set_f32(42, float("inf"))), "invalid_params", "body weight inf")


def crafted(name, body, error="malformed", note="breaks a rule of the format under a valid checksum"):
    """A resealed blob with default params, empty stamp and the given body after them."""
    head = bytearray(b"OTCBM25F" + struct.pack("<H", 1) + struct.pack("<Q", 0))
    head += struct.pack("<7f", 1.2, 0.75, 1, 1, 1, 1, 1) + string("") + string("")
    decode_err(name, seal(head + body), error, note)


def ids(*names):
    return varint(len(names)) + b"".join(string(n) for n in names)


crafted("ids not ascending", ids("b", "a") + varint(0))
crafted("duplicate ids", ids("a", "a") + varint(0))
crafted("id not utf-8", varint(1) + varint(2) + b"\xc3\x28" + varint(0))
crafted("terms not ascending", ids("a") + varint(2) + string("y") + varint(1) + varint(0) + b"\x10" + varint(1)
        + string("x") + varint(1) + varint(0) + b"\x10" + varint(1))
crafted("term with zero df", ids("a") + varint(1) + string("x") + varint(0))
crafted("posting doc out of range", ids("a") + varint(1) + string("x") + varint(1) + varint(1) + b"\x10"
        + varint(1))
crafted("posting gap zero", ids("a", "b") + varint(1) + string("x") + varint(2) + varint(0) + b"\x10" + varint(1)
        + varint(0) + b"\x10" + varint(1))
crafted("field mask zero", ids("a") + varint(1) + string("x") + varint(1) + varint(0) + b"\x00")
crafted("field mask beyond five fields", ids("a") + varint(1) + string("x") + varint(1) + varint(0) + b"\x20"
        + varint(1))
crafted("term frequency zero", ids("a") + varint(1) + string("x") + varint(1) + varint(0) + b"\x10" + varint(0))
crafted("term frequency above limit", ids("a") + varint(1) + string("x") + varint(1) + varint(0) + b"\x10"
        + varint(1 << 29))
crafted("field length above limit", ids("a") + varint(2)
        + string("x") + varint(1) + varint(0) + b"\x10" + varint((1 << 29) - 1)
        + string("y") + varint(1) + varint(0) + b"\x10" + varint(1))
crafted("non-minimal varint", varint(1) + b"\x81\x00" + b"a" + varint(0))
crafted("varint too long", b"\xff" * 11)
crafted("count larger than content", varint(1000000))
crafted("unread bytes before checksum", ids("a") + varint(0) + b"\x00")
decode_err("odd hex length", b"", "invalid_input", "hex must have an even length", hex_text="abc")
decode_err("non-hex character", b"", "invalid_input", "g is not a hex digit", hex_text="zz")

# ---------------------------------------------------------------------------------- write

write_vectors("rank_bm25_search.json", "bm25_search",
              "BM25F top-k over pre-analyzed field terms: parameters, field weights, upsert/remove, ties, "
              "adversarial inputs",
              "reference: BM25F by hand in f64 (tests/vectors/gen/rank_bm25.py); expected: engine output "
              "blessed after matching the reference within tolerance; errors by hand", search_cases)
write_vectors("rank_bm25_roundtrip.json", "bm25_roundtrip",
              "serialize, deserialize, search: results and the exact canonical bytes",
              "reference: BM25F by hand in f64 and bytes from an independent Python encoder of the documented "
              "format (tests/vectors/gen/rank_bm25.py); expected blessed after matching", roundtrip_cases)
write_vectors("rank_bm25_decode.json", "bm25_decode",
              "reading serialized indexes: valid, foreign, truncated, corrupt and crafted bytes",
              "inputs from an independent Python encoder (tests/vectors/gen/rank_bm25.py); reference results by "
              "hand in f64; error codes by hand from the documented validation rules", decode_cases)

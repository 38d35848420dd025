"""The independent reference model shared by the rank_* generators.

BM25F "by hand" in f64 from the formula documented in engine-core/src/rank/mod.rs (Lucene
IDF ln(1 + (N - df + 0.5) / (df + 0.5)); per-field length normalisation
w_f * tf_f / ((1 - b) + b * len_f / avglen_f) summed over fields; one saturation
(k1 + 1) * tf / (k1 + tf); each distinct query term counted once), and an encoder of the
byte format documented in engine-core/src/rank/codec.rs. Neither looks at the engine's code
or output.
"""

import hashlib
import math
import struct

from rank_common import f32

FIELDS = ["title", "aliases", "headings", "tags", "body"]
TOL = 1e-5


# ---------------------------------------------------------------------------- the model

def apply_ops(docs, ops):
    """Final index content: id -> {field: [terms]} after upserting docs, then ops."""
    state = {}
    for d in docs:
        state[d["id"]] = d.get("fields", {})
    for op in ops:
        if op["op"] == "upsert":
            state[op["id"]] = op.get("fields", {})
        else:
            state.pop(op["id"], None)
    return state


def params_f32(params):
    w = params["weights"]
    return f32(params["k1"]), f32(params["b"]), [f32(w[f]) for f in FIELDS]


def bm25f(state, params, query, k):
    """Reference BM25F top-k in f64."""
    k1, b, weights = params_f32(params)
    n = len(state)
    if n == 0 or k == 0:
        return []
    lens = {i: [len(fields.get(f, [])) for f in FIELDS] for i, fields in state.items()}
    totals = [sum(lens[i][j] for i in state) for j in range(5)]
    avg = [t / n for t in totals]
    scores = {}
    for t in dict.fromkeys(query):  # distinct terms, first-occurrence order
        holders = [i for i, fields in state.items() if any(t in fields.get(f, []) for f in FIELDS)]
        df = len(holders)
        if df == 0:
            continue
        idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
        for i in holders:
            tf = 0.0
            active = False
            for j, f in enumerate(FIELDS):
                c = state[i].get(f, []).count(t)
                if c == 0 or weights[j] == 0 or totals[j] == 0:
                    continue
                active = True
                tf += weights[j] * c / ((1 - b) + b * lens[i][j] / avg[j])
            if not active:
                continue
            sat = (k1 + 1) * tf / (k1 + tf) if not math.isinf(tf) else k1 + 1
            scores[i] = scores.get(i, 0.0) + idf * sat
    ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0].encode("utf-8")))
    top = ranked[: k + 1]
    for (a, sa), (b_, sb) in zip(top, top[1:]):
        # a near-tie could rank differently in f32 than in f64: refuse to write such a case
        assert sa == sb or (sa - sb) > 1e-5 * abs(sa), f"near tie {a}={sa} {b_}={sb} in {query}"
    return [{"id": i, "score": s} for i, s in ranked[:k]]


# ---------------------------------------------------------------------- the byte format

def varint(v):
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def string(s):
    b = s.encode("utf-8")
    return varint(len(b)) + b


def seal(content):
    """Patches total_len (bytes 10..18) and appends the SHA-256 checksum."""
    content = bytearray(content)
    content[10:18] = struct.pack("<Q", len(content) + 32)
    return bytes(content) + hashlib.sha256(bytes(content)).digest()


def encode(state, params, analyzer, version=1, raw_params=None):
    out = bytearray(b"OTCBM25F")
    out += struct.pack("<H", version)
    out += struct.pack("<Q", 0)
    k1, b, weights = raw_params if raw_params is not None else params_f32(params)
    out += struct.pack("<ff", k1, b)
    for w in weights:
        out += struct.pack("<f", w)
    out += string(analyzer.get("fingerprint", ""))
    out += string(analyzer.get("settings", ""))
    ids = sorted(state, key=lambda s: s.encode("utf-8"))
    out += varint(len(ids))
    for i in ids:
        out += string(i)
    terms = sorted({t for fields in state.values() for f in FIELDS for t in fields.get(f, [])},
                   key=lambda s: s.encode("utf-8"))
    out += varint(len(terms))
    for t in terms:
        out += string(t)
        posts = []
        for pos, i in enumerate(ids):
            tfs = [state[i].get(f, []).count(t) for f in FIELDS]
            if any(tfs):
                posts.append((pos, tfs))
        out += varint(len(posts))
        prev = None
        for pos, tfs in posts:
            out += varint(pos if prev is None else pos - prev)
            prev = pos
            out.append(sum(1 << j for j in range(5) if tfs[j]))
            for c in tfs:
                if c:
                    out += varint(c)
    return seal(out)


def P(k1=1.2, b=0.75, title=1.0, aliases=1.0, headings=1.0, tags=1.0, body=1.0):
    return {"k1": k1, "b": b, "weights": {"title": title, "aliases": aliases, "headings": headings,
                                         "tags": tags, "body": body}}

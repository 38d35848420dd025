#!/usr/bin/env python3
"""Generates rank_rrf.json and rank_fuse_scores.json.

Independent source: the fusion definitions documented in engine-core/src/rank/fusion.rs,
evaluated here in f64 without the engine: weighted RRF sum_l w_l / (k + rank_l(d)) with
1-based ranks and first occurrences only; min-max and z-score (population) normalisation
with absent documents at 0 (min-max) or at the list's lowest z-score, combined with weights
w_l / sum(w); lists of weight 0 ignored; ranking by score descending, then id by bytes.
Error codes (`error`) are written by hand.

Run: python3 tests/vectors/gen/rank_fusion.py, then
     BLESS=1 cargo test -p engine-wasm --test vectors
"""

import math

from rank_common import write_vectors

TOL = 1e-9


def ranked(scores):
    out = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0].encode("utf-8")))
    for (a, sa), (b, sb) in zip(out, out[1:]):
        assert sa == sb or (sa - sb) > 1e-9 * max(abs(sa), 1e-300), f"near tie {a} {b}"
    return [{"id": i, "score": s} for i, s in out]


def first(items, key):
    seen, out = set(), []
    for it in items:
        if key(it) not in seen:
            seen.add(key(it))
            out.append(it)
    return out


def rrf(lists, k=60.0):
    scores = {}
    for lst in lists:
        w = lst.get("weight", 1.0)
        if w == 0:
            continue
        for rank, i in enumerate(first(lst["ids"], lambda x: x), start=1):
            scores[i] = scores.get(i, 0.0) + w / (k + rank)
    return ranked(scores)


def normalise(hits, how):
    vals = [h["score"] for h in hits]
    if not vals:
        return {}, 0.0
    if how == "min_max":
        lo, hi = min(vals), max(vals)
        return {h["id"]: (1.0 if hi == lo else (h["score"] - lo) / (hi - lo)) for h in hits}, 0.0
    mean = math.fsum(vals) / len(vals)
    std = math.sqrt(math.fsum((v - mean) ** 2 for v in vals) / len(vals))
    z = {h["id"]: (0.0 if std == 0 else (h["score"] - mean) / std) for h in hits}
    return z, min(z.values())


def fuse(lists, how):
    active = [l for l in lists if l.get("weight", 1.0) > 0]
    total = sum(l.get("weight", 1.0) for l in active)
    norms = [(l.get("weight", 1.0), normalise(first(l["hits"], lambda h: h["id"]), how)) for l in active]
    ids = {h["id"] for l in active for h in l["hits"]}
    scores = {i: math.fsum(w / total * n.get(i, absent) for w, (n, absent) in norms) for i in ids}
    return ranked(scores)


def H(*pairs):
    return [{"id": i, "score": s} for i, s in pairs]


rrf_cases = []


def rrf_case(name, lists, k=None):
    inp = {"lists": lists}
    if k is not None:
        inp["k"] = k
    rrf_cases.append({"name": name, "input": inp, "reference": rrf(lists, 60.0 if k is None else k),
                      "tolerance": TOL})


def rrf_error(name, lists, k, code, note):
    rrf_cases.append({"name": name, "input": {"lists": lists, "k": k}, "error": code, "note": note})


LEX = ["n3", "n1", "n7", "n2", "n9"]
VEC = ["n1", "n4", "n3", "n8"]
rrf_case("two lists default k", [{"ids": LEX}, {"ids": VEC}])
rrf_case("weighted lists", [{"weight": 1.0, "ids": LEX}, {"weight": 0.3, "ids": VEC}])
rrf_case("k zero", [{"ids": LEX}, {"ids": VEC}], 0)
rrf_case("k ten", [{"ids": LEX}, {"ids": VEC}], 10)
rrf_case("k fractional", [{"ids": LEX}, {"ids": VEC}], 2.5)
rrf_case("single list keeps order", [{"ids": LEX}])
rrf_case("no lists", [])
rrf_case("empty lists", [{"ids": []}, {"ids": []}])
rrf_case("duplicate id in a list counts once at its best rank", [{"ids": ["a", "b", "a", "c"]}, {"ids": ["c"]}])
rrf_case("symmetric ties break by id", [{"ids": ["b", "a"]}, {"ids": ["a", "b"]}])
rrf_case("tie break by bytes", [{"ids": ["é"]}, {"ids": ["z"]}, {"ids": ["Z"]}, {"ids": ["😀"]}])
rrf_case("zero weight list ignored", [{"weight": 0, "ids": ["only-here", "a"]}, {"ids": ["a"]}])
rrf_case("three lists", [{"ids": ["a", "b", "c"]}, {"ids": ["c", "d"]}, {"weight": 2, "ids": ["d", "a"]}])
rrf_case("huge weight", [{"weight": 1e300, "ids": ["a", "b"]}, {"ids": ["b"]}])
rrf_case("long lists", [{"ids": [f"d{i}" for i in range(300)]}, {"ids": [f"d{i}" for i in range(299, -1, -3)]}])
rrf_error("negative k", [{"ids": ["a"]}], -1, "invalid_k", "k must be >= 0")
rrf_error("nan k", [{"ids": ["a"]}], "NaN", "invalid_k", "k must be finite")
rrf_error("infinite k", [{"ids": ["a"]}], "Infinity", "invalid_k", "k must be finite")
rrf_error("negative weight", [{"weight": -1, "ids": ["a"]}], 60, "invalid_weight", "weights must be >= 0")
rrf_error("nan weight", [{"weight": "NaN", "ids": ["a"]}], 60, "invalid_weight", "weights must be finite")
rrf_error("infinite weight", [{"weight": "Infinity", "ids": ["a"]}], 60, "invalid_weight", "weights must be finite")

fuse_cases = []


def fuse_case(name, lists, how):
    fuse_cases.append({"name": name, "input": {"lists": lists, "normalization": how},
                       "reference": fuse(lists, how), "tolerance": TOL})


def fuse_error(name, lists, how, code, note):
    fuse_cases.append({"name": name, "input": {"lists": lists, "normalization": how}, "error": code, "note": note})


BM25 = H(("n3", 12.5), ("n1", 9.75), ("n7", 4.0), ("n2", 3.5))
COS = H(("n1", 0.82), ("n4", 0.79), ("n3", 0.5), ("n8", 0.31))
for how in ["min_max", "z_score"]:
    fuse_case(f"{how} two lists", [{"hits": BM25}, {"hits": COS}], how)
    fuse_case(f"{how} weighted", [{"weight": 0.7, "hits": BM25}, {"weight": 0.3, "hits": COS}], how)
    fuse_case(f"{how} single list", [{"hits": BM25}], how)
    fuse_case(f"{how} all scores equal", [{"hits": H(("a", 2.0), ("b", 2.0))}, {"hits": H(("b", 1.0), ("c", 0.0))}], how)
    fuse_case(f"{how} single hit list", [{"hits": H(("a", 5.0))}, {"hits": H(("b", 1.0), ("a", 0.0))}], how)
    fuse_case(f"{how} negative scores", [{"hits": H(("a", -1.0), ("b", -3.0), ("c", -2.0))}], how)
    fuse_case(f"{how} duplicate id first wins", [{"hits": H(("a", 1.0), ("b", 3.0), ("a", 9.0))}], how)
    fuse_case(f"{how} zero weight list ignored", [{"weight": 0, "hits": H(("x", 9.0))}, {"hits": COS}], how)
    fuse_case(f"{how} empty list", [{"hits": []}, {"hits": COS}], how)
    fuse_case(f"{how} no lists", [], how)
    fuse_case(f"{how} ties break by id", [{"hits": H(("b", 1.0), ("a", 0.0))}, {"hits": H(("a", 1.0), ("b", 0.0))}],
              how)
    big = 1e300 if how == "min_max" else 1e150  # z-score squares the deviations
    fuse_case(f"{how} huge scores", [{"hits": H(("a", big), ("b", -big), ("c", 0.0))}], how)
    fuse_error(f"{how} nan score", [{"hits": H(("a", 1.0), ("b", "NaN"))}], how, "non_finite_score",
               "scores must be finite")
    fuse_error(f"{how} infinite score", [{"hits": H(("a", "-Infinity"))}], how, "non_finite_score",
               "scores must be finite")
    fuse_error(f"{how} negative weight", [{"weight": -0.5, "hits": COS}], how, "invalid_weight",
               "weights must be >= 0")
    fuse_error(f"{how} range overflows", [{"hits": H(("a", 1.7e308), ("b", -1.7e308))}], how,
               "score_range_overflow", "max - min (or the mean and spread) overflow f64")
fuse_error("unknown normalization", [{"hits": COS}], "softmax", "invalid_input", "min_max or z_score only")

write_vectors("rank_rrf.json", "rrf", "weighted Reciprocal Rank Fusion, ranked by score desc then id bytes",
              "reference: the definition in f64 (tests/vectors/gen/rank_fusion.py); expected blessed after "
              "matching; errors by hand", rrf_cases)
write_vectors("rank_fuse_scores.json", "fuse_scores",
              "normalised (min-max, z-score) weighted convex score fusion, ranked by score desc then id bytes",
              "reference: the definitions in f64 (tests/vectors/gen/rank_fusion.py); expected blessed after "
              "matching; errors by hand", fuse_cases)

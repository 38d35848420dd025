#!/usr/bin/env python3
"""Generates rank_cosine.json and rank_dot.json.

Independent source: the definitions, evaluated in f64 with math.fsum (exactly rounded sums)
on the inputs rounded to f32 (the engine rounds its inputs to f32 and sums in f32 in a fixed
lane order, hence `tolerance`). Cosine of a zero vector is 0 by definition; the engine clamps
cosine to [-1, 1]. Error codes (`error`) and the one underflow case are written by hand.

Run: python3 tests/vectors/gen/rank_vectors.py, then
     BLESS=1 cargo test -p engine-wasm --test vectors
"""

import math

from rank_common import f32, write_vectors


def dot(a, b):
    return math.fsum(f32(x) * f32(y) for x, y in zip(a, b))


def cosine(a, b):
    na = math.sqrt(math.fsum(f32(x) ** 2 for x in a))
    nb = math.sqrt(math.fsum(f32(y) ** 2 for y in b))
    if na == 0 or nb == 0:
        return 0.0
    return max(-1.0, min(1.0, dot(a, b) / (na * nb)))


def lcg_vector(n, seed):
    """Deterministic pseudo-random values in [-1, 1) from a 32-bit LCG."""
    x, out = seed, []
    for _ in range(n):
        x = (1103515245 * x + 12345) % (1 << 31)
        out.append(round((x / (1 << 30)) - 1.0, 6))
    return out


def embedding_like(n, seed):
    """A unit-norm vector, like a sentence embedding."""
    v = lcg_vector(n, seed)
    norm = math.sqrt(sum(x * x for x in v))
    return [round(x / norm, 7) for x in v]


PAIRS = [
    ("orthogonal", [1, 0], [0, 1]),
    ("parallel", [2, 0], [3, 0]),
    ("antiparallel", [2, 0], [-3, 0]),
    ("three four five", [3, 4], [4, 3]),
    ("one dimension", [5], [-2]),
    ("seven dims tail only", [1, 2, 3, 4, 5, 6, 7], [7, 6, 5, 4, 3, 2, 1]),
    ("eight dims one lane pass", [1, -2, 3, -4, 5, -6, 7, -8], [0.5] * 8),
    ("nine dims lanes and tail", [0.1 * i for i in range(9)], [1 - 0.1 * i for i in range(9)]),
    ("seventeen dims", lcg_vector(17, 1), lcg_vector(17, 2)),
    ("fractions", [0.1, 0.2, 0.3], [0.3, 0.2, 0.1]),
    ("negative values", [-1.5, -2.5, 3.25], [4.0, -0.5, -1.0]),
    ("large magnitudes", [1e15, -2e15, 3e15], [2e15, 1e15, 0.5e15]),
    ("small magnitudes", [1e-10, 2e-10, 3e-10], [3e-10, 2e-10, 1e-10]),
    ("embedding 384 self", embedding_like(384, 9), embedding_like(384, 9)),
    ("embedding 384 pair", embedding_like(384, 11), embedding_like(384, 12)),
    ("embedding 768 pair", embedding_like(768, 21), embedding_like(768, 22)),
    ("unnormalised 1000", lcg_vector(1000, 5), lcg_vector(1000, 6)),
    ("values not exact in f32", [0.1, 0.7, 1.3], [1 / 3, 2 / 3, 0.9]),
]

ZERO_CASES = [
    ("first vector zero", [0, 0, 0], [1, 2, 3]),
    ("second vector zero", [1, 2, 3], [0, 0, 0]),
    ("both zero", [0.0] * 12, [0.0] * 12),
    ("empty vectors", [], []),
    ("negative zeros", [-0.0, -0.0], [1, 1]),
]

ERRORS = [
    ("length mismatch", [1, 2, 3], [1, 2], "length_mismatch"),
    ("empty vs one", [], [1], "length_mismatch"),
    ("nan in first", [1, "NaN", 3], [1, 2, 3], "non_finite_input"),
    ("nan in second", [1, 2], [1, "NaN"], "non_finite_input"),
    ("infinity", ["Infinity", 0], [1, 1], "non_finite_input"),
    ("negative infinity", [1, 1], [1, "-Infinity"], "non_finite_input"),
    ("beyond f32 range rounds to infinity", [1e39, 1], [1, 1], "non_finite_input"),
    ("unknown float name", ["nan", 1], [1, 1], "invalid_input"),
    ("not a number", [True, 1], [1, 1], "invalid_input"),
]


def cases_for(fn, name):
    tol = 1e-5
    out = []
    for label, a, b in PAIRS + ZERO_CASES:
        out.append({"name": label, "input": {"a": a, "b": b}, "reference": fn(a, b), "tolerance": tol})
    for label, a, b, code in ERRORS:
        out.append({"name": label, "input": {"a": a, "b": b}, "error": code,
                    "note": "typed error, written by hand"})
    return out


cos_cases = cases_for(cosine, "cosine")
cos_cases.append({"name": "norms underflow to zero", "input": {"a": [1e-30, 0], "b": [1e-30, 0]},
                  "expected": 0.0,
                  "note": "by hand: 1e-30 squared underflows f32 to 0, so both norms are 0 and cosine is 0 "
                          "by definition (f64 would say 1)"})
cos_cases.append({"name": "norm overflows", "input": {"a": [3e30, 1], "b": [1, 1]}, "error": "overflow",
                  "note": "by hand: 3e30 squared overflows f32"})
dot_cases = cases_for(dot, "dot")
dot_cases.append({"name": "product overflows", "input": {"a": [3e38, 3e38], "b": [3e38, 3e38]},
                  "error": "overflow", "note": "by hand: 9e76 is beyond f32"})
dot_cases.append({"name": "lane order rounding", "input": {"a": [1e8, 0, 3, 3, 0, 0, 0, 0], "b": [1] * 8},
                  "expected": 100000008.0,
                  "note": "by hand: lanes add (1e8 + 0) + (3 + 3) = 1e8 + 6, which rounds to 1e8 + 8 in f32"})

write_vectors("rank_cosine.json", "cosine", "cosine similarity over f32 with a fixed summation order",
              "reference: f64 fsum over f32-rounded inputs (tests/vectors/gen/rank_vectors.py); expected blessed "
              "after matching; errors and underflow by hand", cos_cases)
write_vectors("rank_dot.json", "dot", "dot product over f32 with a fixed summation order",
              "reference: f64 fsum over f32-rounded inputs (tests/vectors/gen/rank_vectors.py); expected blessed "
              "after matching; errors and lane rounding by hand", dot_cases)

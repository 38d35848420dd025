"""The reference of embed_throughput: PyPI onnxruntime running an ONNX sentence-transformer.

Run by the embed_throughput binary, not by hand: it writes the job (JSON) to the file named
by the first argument and reads one JSON line of figures from stdout. The job holds the
model file, the thread count, the batches to embed (word-piece ids, attention mask and
segment ids, already tokenized, ordered and padded by the Rust side, so both sides encode
exactly the same inputs; tokenizing is not timed here) and one short query batch for the
latency. Each batch goes through the session, is mean- (or cls-) pooled with its mask and
L2-normalised in numpy, as a Python application would do.

Needs onnxruntime (and its numpy), as tests/requirements.txt lists.
"""

import json
import statistics
import sys
import time

import numpy as np
import onnxruntime as ort


def session(model, threads):
    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    options.inter_op_num_threads = 1
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    return ort.InferenceSession(model, options, providers=["CPUExecutionProvider"])


def embed(sess, batch, pooling):
    rows, width = batch["rows"], batch["width"]
    arrays = {
        "input_ids": np.asarray(batch["ids"], dtype=np.int64).reshape(rows, width),
        "attention_mask": np.asarray(batch["mask"], dtype=np.int64).reshape(rows, width),
        "token_type_ids": np.asarray(batch["type_ids"], dtype=np.int64).reshape(rows, width),
    }
    wanted = [i.name for i in sess.get_inputs()]
    hidden = sess.run(None, {name: arrays[name] for name in wanted})[0]
    mask = arrays["attention_mask"][:, :, None].astype(np.float32)
    if pooling == "cls":
        pooled = hidden[:, 0, :]
    else:
        pooled = (hidden * mask).sum(1) / np.clip(mask.sum(1), 1e-9, None)
    return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)


def main():
    with open(sys.argv[1]) as f:
        job = json.load(f)
    sess = session(job["model"], job["threads"])
    pooling = job.get("pooling", "mean")
    embed(sess, job["batches"][0], pooling)  # warm-up, untimed
    started = time.perf_counter()
    for batch in job["batches"]:
        embed(sess, batch, pooling)
    seconds = time.perf_counter() - started
    latencies = []
    for _ in range(job["query_repeats"]):
        t = time.perf_counter()
        embed(sess, job["query"], pooling)
        latencies.append((time.perf_counter() - t) * 1000.0)
    latencies.sort()
    print(
        json.dumps(
            {
                "seconds": seconds,
                "version": ort.__version__,
                "query_p50_ms": statistics.median(latencies),
                "query_p95_ms": latencies[int(0.95 * (len(latencies) - 1))],
            }
        )
    )


if __name__ == "__main__":
    main()

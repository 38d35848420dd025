"""A cross-encoder (reranker) trained here, for `search.rerank` figures: no trained
cross-encoder can be downloaded on this machine (no Hugging Face access), so this script
fine-tunes one from the all-MiniLM-L6-v2 weights (a sentence-transformer, not a reranker) on
BEIR SciFact's train split only, then exports it to ONNX as `optimum-cli export onnx --task
text-classification` would (inputs input_ids, attention_mask, token_type_ids; output logits).

Pairs: every train query with each relevant abstract (label 1) and its best BM25 abstracts
that are not relevant (label 0, hard negatives, `--negatives` per query). One epoch of
binary cross-entropy (sentence-transformers' CrossEncoderTrainer), abstracts cut at 256 word
pieces. The SciFact test split and the obsidian-help golden set are never read.

Outcome (docs/performance.md, "Search evaluation"): the model this makes ranks worse than BM25 alone (over
BM25's top 20 of 60 SciFact test queries, nDCG@10 0.604 → 0.220): a bi-encoder's weights and
900 training queries do not make a reranker. The script stays to make that measurement
repeatable, and for trying other settings.

    python -m venv /tmp/torch && /tmp/torch/bin/pip install torch transformers tokenizers \
        sentence-transformers safetensors onnx onnxruntime onnxscript datasets accelerate rank_bm25
    /tmp/torch/bin/python bench/models/scifact_cross_encoder.py \
        --base target/test-model/all-MiniLM-L6-v2 --data ../shared/data/scifact \
        --out target/scifact-cross-encoder
"""

import argparse
import json
import random
import re
import shutil
from pathlib import Path

import torch
from datasets import Dataset
from rank_bm25 import BM25Okapi
from sentence_transformers.cross_encoder import CrossEncoder, CrossEncoderTrainer
from sentence_transformers.cross_encoder.losses import BinaryCrossEntropyLoss
from sentence_transformers.cross_encoder.training_args import CrossEncoderTrainingArguments

SEED = 22
MAX_TOKENS = 256


def words(text):
    return re.findall(r"\w+", text.lower())


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def train_pairs(data, negatives):
    corpus = read_jsonl(data / "corpus.jsonl")
    queries = {q["_id"]: q["text"] for q in read_jsonl(data / "queries.jsonl")}
    relevant = {}
    with open(data / "qrels" / "train.tsv") as f:
        next(f)
        for line in f:
            query, doc, score = line.strip().split("\t")
            if int(score) > 0:
                relevant.setdefault(query, set()).add(doc)
    ids = [doc["_id"] for doc in corpus]
    texts = {doc["_id"]: f"{doc['title']}\n{doc['text']}" for doc in corpus}
    bm25 = BM25Okapi([words(texts[i]) for i in ids])
    rows = {"query": [], "passage": [], "label": []}
    for query, docs in sorted(relevant.items()):
        text = queries[query]
        scores = bm25.get_scores(words(text))
        ranked = sorted(range(len(ids)), key=lambda i: -scores[i])
        hard = [ids[i] for i in ranked[: negatives * 3] if ids[i] not in docs][:negatives]
        for doc in sorted(docs):
            rows["query"].append(text)
            rows["passage"].append(texts[doc])
            rows["label"].append(1.0)
        for doc in hard:
            rows["query"].append(text)
            rows["passage"].append(texts[doc])
            rows["label"].append(0.0)
    print(f"{len(relevant)} train queries, {len(rows['label'])} pairs")
    return Dataset.from_dict(rows).shuffle(seed=SEED)


def export(model, folder):
    (folder / "onnx").mkdir(parents=True, exist_ok=True)
    inner = model.model.eval()
    names = ["input_ids", "attention_mask", "token_type_ids"]
    batch = model.tokenizer(["a query", "another"], ["a passage", "a longer second passage"],
                            padding=True, return_tensors="pt")

    class Logits(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, *inputs):
            return self.inner(**dict(zip(names, inputs))).logits

    axes = {n: {0: "batch", 1: "sequence"} for n in names}
    axes["logits"] = {0: "batch"}
    torch.onnx.export(Logits(inner), tuple(batch[n] for n in names),
                      str(folder / "onnx" / "model.onnx"), input_names=names,
                      output_names=["logits"], dynamic_axes=axes, opset_version=17, dynamo=False)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", required=True)
    parser.add_argument("--data", required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--negatives", type=int, default=4)
    parser.add_argument("--epochs", type=float, default=1.0)
    args = parser.parse_args()
    random.seed(SEED)
    torch.manual_seed(SEED)
    out = Path(args.out)
    if out.exists():
        shutil.rmtree(out)
    dataset = train_pairs(Path(args.data), args.negatives)
    model = CrossEncoder(args.base, num_labels=1, max_length=MAX_TOKENS, device="cpu")
    training = CrossEncoderTrainingArguments(
        output_dir=str(out / "checkpoints"), num_train_epochs=args.epochs,
        per_device_train_batch_size=16, learning_rate=3e-5, warmup_ratio=0.1, seed=SEED,
        save_strategy="no", logging_steps=20, report_to="none", use_cpu=True,
    )
    trainer = CrossEncoderTrainer(model=model, args=training, train_dataset=dataset,
                                  loss=BinaryCrossEntropyLoss(model))
    trainer.train()
    shutil.rmtree(out / "checkpoints", ignore_errors=True)
    model.save_pretrained(str(out))
    export(model, out)
    print(f"saved {out} and {out / 'onnx' / 'model.onnx'}")


if __name__ == "__main__":
    main()

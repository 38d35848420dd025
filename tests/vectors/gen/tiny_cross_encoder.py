"""Tiny randomly initialised cross-encoders (rerankers) and PyTorch's scores for them: the
fixtures of engine-native/tests/it/embed/cross_encoder.rs.

A cross-encoder is a transformer with a one-label classification head over the query and
passage read together (`[CLS] query [SEP] passage [SEP]`), as sentence-transformers'
`CrossEncoder` loads it (cross-encoder/ms-marco-MiniLM-L-6-v2, BAAI/bge-reranker-base). Two
shapes, each a folder with config.json, tokenizer.json and onnx/model.onnx (exported by
`torch.onnx.export`, output `logits`; model.safetensors too, which PyTorch reads, dynamic batch and sequence axes):

- ms-marco-like: BERT, WordPiece, token type ids (cross-encoder/ms-marco-MiniLM-L-6-v2);
- bge-reranker-like: XLM-RoBERTa, Unigram with Metaspace, no token type ids
  (BAAI/bge-reranker-base).

reference.json holds, for every (query, passage) pair, the input ids the tokenizer gives with
`truncation=True` (the longer text cut first) at the model's 64 positions, and the logit
sentence-transformers' `CrossEncoder.predict` computes with PyTorch (no activation); plus the largest difference ONNX
Runtime's logits of the exported file reach against PyTorch's (`onnx_max_abs_diff`).
The vocabularies and the weight spread are those of tiny_models.py. CI does not install torch:
this script is run by hand and its output committed.

    python -m venv /tmp/torch && /tmp/torch/bin/pip install torch transformers tokenizers \
        sentence-transformers safetensors onnx onnxruntime onnxscript
    /tmp/torch/bin/python tests/vectors/gen/tiny_cross_encoder.py tests/fixtures/tiny-cross-encoders
"""

import json
import shutil
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import torch
import transformers
from sentence_transformers import CrossEncoder

sys.path.insert(0, str(Path(__file__).parent))
from tiny_models import (  # noqa: E402
    HEADS, HIDDEN, INTERMEDIATE, LAYERS, SEED, SENTENCES, export_output, spread_weights, unigram,
    wordpiece,
)

# The positions of both models: inputs are cut there.
POSITIONS = 64

QUERIES = [
    "cat",
    "where are my notes about semantic search?",
    "Katze Sofa",
    "заметки о поездке",
    # Longer than the positions alone: truncation cuts the query too.
    " ".join(SENTENCES[:8]),
]

PASSAGES = [
    "The cat sits on the mat and watches the rain.",
    "Semantic search finds notes by meaning rather than by exact words.",
    "Die Katze schläft auf dem warmen Sofa.",
    "Поезд в Санкт-Петербург отправляется в восемь часов.",
    "笔记以纯文本文件的形式保存。",
    # Far past the positions: the longer text is cut first.
    " ".join(SENTENCES[8:20]),
]

SPECS = [
    dict(name="ms-marco-like", arch="bert", tokenizer=wordpiece),
    dict(name="bge-reranker-like", arch="xlm-roberta", tokenizer=unigram),
]


def hf_classifier(arch, vocab_size, pad_id, seed):
    common = dict(
        vocab_size=vocab_size,
        hidden_size=HIDDEN,
        num_hidden_layers=LAYERS,
        num_attention_heads=HEADS,
        intermediate_size=INTERMEDIATE,
        pad_token_id=pad_id,
        hidden_act="gelu",
        num_labels=1,
    )
    if arch == "xlm-roberta":
        config = transformers.XLMRobertaConfig(
            max_position_embeddings=POSITIONS + pad_id + 1, type_vocab_size=1, **common
        )
        model = transformers.XLMRobertaForSequenceClassification(config)
    else:
        config = transformers.BertConfig(
            max_position_embeddings=POSITIONS, type_vocab_size=2, **common
        )
        model = transformers.BertForSequenceClassification(config)
    spread_weights(model, seed)
    return model.eval()


def onnx_inputs(arch):
    names = ["input_ids", "attention_mask"]
    return names + (["token_type_ids"] if arch == "bert" else [])


def export_onnx(model, fast, arch, folder):
    (folder / "onnx").mkdir()
    names = onnx_inputs(arch)
    batch = fast(["a query", "another query"], ["a short one", "and a somewhat longer passage"],
                 padding=True, return_tensors="pt")
    args = tuple(batch[n] for n in names)
    export_output(model, args, names, "logits", {0: "batch"}, folder / "onnx" / "model.onnx")


def build(spec, out, seed):
    torch.manual_seed(seed)
    folder = out / spec["name"]
    if folder.exists():
        shutil.rmtree(folder)
    fast, pad_id = spec["tokenizer"]()
    fast.model_max_length = POSITIONS
    model = hf_classifier(spec["arch"], len(fast), pad_id, seed)
    model.save_pretrained(folder)
    fast.save_pretrained(folder)
    export_onnx(model, fast, spec["arch"], folder)

    # The scores sentence-transformers' CrossEncoder gives for the saved folder, raw logits.
    ce = CrossEncoder(str(folder), device="cpu")
    pairs = [(q, p) for q in QUERIES for p in PASSAGES]
    logits = ce.predict(pairs, activation_fn=torch.nn.Identity(), convert_to_numpy=True)
    logits = np.asarray(logits, dtype=np.float64).reshape(-1)
    queries, passages = [q for q, _ in pairs], [p for _, p in pairs]
    enc = fast(queries, passages, truncation=True, max_length=POSITIONS, padding=True,
               return_tensors="pt")
    session = ort.InferenceSession(str(folder / "onnx" / "model.onnx"),
                                   providers=["CPUExecutionProvider"])
    feed = {n: enc[n].numpy().astype(np.int64) for n in onnx_inputs(spec["arch"])}
    onnx_logits = session.run(["logits"], feed)[0][:, 0].astype(np.float64)
    reference = {
        "architecture": spec["arch"],
        "positions": POSITIONS,
        "versions": {
            "torch": torch.__version__,
            "transformers": transformers.__version__,
            "onnxruntime": ort.__version__,
        },
        "onnx_max_abs_diff": float(np.max(np.abs(onnx_logits - logits))),
        "pairs": [
            {
                "query": q,
                "passage": p,
                "input_ids": ce.tokenizer(q, p, truncation=True, max_length=POSITIONS)["input_ids"],
                "logit": float(logit),
            }
            for (q, p), logit in zip(pairs, logits)
        ],
    }
    for extra in ["README.md"]:
        (folder / extra).unlink(missing_ok=True)
    (folder / "reference.json").write_text(json.dumps(reference, indent=1, ensure_ascii=False) + "\n")


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/tiny-cross-encoders")
    out.mkdir(parents=True, exist_ok=True)
    for index, spec in enumerate(SPECS):
        build(spec, out, SEED + 100 + index)


if __name__ == "__main__":
    main()

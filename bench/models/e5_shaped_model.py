"""An int8 ONNX model with the shape of intfloat/multilingual-e5-small and random weights, to
measure how fast (and how much memory) the default model embeds on this machine, where its real
weights cannot be downloaded. Speed and memory depend on the shape, not on the weight values:
BERT, 12 layers, hidden 384, 12 heads, intermediate 1536, 512 positions, a 250,037-row
vocabulary (the embedding table quantized to int8 as the hub's 118 MB
onnx/model_qint8_avx512_vnni.onnx is), max_seq_length 512. The tokenizer is all-MiniLM-L6-v2's
(WordPiece; e5's is an XLM-R Unigram one, which cuts English into a similar number of pieces),
so token ids stay below 30,522. Its vectors mean nothing: use it for timing only.

    python -m venv /tmp/e5 && /tmp/e5/bin/pip install torch transformers onnx onnxruntime onnxscript
    /tmp/e5/bin/python bench/models/e5_shaped_model.py <all-MiniLM-L6-v2 folder> target/e5-shaped
"""

import json
import shutil
import sys
from pathlib import Path

import torch
from transformers import BertConfig, BertModel

from e5_standin import onnx_int8

SHAPE = dict(vocab_size=250_037, hidden_size=384, num_hidden_layers=12, num_attention_heads=12,
             intermediate_size=1536, max_position_embeddings=512, type_vocab_size=2,
             pad_token_id=0, layer_norm_eps=1e-12, hidden_act="gelu")


def main():
    minilm, out = Path(sys.argv[1]), Path(sys.argv[2])
    if out.exists():
        shutil.rmtree(out)
    (out / "onnx").mkdir(parents=True)
    torch.manual_seed(5)
    config = BertConfig(**SHAPE)
    model = BertModel(config, add_pooling_layer=False).eval()
    config_json = json.loads(config.to_json_string())
    config_json["model_type"] = "bert"
    (out / "config.json").write_text(json.dumps(config_json, indent=2))
    for name in ["tokenizer.json", "modules.json", "1_Pooling/config.json"]:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(minilm / name, out / name)
    (out / "sentence_bert_config.json").write_text(
        json.dumps({"max_seq_length": 512, "do_lower_case": False}))
    onnx_int8(model, out / "onnx" / "model_quantized.onnx")
    size = (out / "onnx" / "model_quantized.onnx").stat().st_size
    print(f"{out}/onnx/model_quantized.onnx: {size:,} bytes")


if __name__ == "__main__":
    main()

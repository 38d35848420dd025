"""An int8 ONNX model with the shape of intfloat/multilingual-e5-small and random weights, to
measure how fast (and how much memory) the default model embeds on this machine, where its real
weights cannot be downloaded. Speed and memory depend on the shape, not on the weight values:
BERT, 12 layers, hidden 384, 12 heads, intermediate 1536, 512 positions, a 250,037-row
vocabulary (the embedding table quantized to int8 as the hub's 118 MB
onnx/model_qint8_avx512_vnni.onnx is), max_seq_length 512. The weights are drawn as
transformers initializes a `BertModel` (normal, standard deviation 0.02; biases 0, LayerNorm
1 and 0). The tokenizer is all-MiniLM-L6-v2's (WordPiece; e5's is an XLM-R Unigram one, which
cuts English into a similar number of pieces), so token ids stay below 30,522. Its vectors mean
nothing: use it for timing only. (bench/models/e5_standin.py makes the stand-in with the real
model's weights.)

    .venv/bin/python bench/models/e5_shaped_model.py <all-MiniLM-L6-v2 folder> target/e5-shaped
"""

import json
import shutil
import sys
from pathlib import Path

import numpy as np

from bert_onnx import bert_onnx_int8

SHAPE = dict(vocab_size=250_037, hidden_size=384, num_hidden_layers=12, num_attention_heads=12,
             intermediate_size=1536, max_position_embeddings=512, type_vocab_size=2,
             pad_token_id=0, layer_norm_eps=1e-12, hidden_act="gelu", model_type="bert",
             architectures=["BertModel"])


def random_state(rng):
    """BERT's weights under the hub checkpoint's names, drawn as transformers initializes them."""
    hidden, ff = SHAPE["hidden_size"], SHAPE["intermediate_size"]

    def normal(*shape):
        return rng.normal(0.0, 0.02, shape).astype(np.float32)

    state = {
        "embeddings.word_embeddings.weight": normal(SHAPE["vocab_size"], hidden),
        "embeddings.position_embeddings.weight": normal(SHAPE["max_position_embeddings"], hidden),
        "embeddings.token_type_embeddings.weight": normal(SHAPE["type_vocab_size"], hidden),
    }
    dense = {"attention.self.query": (hidden, hidden), "attention.self.key": (hidden, hidden),
             "attention.self.value": (hidden, hidden), "attention.output.dense": (hidden, hidden),
             "intermediate.dense": (ff, hidden), "output.dense": (hidden, ff)}
    norms = ["embeddings.LayerNorm"]
    for layer in range(SHAPE["num_hidden_layers"]):
        prefix = f"encoder.layer.{layer}."
        for name, shape in dense.items():
            state[prefix + name + ".weight"] = normal(*shape)
            state[prefix + name + ".bias"] = np.zeros(shape[0], np.float32)
        norms += [prefix + "attention.output.LayerNorm", prefix + "output.LayerNorm"]
    for name in norms:
        state[name + ".weight"] = np.ones(hidden, np.float32)
        state[name + ".bias"] = np.zeros(hidden, np.float32)
    return state


def main():
    minilm, out = Path(sys.argv[1]), Path(sys.argv[2])
    if out.exists():
        shutil.rmtree(out)
    (out / "onnx").mkdir(parents=True)
    (out / "config.json").write_text(json.dumps(SHAPE, indent=2))
    for name in ["tokenizer.json", "modules.json", "1_Pooling/config.json"]:
        (out / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(minilm / name, out / name)
    (out / "sentence_bert_config.json").write_text(
        json.dumps({"max_seq_length": 512, "do_lower_case": False}))
    model = out / "onnx" / "model_quantized.onnx"
    bert_onnx_int8(random_state(np.random.default_rng(5)), SHAPE["num_hidden_layers"],
                   SHAPE["num_attention_heads"], SHAPE["layer_norm_eps"], model)
    print(f"{model}: {model.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()

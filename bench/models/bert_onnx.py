"""A BERT encoder written as an ONNX graph straight from its weights, then quantized to int8:
the stand-in models' ONNX files, made without torch (which the test machines do not install).

The graph is what `torch.onnx.export` of transformers' `BertModel` (eager attention, absolute
positions, exact GELU) computes, op for op: embeddings (word + position + token type, then
LayerNorm), then per layer self-attention (scores scaled by 1/sqrt(head size), the padding
masked with float32's lowest value as transformers does, softmax), the output projection and
LayerNorm, the feed-forward block with GELU and LayerNorm. Inputs `input_ids`,
`attention_mask`, `token_type_ids` (int64, batch x sequence); output `last_hidden_state`.
`onnxruntime.quantization.quantize_dynamic` then stores the weight matrices (per output
channel) and the embedding tables as int8, as for the hub's `onnx/model_qint8_avx512_vnni.onnx`.

    state = {"embeddings.word_embeddings.weight": ..., "encoder.layer.0.attention.self.query.weight": ...}
    bert_onnx_int8(state, layers=12, heads=12, eps=1e-12, path="onnx/model.onnx")
"""

import tempfile
from pathlib import Path

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper


class _Graph:
    """Nodes and initializers under generated names."""

    def __init__(self):
        self.nodes, self.initializers, self.count = [], [], 0

    def name(self, hint):
        self.count += 1
        return f"{hint}_{self.count}"

    def const(self, hint, value):
        name = self.name(hint)
        self.initializers.append(numpy_helper.from_array(np.asarray(value), name))
        return name

    def op(self, op_type, *inputs, **attrs):
        out = self.name(op_type.lower())
        self.nodes.append(helper.make_node(op_type, list(inputs), [out], **attrs))
        return out


def _linear(g, x, state, prefix):
    """x · Wᵀ + b of the `prefix` dense layer (W stored out x in, as torch keeps it)."""
    weight = g.const(prefix + ".weight", state[prefix + ".weight"].T.copy())
    bias = g.const(prefix + ".bias", state[prefix + ".bias"])
    return g.op("Add", g.op("MatMul", x, weight), bias)


def _layer_norm(g, x, state, prefix, eps):
    return g.op("LayerNormalization", x, g.const(prefix + ".weight", state[prefix + ".weight"]),
                g.const(prefix + ".bias", state[prefix + ".bias"]), axis=-1, epsilon=eps)


def bert_graph(state, layers, heads, eps):
    """The f32 ONNX model of the BERT encoder whose weights `state` holds (hub names)."""
    g = _Graph()
    hidden = state["embeddings.word_embeddings.weight"].shape[1]
    head = hidden // heads
    ids, mask, types = "input_ids", "attention_mask", "token_type_ids"
    # Embeddings: positions 0 .. sequence-1.
    length = g.op("Gather", g.op("Shape", ids), g.const("one", np.array(1, np.int64)), axis=0)
    positions = g.op("Range", g.const("zero", np.array(0, np.int64)), length,
                     g.const("step", np.array(1, np.int64)))
    x = g.op("Add", g.op("Add",
                         g.op("Gather", g.const("word", state["embeddings.word_embeddings.weight"]),
                              ids),
                         g.op("Gather", g.const("type",
                                                state["embeddings.token_type_embeddings.weight"]),
                              types)),
             g.op("Gather", g.const("position", state["embeddings.position_embeddings.weight"]),
                  positions))
    x = _layer_norm(g, x, state, "embeddings.LayerNorm", eps)
    # The padding mask as an additive bias: 0 where attended, float32's lowest elsewhere.
    keep = g.op("Cast", g.op("Unsqueeze", mask, g.const("axes", np.array([1, 2], np.int64))),
                to=TensorProto.FLOAT)
    bias = g.op("Mul", g.op("Sub", g.const("one_f", np.array(1.0, np.float32)), keep),
                g.const("lowest", np.array(np.finfo(np.float32).min, np.float32)))
    split = g.const("split", np.array([0, 0, heads, head], np.int64))
    merge = g.const("merge", np.array([0, 0, hidden], np.int64))
    scale = g.const("scale", np.array(1.0 / np.sqrt(head), np.float32))
    for layer in range(layers):
        p = f"encoder.layer.{layer}."

        def heads_of(t):
            return g.op("Transpose", g.op("Reshape", t, split), perm=[0, 2, 1, 3])

        q = heads_of(_linear(g, x, state, p + "attention.self.query"))
        k = heads_of(_linear(g, x, state, p + "attention.self.key"))
        v = heads_of(_linear(g, x, state, p + "attention.self.value"))
        scores = g.op("Add", g.op("Mul", g.op("MatMul", q, g.op("Transpose", k, perm=[0, 1, 3, 2])),
                                  scale), bias)
        context = g.op("MatMul", g.op("Softmax", scores, axis=-1), v)
        context = g.op("Reshape", g.op("Transpose", context, perm=[0, 2, 1, 3]), merge)
        attended = _linear(g, context, state, p + "attention.output.dense")
        x = _layer_norm(g, g.op("Add", attended, x), state, p + "attention.output.LayerNorm", eps)
        inner = _linear(g, x, state, p + "intermediate.dense")
        # Exact GELU: x · ½ · (1 + erf(x / √2)).
        erf = g.op("Erf", g.op("Div", inner, g.const("sqrt2", np.array(np.sqrt(2.0), np.float32))))
        gelu = g.op("Mul", g.op("Mul", inner, g.op("Add", erf, g.const("one", np.array(1.0, np.float32)))),
                    g.const("half", np.array(0.5, np.float32)))
        out = _linear(g, gelu, state, p + "output.dense")
        x = _layer_norm(g, g.op("Add", out, x), state, p + "output.LayerNorm", eps)
    g.nodes.append(helper.make_node("Identity", [x], ["last_hidden_state"]))
    axes = ["batch", "sequence"]
    inputs = [helper.make_tensor_value_info(name, TensorProto.INT64, axes) for name in (ids, mask, types)]
    output = helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, axes + [hidden])
    graph = helper.make_graph(g.nodes, "bert", inputs, [output], g.initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    return model


def bert_onnx_int8(state, layers, heads, eps, path):
    """The encoder of `state` as ONNX, dynamically quantized to int8 into `path` as the hub's
    `model_qint8_avx512_vnni.onnx` files are: sentence-transformers'
    `export_dynamic_quantized_onnx_model(model, "avx512_vnni")`, whose file names carry that
    suffix, takes optimum's `AutoQuantizationConfig.avx512_vnni(is_static=False)`, which
    quantizes each weight matrix per output channel, symmetrically, without reduced range."""
    from onnxruntime.quantization import QuantType, quantize_dynamic

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        f32 = Path(tmp) / "model.onnx"
        onnx.save_model(bert_graph(state, layers, heads, eps), str(f32))
        quantize_dynamic(str(f32), str(path), weight_type=QuantType.QInt8, per_channel=True,
                         reduce_range=False,
                         extra_options={"WeightSymmetric": True, "ActivationSymmetric": False})

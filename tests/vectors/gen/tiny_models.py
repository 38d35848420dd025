"""Tiny randomly initialised sentence-transformers models, one per supported architecture, and
PyTorch's vectors for them: the fixtures of engine-native/tests/it/embed/tiny_models.rs.

Each model is a complete sentence-transformers folder (config.json, tokenizer.json,
model.safetensors, modules.json, 1_Pooling/config.json, sentence_bert_config.json and, where the
model has prompts, config_sentence_transformers.json), its ONNX export (onnx/model.onnx, output
last_hidden_state, dynamic batch and sequence axes) and the int8 weights
(onnx/model_quantized.onnx, onnxruntime.quantization.quantize_dynamic), plus reference.json:
for every text, the query and document input (prefix applied), its token ids, and the pooled,
L2-normalised vector `SentenceTransformer.encode` computes with PyTorch. ONNX Runtime's vectors of
both ONNX files are measured against PyTorch's here and recorded (`onnx_min_cosine`), so that the
engines' checks know what the files themselves reach.

The models mirror the shapes of the supported real ones at hidden size 32, 2 layers, 4 heads and
vocabularies of at most 800 pieces counted here on a few hundred mixed-language lines:

- minilm-like: bert, WordPiece, mean pooling, Normalize (all-MiniLM-L6-v2);
- bge-like: bert, WordPiece, CLS pooling, Normalize, no prompts in the folder: the query
  instruction comes from the known-model table, so it is loaded as BAAI/bge-small-en-v1.5
  (bge-small-en-v1.5);
- e5-like: xlm-roberta, Unigram with Metaspace, mean pooling, Normalize, prompts "query: " /
  "passage: " in config_sentence_transformers.json (multilingual-e5-base and -large);
- e5-small-like: bert with an XLM-R style Unigram tokenizer, mean pooling, Normalize, no prompts
  in the folder: they come from the known-model table, so it is loaded as
  intfloat/multilingual-e5-small (multilingual-e5-small);
- paraphrase-like: bert with an XLM-R style Unigram tokenizer, mean pooling, no Normalize
  (paraphrase-multilingual-MiniLM-L12-v2).

Weights are drawn with a fixed seed and a wide spread (not the 0.02 of training), so that
different texts get clearly different vectors and a wrong step cannot hide under the tolerance.
CI does not install torch: this script is run by hand and its output committed.

    python -m venv /tmp/torch && /tmp/torch/bin/pip install torch transformers tokenizers \
        sentence-transformers safetensors onnx onnxruntime onnxscript
    /tmp/torch/bin/python tests/vectors/gen/tiny_models.py tests/fixtures/tiny-models
"""

import json
import math
import random
import shutil
import sys
from pathlib import Path

import numpy as np
import onnxruntime as ort
import sentence_transformers
import tokenizers
import torch
import transformers
from onnxruntime.quantization import QuantType, quantize_dynamic
from sentence_transformers import SentenceTransformer
from sentence_transformers.sentence_transformer.modules import Normalize, Pooling, Transformer
from collections import Counter

from tokenizers import Tokenizer, decoders, models, normalizers, pre_tokenizers, processors

SEED = 19
HIDDEN = 32
LAYERS = 2
HEADS = 4
INTERMEDIATE = 64
VOCAB = 800
MAX_TOKENS = 32
# The spread of the random weights: wide enough that texts differ clearly.
WEIGHT_STD = 0.15

BGE_QUERY = "Represent this sentence for searching relevant passages: "

SENTENCES = [
    "The cat sits on the mat and watches the rain.",
    "Obsidian stores notes as plain Markdown files in a vault.",
    "Semantic search finds notes by meaning rather than by exact words.",
    "Mitochondria produce most of the chemical energy of a cell.",
    "A backlink shows which notes point at the current one.",
    "The library opens at nine and closes at six on weekdays.",
    "Embeddings turn sentences into vectors of numbers.",
    "Tags and folders help to keep a large vault in order.",
    "Die Katze schläft auf dem warmen Sofa.",
    "Notizen werden als einfache Textdateien gespeichert.",
    "Die semantische Suche findet Notizen nach ihrer Bedeutung.",
    "Im Winter ist es in Berlin oft kalt und grau.",
    "Der Zug nach München fährt um acht Uhr ab.",
    "Кошка спит на тёплом диване.",
    "Заметки хранятся в виде простых текстовых файлов.",
    "Семантический поиск находит заметки по смыслу.",
    "Зимой в Москве часто идёт снег.",
    "Поезд в Санкт-Петербург отправляется в восемь часов.",
    "猫在温暖的沙发上睡觉。",
    "笔记以纯文本文件的形式保存。",
    "语义搜索按照意思查找笔记。",
    "北京的冬天很冷。",
    "火车八点出发去上海。",
    "Le chat dort sur le canapé chaud.",
    "Les notes sont enregistrées sous forme de fichiers texte.",
    "La recherche sémantique trouve les notes par leur sens.",
    "El gato duerme en el sofá caliente.",
    "Las notas se guardan como archivos de texto plano.",
    # The prompts' words, so that a prompt takes a few pieces and leaves room for the text.
    BGE_QUERY + "query: passage: ",
]

# Mixed languages, short and long; the last is far past MAX_TOKENS pieces.
TEXTS = [
    "cat",
    "Where are my notes about the garden?",
    "Die Katze schläft.",
    "Где мои заметки о поездке?",
    "语义搜索",
    "La recherche sémantique trouve les notes.",
    "Semantic search finds notes by meaning; embeddings turn sentences into vectors!",
    "Mitochondria 🚀 produce energy — 2024, naïve café.",
    "Obsidian   stores\tnotes\nas Markdown.",
    " ".join(SENTENCES[:6]),
]


def corpus():
    """A few hundred deterministic lines: the sentences and random pairs of them."""
    rng = random.Random(SEED)
    lines = list(SENTENCES)
    for _ in range(300):
        lines.append(" ".join(rng.sample(SENTENCES, 2)))
    return lines


def word_counts(normalizer, pre_tokenizer):
    """How often each pre-tokenized word of the corpus occurs."""
    counts = Counter()
    for line in corpus():
        for word, _ in pre_tokenizer.pre_tokenize_str(normalizer.normalize_str(line)):
            counts[word] += 1
    return counts


def frequent(counts, room):
    """The words seen at least twice, most frequent first (ties by the word): at most `room`."""
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return [word for word, count in ranked if count >= 2][: max(room, 0)]


# The vocabularies are counted here rather than with the `tokenizers` trainers, whose results
# change from run to run (hash-map order): every character of the corpus (and, for WordPiece,
# its `##` continuation), then the frequent words whole. Rerunning gives the same files.


def wordpiece():
    normalizer = normalizers.BertNormalizer(lowercase=True, strip_accents=None)
    pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    counts = word_counts(normalizer, pre_tokenizer)
    chars = sorted({ch for word in counts for ch in word})
    pieces = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + chars + ["##" + ch for ch in chars]
    pieces += [w for w in frequent(counts, VOCAB) if w not in pieces][: VOCAB - len(pieces)]
    tok = Tokenizer(models.WordPiece({p: i for i, p in enumerate(pieces)}, unk_token="[UNK]"))
    tok.normalizer = normalizer
    tok.pre_tokenizer = pre_tokenizer
    cls, sep = tok.token_to_id("[CLS]"), tok.token_to_id("[SEP]")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]",
        pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", cls), ("[SEP]", sep)],
    )
    tok.decoder = decoders.WordPiece()
    fast = transformers.BertTokenizerFast(
        tokenizer_object=tok,
        unk_token="[UNK]",
        sep_token="[SEP]",
        pad_token="[PAD]",
        cls_token="[CLS]",
        mask_token="[MASK]",
    )
    return fast, tok.token_to_id("[PAD]")


def unigram():
    """An XLM-R style tokenizer: <s> <pad> </s> <unk> first, Metaspace, Unigram, <mask> last."""
    normalizer = normalizers.Sequence(
        [normalizers.NFKC(), normalizers.Replace(tokenizers.Regex(" {2,}"), " ")]
    )
    pre_tokenizer = pre_tokenizers.Metaspace(replacement="▁", prepend_scheme="always")
    counts = word_counts(normalizer, pre_tokenizer)
    chars = Counter()
    for word, count in counts.items():
        for ch in word:
            chars[ch] += count
    # Scores are log frequencies: a whole frequent word beats spelling it out.
    total_chars, total_words = sum(chars.values()), sum(counts.values())
    pieces = [(s, 0.0) for s in ["<s>", "<pad>", "</s>", "<unk>"]]
    pieces += [(ch, math.log(chars[ch] / total_chars)) for ch in sorted(chars)]
    room = VOCAB - 1 - len(pieces)
    pieces += [(w, math.log(counts[w] / total_words)) for w in frequent(counts, room) if w not in chars]
    tok = Tokenizer(models.Unigram(pieces, unk_id=3, byte_fallback=False))
    tok.normalizer = normalizer
    tok.pre_tokenizer = pre_tokenizer
    tok.add_special_tokens(["<mask>"])
    bos, eos = tok.token_to_id("<s>"), tok.token_to_id("</s>")
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>",
        pair="<s> $A </s> </s> $B </s>",
        special_tokens=[("<s>", bos), ("</s>", eos)],
    )
    tok.decoder = decoders.Metaspace(replacement="▁", prepend_scheme="always")
    fast = transformers.XLMRobertaTokenizerFast(
        tokenizer_object=tok,
        bos_token="<s>",
        eos_token="</s>",
        sep_token="</s>",
        cls_token="<s>",
        unk_token="<unk>",
        pad_token="<pad>",
        mask_token="<mask>",
    )
    return fast, tok.token_to_id("<pad>")


def spread_weights(model, seed):
    """Redraws every parameter with a wide spread (LayerNorm scales around 1)."""
    gen = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for name, param in model.named_parameters():
            noise = torch.randn(param.shape, generator=gen)
            if "LayerNorm.weight" in name:
                param.copy_(1.0 + 0.2 * noise)
            elif name.endswith("bias") or "token_type" in name:
                param.copy_(0.02 * noise)
            else:
                param.copy_(WEIGHT_STD * noise)


def hf_model(arch, vocab_size, pad_id, seed):
    common = dict(
        vocab_size=vocab_size,
        hidden_size=HIDDEN,
        num_hidden_layers=LAYERS,
        num_attention_heads=HEADS,
        intermediate_size=INTERMEDIATE,
        pad_token_id=pad_id,
        hidden_act="gelu",
    )
    if arch == "xlm-roberta":
        # Positions start after the padding id, as in XLM-R: 64 usable positions.
        config = transformers.XLMRobertaConfig(
            max_position_embeddings=64 + pad_id + 1, type_vocab_size=1, **common
        )
        model = transformers.XLMRobertaModel(config, add_pooling_layer=False)
    else:
        config = transformers.BertConfig(max_position_embeddings=64, type_vocab_size=2, **common)
        model = transformers.BertModel(config, add_pooling_layer=False)
    spread_weights(model, seed)
    return model.eval()


SPECS = [
    dict(name="minilm-like", load_as="tiny/minilm-like", arch="bert", tokenizer=wordpiece,
         pooling="mean", normalize=True, folder_prompts=None, query="", document=""),
    dict(name="bge-like", load_as="BAAI/bge-small-en-v1.5", arch="bert", tokenizer=wordpiece,
         pooling="cls", normalize=True, folder_prompts=None, query=BGE_QUERY, document=""),
    dict(name="e5-like", load_as="tiny/e5-like", arch="xlm-roberta", tokenizer=unigram,
         pooling="mean", normalize=True, folder_prompts={"query": "query: ", "passage": "passage: "},
         query="query: ", document="passage: "),
    # multilingual-e5-small is a BERT with the XLM-R tokenizer (its config.json says bert, with
    # pad_token_id 0 where the tokenizer pads with 1), its folder without prompts.
    dict(name="e5-small-like", load_as="intfloat/multilingual-e5-small", arch="bert",
         tokenizer=unigram, pooling="mean", normalize=True, folder_prompts=None,
         query="query: ", document="passage: ", pad_token_id=0),
    dict(name="paraphrase-like", load_as="tiny/paraphrase-like", arch="bert", tokenizer=unigram,
         pooling="mean", normalize=False, folder_prompts=None, query="", document=""),
]


def build(spec, out, seed):
    torch.manual_seed(seed)
    folder = out / spec["name"]
    if folder.exists():
        shutil.rmtree(folder)
    stage = out / (spec["name"] + ".hf")
    if stage.exists():
        shutil.rmtree(stage)
    fast, pad_id = spec["tokenizer"]()
    model = hf_model(spec["arch"], len(fast), spec.get("pad_token_id", pad_id), seed)
    model.save_pretrained(stage)
    fast.save_pretrained(stage)

    transformer = Transformer(str(stage), max_seq_length=MAX_TOKENS)
    modules = [transformer, Pooling(HIDDEN, pooling_mode=spec["pooling"])]
    if spec["normalize"]:
        modules.append(Normalize())
    st = SentenceTransformer(modules=modules, prompts=spec["folder_prompts"], device="cpu")
    st.save(str(folder))
    shutil.rmtree(stage)
    for extra in ["README.md"]:
        (folder / extra).unlink(missing_ok=True)
    if not spec["folder_prompts"]:
        (folder / "config_sentence_transformers.json").unlink(missing_ok=True)

    st = SentenceTransformer(str(folder), device="cpu")
    st.eval()
    export_onnx(st, spec, folder)

    def encode(texts):
        vectors = st.encode(texts, convert_to_numpy=True, normalize_embeddings=True, batch_size=4)
        return vectors.astype(np.float64)

    entries = []
    queries = [spec["query"] + t for t in TEXTS]
    documents = [spec["document"] + t for t in TEXTS]
    q_vecs, d_vecs = encode(queries), encode(documents)
    for text, q_in, d_in, q, d in zip(TEXTS, queries, documents, q_vecs, d_vecs):
        entries.append(
            dict(
                text=text,
                query=dict(input=q_in, ids=ids(st, q_in), vector=[float(x) for x in q]),
                document=dict(input=d_in, ids=ids(st, d_in), vector=[float(x) for x in d]),
            )
        )
    # Different texts stay far apart next to the tests' tolerance (a cosine of 0.9999).
    distinct = max(
        float(np.dot(vecs[i], vecs[j]))
        for vecs in (q_vecs, d_vecs)
        for i in range(len(TEXTS))
        for j in range(i)
    )
    assert distinct < 0.99, f"{spec['name']}: texts too alike ({distinct})"
    assert len(entries[-1]["document"]["ids"]) == MAX_TOKENS, "the long text is cut"

    onnx_cos = {kind: onnx_min_cosine(folder / "onnx" / file, spec, st, documents + queries,
                                      np.concatenate([d_vecs, q_vecs]))
                for kind, file in [("f32", "model.onnx"), ("int8", "model_quantized.onnx")]}
    reference = dict(
        model=spec["name"],
        load_as=spec["load_as"],
        architecture=spec["arch"],
        pooling=spec["pooling"],
        normalize=spec["normalize"],
        query_prefix=spec["query"],
        document_prefix=spec["document"],
        max_tokens=MAX_TOKENS,
        dimensions=HIDDEN,
        onnx_inputs=onnx_inputs(spec),
        onnx_min_cosine=onnx_cos,
        max_cosine_between_texts=distinct,
        seed=seed,
        versions=dict(
            torch=torch.__version__,
            transformers=transformers.__version__,
            tokenizers=tokenizers.__version__,
            sentence_transformers=sentence_transformers.__version__,
            onnxruntime=ort.__version__,
        ),
        texts=entries,
    )
    (folder / "reference.json").write_text(json.dumps(reference, indent=1, ensure_ascii=False) + "\n")
    print(spec["name"], "texts max cosine", round(distinct, 4), "onnx", onnx_cos)


def ids(st, text):
    return st.tokenizer(text, truncation=True, max_length=MAX_TOKENS)["input_ids"]


def onnx_inputs(spec):
    # As the hub's Optimum exports: BERT takes token type ids, XLM-R does not.
    names = ["input_ids", "attention_mask"]
    return names + (["token_type_ids"] if spec["arch"] == "bert" else [])


def export_output(model, args, names, output, output_axes, path):
    """Exports `model` (called with the inputs `names`) to ONNX at `path`, its output `output`
    (an attribute of what the model returns) the graph's only output; dynamic batch and sequence
    axes on the inputs, `output_axes` on the output."""

    class Output(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, *inputs):
            return getattr(self.inner(**dict(zip(names, inputs))), output)

    axes = {n: {0: "batch", 1: "sequence"} for n in names}
    axes[output] = output_axes
    torch.onnx.export(
        Output(model), args, str(path), input_names=names,
        output_names=[output], dynamic_axes=axes, opset_version=17, dynamo=False,
    )


def export_onnx(st, spec, folder):
    model = st[0].auto_model.eval()
    (folder / "onnx").mkdir()
    names = onnx_inputs(spec)
    batch = st.tokenizer(["a short one", "and a somewhat longer second text"], padding=True,
                         return_tensors="pt")
    args = tuple(batch[n] if n in batch else torch.zeros_like(batch["input_ids"]) for n in names)
    export_output(model, args, names, "last_hidden_state", {0: "batch", 1: "sequence"},
                  folder / "onnx" / "model.onnx")
    quantize_dynamic(str(folder / "onnx" / "model.onnx"),
                     str(folder / "onnx" / "model_quantized.onnx"), weight_type=QuantType.QInt8)


def onnx_min_cosine(path, spec, st, texts, want):
    """The lowest cosine between ONNX Runtime's pooled vectors of `path` and PyTorch's."""
    session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    names = onnx_inputs(spec)
    lowest = 1.0
    for text, w in zip(texts, want):
        enc = st.tokenizer([text], truncation=True, max_length=MAX_TOKENS, return_tensors="np")
        feed = {n: (enc[n] if n in enc else np.zeros_like(enc["input_ids"])).astype(np.int64)
                for n in names}
        hidden = session.run(["last_hidden_state"], feed)[0][0].astype(np.float64)
        v = hidden[0] if spec["pooling"] == "cls" else hidden.mean(axis=0)
        v /= np.linalg.norm(v)
        lowest = min(lowest, float(np.dot(v, w)))
    return round(lowest, 6)


def main():
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "tests/fixtures/tiny-models")
    out.mkdir(parents=True, exist_ok=True)
    # Each model its own weights.
    for index, spec in enumerate(SPECS):
        build(spec, out, SEED + index)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Golden vectors for `canonical_json` and `args_hash` (tests/vectors/hash_canonical_json.json,
tests/vectors/hash_args_hash.json).

Independent sources:
  - canonical JSON: the PyPI packages `rfc8785` 0.1.4 (Trail of Bits) and `jcs` 0.2.1 (the
    RFC 8785 authors' Python reference), which must agree on every case; the examples of
    RFC 8785 §3.2.2, §3.2.3 and Appendix B are also checked against the RFC's printed text;
  - args_hash: Python `hashlib.sha256` over that canonical text of `[tool_name, args]`, first
    32 hex characters.

Inputs are written as raw JSON text, spliced verbatim into the vector file, so literals such as
`-0`, `1E30`, `4.50`, duplicate keys and key order reach the engine exactly as written. Python
parses them with `json.loads`; integers of magnitude >= 2^53 are then turned into the nearest
double, as JavaScript's JSON.parse (and the engine) do.

Run from the repository root (needs `pip install rfc8785==0.1.4 jcs==0.2.1`):
    python3 tests/vectors/gen/hash_jcs.py
"""

import hashlib
import json
import random
import struct
from pathlib import Path

import jcs
import rfc8785

OUT = Path(__file__).resolve().parent.parent


def js_numbers(value):
    """Integers as JavaScript holds them: exact below 2^53, else the nearest double."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return float(value) if abs(value) >= 2**53 else value
    if isinstance(value, list):
        return [js_numbers(v) for v in value]
    if isinstance(value, dict):
        return {k: js_numbers(v) for k, v in value.items()}
    return value


def canonical(raw):
    value = js_numbers(json.loads(raw))
    a = rfc8785.dumps(value).decode("utf-8")
    b = jcs.canonicalize(value).decode("utf-8")
    assert a == b, (raw, a, b)
    return a


def double_text(hex_bits):
    """Shortest JSON text that reads back as the double with these IEEE-754 bits."""
    x = struct.unpack(">d", bytes.fromhex(hex_bits))[0]
    return repr(x)


# RFC 8785 Appendix B: IEEE-754 bits -> expected JSON text.
APPENDIX_B = [
    ("0000000000000000", "0"),
    ("8000000000000000", "0"),
    ("0000000000000001", "5e-324"),
    ("8000000000000001", "-5e-324"),
    ("7fefffffffffffff", "1.7976931348623157e+308"),
    ("ffefffffffffffff", "-1.7976931348623157e+308"),
    ("4340000000000000", "9007199254740992"),
    ("c340000000000000", "-9007199254740992"),
    ("4430000000000000", "295147905179352830000"),
    ("44b52d02c7e14af5", "9.999999999999997e+22"),
    ("44b52d02c7e14af6", "1e+23"),
    ("44b52d02c7e14af7", "1.0000000000000001e+23"),
    ("444b1ae4d6e2ef4e", "999999999999999700000"),
    ("444b1ae4d6e2ef4f", "999999999999999900000"),
    ("444b1ae4d6e2ef50", "1e+21"),
    ("3eb0c6f7a0b5ed8c", "9.999999999999997e-7"),
    ("3eb0c6f7a0b5ed8d", "0.000001"),
    ("41b3de4355555553", "333333333.3333332"),
    ("41b3de4355555554", "333333333.33333325"),
    ("41b3de4355555555", "333333333.3333333"),
    ("41b3de4355555556", "333333333.3333334"),
    ("41b3de4355555557", "333333333.33333343"),
    ("becbf647612f3696", "-0.0000033333333333333333"),
    ("43143ff3c1cb0959", "1424953923781206.2"),
]


def random_doubles(count, seed):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        bits = rng.getrandbits(64)
        x = struct.unpack(">d", bits.to_bytes(8, "big"))[0]
        if x == x and x not in (float("inf"), float("-inf")):
            out.append(repr(x))
    return "[" + ",".join(out) + "]"


def random_text(rng, length):
    chars = []
    while len(chars) < length:
        cp = rng.choice([rng.randrange(0x20, 0x7F), rng.randrange(0, 0x20), rng.randrange(0xA0, 0x3000),
                         rng.randrange(0x1F300, 0x1FAFF), rng.randrange(0xE000, 0xFFFE), rng.randrange(0x10000, 0x10FFFF)])
        if not 0xD800 <= cp <= 0xDFFF:
            chars.append(chr(cp))
    return "".join(chars)


def big_object(seed):
    rng = random.Random(seed)
    members = {random_text(rng, rng.randrange(1, 12)): random_text(rng, rng.randrange(0, 30)) for _ in range(400)}
    return json.dumps(members, ensure_ascii=False)


def deep(levels):
    return "".join('{"k":[' for _ in range(levels // 2)) + '"leaf"' + "".join("]}" for _ in range(levels // 2))


RFC_3_2_2_IN = r'''{
  "numbers": [333333333.33333329, 1E30, 4.50, 2e-3, 0.000000000000000000000000001],
  "string": "\u20ac$\u000F\u000aA'\u0042\u0022\u005c\\\"\/",
  "literals": [null, true, false]
}'''
RFC_3_2_2_OUT = '{"literals":[null,true,false],"numbers":[333333333.3333333,1e+30,4.5,0.002,1e-27],"string":"€$\\u000f\\nA\'B\\"\\\\\\\\\\"/"}'

RFC_3_2_3_IN = r'''{
  "\u20ac": "Euro Sign",
  "\r": "Carriage Return",
  "\ufb33": "Hebrew Letter Dalet With Dagesh",
  "1": "One",
  "\ud83d\ude00": "Emoji: Grinning Face",
  "\u0080": "Control",
  "\u00f6": "Latin Small Letter O With Diaeresis"
}'''

CANONICAL_CASES = [
    ("rfc8785 3.2.2 example: whitespace, number forms, string escapes", RFC_3_2_2_IN),
    ("rfc8785 3.2.3 example: keys sorted by UTF-16 code units", RFC_3_2_3_IN),
    ("rfc8785 appendix B numbers, all in one array", "[" + ",".join(double_text(h) for h, _ in APPENDIX_B) + "]"),
    ("empty object", "{}"),
    ("empty array", "[]"),
    ("null at top level", "null"),
    ("true at top level", "true"),
    ("false at top level", "false"),
    ("empty string at top level", '""'),
    ("insignificant whitespace everywhere", ' \n\t{ "b" :\r\n [ 1 , 2 ,\t3 ] ,\n "a" : { } } \n'),
    ("member order A", '{"path":"Notes/a.md","mode":"append","content":"x","dry_run":false}'),
    ("member order B gives the same text", '{"dry_run":false,"content":"x","mode":"append","path":"Notes/a.md"}'),
    ("nested objects are sorted at every level", '{"z":{"y":{"x":1,"w":2},"v":[{"b":1,"a":2}]},"a":0}'),
    ("supplementary-plane key sorts before U+E000 (UTF-16, not code point order)",
     '{"\\ue000":"private use","\\ud800\\udc00":"linear b","\\uffff":"max bmp","~":"tilde"}'),
    ("number-like keys sort as strings", '{"10":"ten","2":"two","1":"one","01":"zero-one","-1":"minus","1.5":"x","a":"a"}'),
    ("__proto__ is an ordinary member", '{"__proto__":{"polluted":true},"constructor":1,"a":2}'),
    ("duplicate keys: the last one wins", '{"a":1,"b":2,"a":3}'),
    ("every C0 control is escaped, the short forms where JSON has them",
     '"' + "".join("\\u%04x" % c for c in range(0x20)) + '"'),
    ("DEL, U+2028, U+2029, slash and non-ASCII stay literal", r'"\u007f\u2028\u2029\/é\u00e9"'),
    ("quotes and backslashes", r'"say \"hi\" \\ C:\\path\\ \\\\server"'),
    ("mixed scripts, combining marks and emoji", '{"ar":"مرحبا","he":"שלום","ja":"日本語のノート","hi":"नमस्ते","comb":"e\\u0301 Å a\\u030a","emoji":"👩‍👩‍👧‍👦🏳️‍🌈😀","zw":"a\\u200db"}'),
    ("injection-looking strings are data", '{"k\\"}],\\"x\\":[{":"\\"},{\\"evil\\":1}"}'),
    ("integers around 2^53 become doubles", "[9007199254740991,9007199254740992,9007199254740993,-9007199254740993,9007199254740995]"),
    ("64-bit and larger integers", "[18446744073709551615,-9223372036854775808,123456789012345678901234567890,123456789012345680000]"),
    ("negative zero and other zeros", "[-0,-0.0,0.0,0e10,-0E-5]"),
    ("plain decimal notation limits", "[1e20,1e21,123456789012345680000,1e-6,1e-7,0.000001234,1.5e-7,0.1,100e-2,1.0,1.5e3]"),
    ("extremes of the double range", "[5e-324,-5e-324,2.2250738585072014e-308,2.225073858507201e-308,1.7976931348623157e308]"),
    ("ties between two shortest candidates take the even digit", "[564884782883639.25,564884782883639.75,0.30000000000000004]"),
    ("powers of ten and their neighbours", "[1e23,9.999999999999999e22,1e-5,1e-323,1e308,10,100,1000000]"),
    ("500 random doubles from random bit patterns", random_doubles(500, 8785)),
    ("large object with random unicode keys and values", big_object(20240601)),
    ("deep nesting (100 levels)", deep(100)),
    ("long string", json.dumps("ab\"c\\\n" * 3000 + "é" * 1000, ensure_ascii=False)),
]

ARGS_CASES = [
    ("read_note with a path", "read_note", '{"path":"Notes/Daily/2024-05-01.md"}'),
    ("member order A", "write_note", '{"path":"a.md","content":"# Title\\n\\nBody","overwrite":true}'),
    ("member order B gives the same hash", "write_note", '{"overwrite":true,"content":"# Title\\n\\nBody","path":"a.md"}'),
    ("whitespace does not matter", "write_note", '{ "overwrite" : true ,\n "content" : "# Title\\n\\nBody" , "path" : "a.md" }'),
    ("the tool name is inside the hash", "append_note", '{"path":"a.md","content":"# Title\\n\\nBody","overwrite":true}'),
    ("empty arguments", "list_notes", "{}"),
    ("null arguments differ from empty", "list_notes", "null"),
    ("array arguments", "batch", '[1,"two",{"three":3}]'),
    ("string arguments", "echo", '"hello"'),
    ("1 and 1.0 are the same number", "set_limit", '{"limit":1.0}'),
    ("1 and 1.0 are the same number (integer form)", "set_limit", '{"limit":1}'),
    ("numbers in exponent form", "tune", '{"alpha":1e21,"beta":1e-7,"gamma":-0,"delta":0.1}'),
    ("nested search arguments", "search_notes",
     '{"query":"rust async","filters":{"tags":["#dev","#rust"],"folders":["Projects/"],"modified_after":"2024-01-01"},"limit":20,"semantic":true}'),
    ("unicode name and arguments", "ノート検索", '{"クエリ":"日本語","emoji":"🦀","comb":"e\\u0301"}'),
    ("empty tool name", "", "{}"),
    ("framing: a name holding a comma and quote", 'a","b', "null"),
    ("framing: the pair it must not collide with", "a", '"b"'),
    ("large arguments", "write_note", json.dumps({"path": "big.md", "content": "line\n" * 5000}, ensure_ascii=False)),
]


# Malformed inputs of the exports: typed `invalid_input` errors (written by hand).
CANONICAL_ERRORS = [
    ("missing value", "{}"),
    ("value absent, another field present", '{"other": 1}'),
]
ARGS_ERRORS = [
    ("tool name is not a string", '{"tool_name": 7, "args": {}}'),
    ("missing args", '{"tool_name": "read_note"}'),
    ("missing tool name", '{"args": {}}'),
]


def error_line(name, input_text):
    return '    {"name": %s, "input": %s, "error": "invalid_input"}' % (json.dumps(name), input_text)


def case_line(name, input_text, expected):
    return '    {"name": %s, "input": %s, "expected": %s}' % (
        json.dumps(name, ensure_ascii=False), input_text, json.dumps(expected, ensure_ascii=False))


def write(path, function, description, source, lines):
    text = '{\n  "function": %s,\n  "description": %s,\n  "expected_source": %s,\n  "cases": [\n%s\n  ]\n}\n' % (
        json.dumps(function), json.dumps(description), json.dumps(source), ",\n".join(lines))
    json.loads(text)  # the file must be valid JSON
    path.write_text(text, encoding="utf-8")
    print(f"{path.name}: {len(lines)} cases")


def main():
    for bits, text in APPENDIX_B:
        assert canonical(double_text(bits)) == text, (bits, text)
    assert canonical(RFC_3_2_2_IN) == RFC_3_2_2_OUT, canonical(RFC_3_2_2_IN)
    assert canonical(RFC_3_2_3_IN) == '{"\\r":"Carriage Return","1":"One","\u0080":"Control","ö":"Latin Small Letter O With Diaeresis","\u20ac":"Euro Sign","\U0001F600":"Emoji: Grinning Face","\ufb33":"Hebrew Letter Dalet With Dagesh"}'

    lines = [case_line(name, '{"value": %s}' % raw, canonical(raw)) for name, raw in CANONICAL_CASES]
    lines += [error_line(name, raw) for name, raw in CANONICAL_ERRORS]
    write(OUT / "hash_canonical_json.json", "canonical_json",
          "RFC 8785 canonical JSON: member order, whitespace, string escapes, ECMAScript number format, integers beyond 2^53 as doubles",
          "PyPI rfc8785 0.1.4 and jcs 0.2.1 (agreeing), RFC 8785 examples (tests/vectors/gen/hash_jcs.py)", lines)

    lines = []
    for name, tool, raw in ARGS_CASES:
        text = "[" + json.dumps(tool, ensure_ascii=False) + "," + raw + "]"
        expected = hashlib.sha256(canonical(text).encode("utf-8")).hexdigest()[:32]
        lines.append(case_line(name, '{"tool_name": %s, "args": %s}' % (json.dumps(tool, ensure_ascii=False), raw), expected))
    lines += [error_line(name, raw) for name, raw in ARGS_ERRORS]
    write(OUT / "hash_args_hash.json", "args_hash",
          "args_hash: first 32 hex of SHA-256 over the RFC 8785 canonical JSON of [tool_name, args]",
          "Python hashlib.sha256 over rfc8785/jcs canonical text (tests/vectors/gen/hash_jcs.py)", lines)


if __name__ == "__main__":
    main()

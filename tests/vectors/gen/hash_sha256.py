#!/usr/bin/env python3
"""Golden vectors for `sha256_hex` (tests/vectors/hash_sha256_hex.json).

Independent source: Python `hashlib.sha256` over the UTF-8 bytes of each text; the FIPS 180-2
example messages are also checked against the digests printed in the standard (Appendix B).
Lengths around the 55/56/64-byte padding boundaries exercise the one- and two-block cases.

Run from the repository root:  python3 tests/vectors/gen/hash_sha256.py
"""

import hashlib
import json
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "hash_sha256_hex.json"

FIPS_180 = [
    ("FIPS 180-2 B.1: abc", "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    ("FIPS 180-2 B.2: 448-bit message", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ("FIPS 180-2 B.3: one million 'a'", "a" * 1_000_000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"),
    ("empty message", "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("896-bit message", "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
]

OTHER = [(f"{n} bytes (padding boundary)", "x" * n) for n in (55, 56, 57, 63, 64, 65, 119, 120, 128)] + [
    ("Japanese text (UTF-8, 3 bytes per character)", "日本語のノート"),
    ("emoji ZWJ sequence (UTF-8, 4-byte characters)", "👩‍👩‍👧‍👦"),
    ("combining mark versus precomposed: decomposed", "e\u0301"),
    ("combining mark versus precomposed: precomposed", "\u00e9"),
    ("NUL and other controls", "\u0000\u0001\n\r\t\u007f"),
    ("a canonical JSON text", '["read_note",{"path":"a.md"}]'),
    ("the empty tool list of the bridge", "[]"),
]


def main():
    lines = []
    for name, text, digest in FIPS_180:
        got = hashlib.sha256(text.encode("utf-8")).hexdigest()
        assert got == digest, (name, got)
        lines.append((name, text, got))
    for name, text in OTHER:
        lines.append((name, text, hashlib.sha256(text.encode("utf-8")).hexdigest()))
    errors = [("text is not a string", '{"text": 5}'), ("missing text", "{}"), ("text is null", '{"text": null}')]
    cases = ",\n".join(
        '    {"name": %s, "input": {"text": %s}, "expected": %s}'
        % (json.dumps(name, ensure_ascii=False), json.dumps(text, ensure_ascii=False), json.dumps(digest))
        for name, text, digest in lines)
    cases += "".join(',\n    {"name": %s, "input": %s, "error": "invalid_input"}' % (json.dumps(name), raw) for name, raw in errors)
    text = ('{\n  "function": "sha256_hex",\n  "description": "SHA-256 of the UTF-8 bytes of a string, lowercase hex",\n'
            '  "expected_source": "Python hashlib; FIPS 180-2 examples checked against the standard (tests/vectors/gen/hash_sha256.py)",\n'
            '  "cases": [\n%s\n  ]\n}\n' % cases)
    json.loads(text)
    OUT.write_text(text, encoding="utf-8")
    print(f"{OUT.name}: {len(lines) + len(errors)} cases")


if __name__ == "__main__":
    main()

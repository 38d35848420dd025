"""Helpers for the markdown vector generators (markdown_extract.py, markdown_chunk.py).

Independent source: none exists for Obsidian's parser outside Obsidian, so every expected
item (which links, tags, headings ... an input yields, and each field) is written by hand in
the generators after reasoning about the input. These helpers only do bookkeeping that is
easy to get wrong by hand and owes nothing to the Rust code:
- a span is given as the exact text it covers (and which occurrence); its byte offsets come
  from Python's bytes.find on the UTF-8 input;
- line and byte column come from counting b"\\n" before the offset;
- lists a case does not mention are filled with [] and absent options with null.
The Rust implementation is never run by these scripts.
"""

import json


class Case:
    """One input text and the hand-written items expected from it."""

    def __init__(self, name, text):
        self.name = name
        self.text = text
        self.bytes = text.encode("utf-8")

    def span(self, needle, nth=0, after=None):
        """Byte range of the nth occurrence of needle (searching from the end of the first
        occurrence of `after`, when given)."""
        start = 0
        if after is not None:
            first = self.bytes.find(after.encode("utf-8"))
            assert first >= 0, (self.name, after)
            start = first + len(after.encode("utf-8"))
        raw = needle.encode("utf-8")
        at = self.bytes.find(raw, start)
        for _ in range(nth):
            at = self.bytes.find(raw, at + 1)
        assert at >= 0, (self.name, needle, nth)
        return at, at + len(raw)

    def loc(self, offset):
        line = self.bytes.count(b"\n", 0, offset)
        line_start = self.bytes.rfind(b"\n", 0, offset) + 1
        return {"line": line, "col": offset - line_start, "offset": offset}

    def pos(self, start, end):
        return {"start": self.loc(start), "end": self.loc(end)}

    def line_start(self, line):
        at = 0
        for _ in range(line):
            at = self.bytes.index(b"\n", at) + 1
        return at

    def line_end(self, line):
        """End of a line's content: before its \\n, and before a \\r preceding that \\n."""
        start = self.line_start(line)
        newline = self.bytes.find(b"\n", start)
        end = len(self.bytes) if newline < 0 else newline
        if newline >= 0 and end > start and self.bytes[end - 1:end] == b"\r":
            end -= 1
        return end

    def lines(self, first, last, col=0):
        """From column `col` of line `first` to the end of line `last`."""
        return self.pos(self.line_start(first) + col, self.line_end(last))

    def text_pos(self, needle, nth=0, after=None):
        return self.pos(*self.span(needle, nth, after))


def write(path, function, description, expected_source, cases):
    doc = {
        "function": function,
        "description": description,
        "expected_source": expected_source,
        "cases": cases,
    }
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), "case names must be unique"
    with open(path, "w", encoding="utf-8") as out:
        out.write("{\n")
        out.write(f'  "function": {json.dumps(function)},\n')
        out.write(f'  "description": {json.dumps(description, ensure_ascii=False)},\n')
        out.write(f'  "expected_source": {json.dumps(expected_source, ensure_ascii=False)},\n')
        out.write('  "cases": [\n')
        out.write(",\n".join("    " + json.dumps(c, ensure_ascii=False) for c in cases))
        out.write("\n  ]\n}\n")

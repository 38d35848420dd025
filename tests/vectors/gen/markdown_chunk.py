"""Writes tests/vectors/markdown_chunk.json (export `chunk_markdown`).

Expected chunks are written by hand below, following the chunking rules of the original
(shared/reference/obsidian-tc-v1.md section 5.5) as documented in
engine-core/src/markdown/chunk.rs: split at headings (never inside code), breadcrumb root
first, over-budget sections split between blocks, over-budget blocks hard-split on grapheme
boundaries, tokens = ceil(chars / chars_per_token), chunks trimmed, frontmatter left out.
The mechanical parts (markdown_common.py): a chunk's byte range is found with bytes.find on
its hand-written text, and `tokens` is that formula applied to the hand-written text.
Run: python3 tests/vectors/gen/markdown_chunk.py
"""

import math
import os

from markdown_common import Case, write

CASES = []


class Chunks:
    """The chunks of one case, numbered in order."""

    def __init__(self, c, chars_per_token=4):
        self.c = c
        self.chars_per_token = chars_per_token
        self.list = []

    def add(self, text, headings, section, part=0, nth=0, after=None):
        start, end = self.c.span(text, nth, after)
        self.list.append({
            "index": len(self.list),
            "section": section,
            "part": part,
            "headings": headings,
            "range": {"start": start, "end": end},
            "text": text,
            "tokens": math.ceil(len(text) / self.chars_per_token),
        })
        return self


def case(c, chunks, **options):
    given = {"text": c.text}
    given.update(options)
    CASES.append({"name": c.name, "input": given, "expected": {"chunks": chunks.list if chunks else []}})


def error(name, given, code):
    CASES.append({"name": name, "input": given, "error": code})


# --- nothing to chunk --------------------------------------------------------------------

c = Case("empty note", "")
case(c, None)

c = Case("whitespace only", "  \n\n\t")
case(c, None)

c = Case("frontmatter only", "---\na: 1\n---\n")
case(c, None)

# --- headings and breadcrumbs ------------------------------------------------------------

c = Case("one paragraph without a heading", "Hello world")
case(c, Chunks(c).add("Hello world", [], 0))

c = Case("headings make a breadcrumb, root first", "intro\n# A\ntext a\n## B\ntext b\n### C\nc\n## D\nd\n# E\ne")
case(c, Chunks(c)
     .add("intro", [], 0)
     .add("# A\ntext a", ["A"], 1)
     .add("## B\ntext b", ["A", "B"], 2)
     .add("### C\nc", ["A", "B", "C"], 3)
     .add("## D\nd", ["A", "D"], 4)
     .add("# E\ne", ["E"], 5))

c = Case("skipped heading levels", "# A\n### C\n## B\nx")
case(c, Chunks(c).add("# A", ["A"], 0).add("### C", ["A", "C"], 1).add("## B\nx", ["A", "B"], 2))

c = Case("a # inside a code fence does not split", "# A\n```\n# not\n```\nafter")
case(c, Chunks(c).add("# A\n```\n# not\n```\nafter", ["A"], 0))

c = Case("setext headings split too", "Title\n===\nbody\n\nSub\n---\nmore")
case(c, Chunks(c).add("Title\n===\nbody", ["Title"], 0).add("Sub\n---\nmore", ["Title", "Sub"], 1))

c = Case("frontmatter is left out", "---\ntitle: x\n---\n\n# H\nbody")
case(c, Chunks(c).add("# H\nbody", ["H"], 0))

c = Case("a heading inside a callout does not split", "# A\n> [!note]\n> # inner\ntext")
case(c, Chunks(c).add("# A\n> [!note]\n> # inner\ntext", ["A"], 0))

c = Case("a heading inside a comment does not split", "# A\n%%\n# hidden\n%%\nx")
case(c, Chunks(c).add("# A\n%%\n# hidden\n%%\nx", ["A"], 0))

c = Case("heading-only sections", "# A\n## B\n## C")
case(c, Chunks(c).add("# A", ["A"], 0).add("## B", ["A", "B"], 1).add("## C", ["A", "C"], 2))

c = Case("headings with markup keep their text", "# Plan [[Q3]] #work\nx")
case(c, Chunks(c).add("# Plan [[Q3]] #work\nx", ["Plan [[Q3]] #work"], 0))

# --- budget ------------------------------------------------------------------------------

c = Case("over budget: split between paragraphs", "aaaa\n\nbbbb\n\ncccc")
case(c, Chunks(c).add("aaaa\n\nbbbb", [], 0, 0).add("cccc", [], 0, 1), max_tokens=3, chars_per_token=4)

c = Case("an over-budget paragraph is hard-split", "abcdefghijklmnopqrst")
case(c, Chunks(c).add("abcdefgh", [], 0, 0).add("ijklmnop", [], 0, 1).add("qrst", [], 0, 2),
     max_tokens=2, chars_per_token=4)

c = Case("a hard split never cuts a grapheme", "e\u0301e\u0301e\u0301")
case(c, Chunks(c, 2).add("e\u0301", [], 0, 0).add("e\u0301", [], 0, 1, nth=1).add("e\u0301", [], 0, 2, nth=2),
     max_tokens=1, chars_per_token=2)

c = Case("a grapheme longer than the budget is cut between chars", "e\u0301\u0301\u0301")
case(c, Chunks(c, 2).add("e\u0301", [], 0, 0).add("\u0301\u0301", [], 0, 1, after="e\u0301"),
     max_tokens=1, chars_per_token=2)

family = "\U0001F468\u200d\U0001F469\u200d\U0001F467\u200d\U0001F466"
c = Case("an emoji family stays whole", family + " " + family)
case(c, Chunks(c).add(family, [], 0, 0).add(family, [], 0, 1, nth=1), max_tokens=2, chars_per_token=4)

c = Case("chars_per_token changes the estimate", "abc def\n\nghi")
case(c, Chunks(c, 1).add("abc", [], 0, 0).add("def", [], 0, 1).add("ghi", [], 0, 2), max_tokens=4, chars_per_token=1)

c = Case("a list is split between its top-level items", "- one\n  - sub\n- two\n- three")
case(c, Chunks(c).add("- one\n  - sub", [], 0, 0).add("- two\n- three", [], 0, 1), max_tokens=4, chars_per_token=4)

c = Case("sections count only those with chunks and parts restart", "# A\n\n# B\naaaa\n\nbbbb")
case(c, Chunks(c).add("# A", ["A"], 0).add("# B\naaaa", ["B"], 1, 0).add("bbbb", ["B"], 1, 1),
     max_tokens=2, chars_per_token=4)

c = Case("an over-budget heading is hard-split under its breadcrumb", "# Long heading")
case(c, Chunks(c)
     .add("# Lo", ["Long heading"], 0, 0)
     .add("ng h", ["Long heading"], 0, 1)
     .add("eadi", ["Long heading"], 0, 2)
     .add("ng", ["Long heading"], 0, 3, after="eadi"),
     max_tokens=1, chars_per_token=4)

c = Case("blank lines inside a code fence are not split points", "```\na\n\nb\n```\n\nafter text here")
case(c, Chunks(c).add("```\na\n\nb\n```", [], 0, 0).add("after text here", [], 0, 1), max_tokens=4, chars_per_token=4)

c = Case("the default budget keeps 1999 chars together", ("abcd " * 400).strip())
case(c, Chunks(c).add(("abcd " * 400).strip(), [], 0))

c = Case("the default budget splits after 2048 chars", "x" * 2049)
case(c, Chunks(c).add("x" * 2048, [], 0, 0).add("x", [], 0, 1, after="x" * 2048))

# --- line endings, BOM, scripts ----------------------------------------------------------

c = Case("CRLF line endings are trimmed from chunk ends", "# A\r\nx\r\n# B\r\ny\r\n")
case(c, Chunks(c).add("# A\r\nx", ["A"], 0).add("# B\r\ny", ["B"], 1))

c = Case("a byte order mark is not chunk text", "\ufeffHello")
case(c, Chunks(c).add("Hello", [], 0))

c = Case("ranges are byte offsets in UTF-8", "# Été\nçà\n# 日本\n語")
case(c, Chunks(c).add("# Été\nçà", ["Été"], 0).add("# 日本\n語", ["日本"], 1))

# --- invalid options ---------------------------------------------------------------------

error("max_tokens 0 is invalid", {"text": "a", "max_tokens": 0}, "invalid_input")
error("chars_per_token 0 is invalid", {"text": "a", "chars_per_token": 0}, "invalid_input")
error("a negative max_tokens is invalid", {"text": "a", "max_tokens": -1}, "invalid_input")
error("an unknown option is invalid", {"text": "a", "overlap": 10}, "invalid_input")
error("missing text is invalid", {"max_tokens": 10}, "invalid_input")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    write(
        os.path.join(here, "..", "markdown_chunk.json"),
        "chunk_markdown",
        "Chunking by headings under a token budget: breadcrumbs, code and comments not split, "
        "frontmatter left out, splits between blocks then on grapheme boundaries, options and errors",
        "written by hand (tests/vectors/gen/markdown_chunk.py; ranges via Python bytes.find, "
        "tokens = ceil(chars / chars_per_token) of the hand-written text)",
        CASES,
    )
    print(len(CASES), "cases")

#!/usr/bin/env python3
"""Writes tests/vectors/acl_glob_match.json.

Independent source: every expected value below is written by hand; this script then checks
each one against a second implementation of the documented glob semantics (engine-core
src/acl/glob/mod.rs) written here as a translation to a Python `re` regular expression,
anchored with `fullmatch`, with `re.IGNORECASE` for the case-insensitive cases and Python's
`unicodedata` NFC. Cases whose regex would backtrack for too long in Python (`check: False`)
are checked by hand only; the reason is noted next to them. Run from the repository root:

    python3 tests/vectors/gen/acl_glob.py
"""

import json
import re
import unicodedata
from pathlib import Path

MAX_GLOB_BYTES = 1024


def is_globstar(segment):
    return len(segment) >= 2 and set(segment) == {"*"}


def class_regex(chars, i):
    """Translates the class whose '[' is at chars[i]; returns (regex, index after ']')."""
    j = i + 1
    negated = j < len(chars) and chars[j] in "!^"
    if negated:
        j += 1
    items = []
    first = True
    while True:
        if j >= len(chars):
            raise ValueError("unclosed_class")
        if chars[j] == "]" and not first:
            break
        first = False
        lo, j = class_char(chars, j)
        if j + 1 < len(chars) and chars[j] == "-" and chars[j + 1] != "]":
            hi, j = class_char(chars, j + 1)
            if hi < lo:
                raise ValueError("invalid_range")
            items.append(re.escape(lo) + "-" + re.escape(hi))
        else:
            items.append(re.escape(lo))
    body = "".join(items)
    return ("[^/" + body + "]" if negated else "[" + body + "]"), j + 1


def class_char(chars, j):
    if chars[j] == "\\":
        if j + 1 >= len(chars):
            raise ValueError("dangling_escape")
        return chars[j + 1], j + 2
    return chars[j], j + 1


def segment_regex(segment):
    chars = list(segment)
    out = []
    i = 0
    while i < len(chars):
        c = chars[i]
        if c == "*":
            run = 0
            while i + run < len(chars) and chars[i + run] == "*":
                run += 1
            out.append("[^/]*" if run == 1 else ".*")
            i += run
        elif c == "?":
            out.append("[^/]")
            i += 1
        elif c == "[":
            piece, i = class_regex(chars, i)
            out.append(piece)
        elif c == "\\":
            if i + 1 >= len(chars):
                raise ValueError("dangling_escape")
            out.append(re.escape(chars[i + 1]))
            i += 2
        else:
            out.append(re.escape(c))
            i += 1
    return "".join(out)


def glob_regex(pattern):
    """The documented glob semantics as a Python regex (raises ValueError on a bad glob)."""
    if pattern == "":
        raise ValueError("empty")
    pattern = unicodedata.normalize("NFC", pattern)
    if len(pattern.encode()) > MAX_GLOB_BYTES:
        raise ValueError("too_long")
    if any(unicodedata.category(c) == "Cc" for c in pattern):
        raise ValueError("control_character")
    if pattern.startswith("/"):
        raise ValueError("leading_slash")
    segments = pattern.split("/")
    if "" in segments:
        raise ValueError("empty_segment")
    if "." in segments or ".." in segments:
        raise ValueError("dot_segment")
    kept = []
    for s in segments:
        if not (is_globstar(s) and kept and is_globstar(kept[-1])):
            kept.append(s)
    # Build "segment (separator segment)*" where a globstar segment absorbs separators.
    out = ""
    last = len(kept) - 1
    for k, s in enumerate(kept):
        if is_globstar(s):
            if k == last and k == 0:
                out += ".*"
            elif k == last:
                out = out[: -len(re.escape("/"))] + "(?:/.*)?"  # 'a/**' also matches 'a'
            else:
                out += "(?:.*/)?"
            continue
        out += segment_regex(s)
        if k != last:
            out += re.escape("/")
    return out


def reference_match(pattern, path, case_insensitive):
    flags = re.DOTALL | (re.IGNORECASE if case_insensitive else 0)
    regex = re.compile(glob_regex(pattern), flags)
    return regex.fullmatch(unicodedata.normalize("NFC", path)) is not None


# (name, pattern, path, case_insensitive, expected matched or error reason, check)
T, F = True, False
CASES = [
    ("star within a segment", "*.md", "note.md", F, T, T),
    ("star does not cross a slash", "*.md", "folder/note.md", F, F, T),
    ("star matches a dotfile name", "*.md", ".md", F, T, T),
    ("star matches the empty path", "*", "", F, T, T),
    ("star as a middle segment", "a/*/c", "a/b/c", F, T, T),
    ("star segment is one level only", "a/*/c", "a/b/x/c", F, F, T),
    ("star matches an empty segment of a raw path", "a/*/c", "a//c", F, T, T),
    ("globstar alone matches a deep path", "**", "a/b/c.md", F, T, T),
    ("globstar matches dot folders too", "**", ".obsidian/app.json", F, T, T),
    ("leading globstar matches zero directories", "**/b.md", "b.md", F, T, T),
    ("leading globstar matches several directories", "**/b.md", "x/y/b.md", F, T, T),
    ("leading globstar needs a separator", "**/b.md", "xb.md", F, F, T),
    ("middle globstar matches zero directories", "a/**/b", "a/b", F, T, T),
    ("middle globstar matches several directories", "a/**/b", "a/x/y/z/b", F, T, T),
    ("middle globstar keeps segment boundaries", "a/**/b", "a/xb", F, F, T),
    ("trailing globstar matches the folder itself", "Daily/**", "Daily", F, T, T),
    ("trailing globstar matches everything under", "Daily/**", "Daily/2024/01.md", F, T, T),
    ("trailing globstar is not a name prefix", "Daily/**", "DailyNotes/x.md", F, F, T),
    ("globs are anchored at the vault root", "Daily/**", "Archive/Daily/x.md", F, F, T),
    ("double star inside a segment crosses slashes", "a**", "a/b/c", F, T, T),
    ("double star extension at any depth", "**.md", "x/y/z.md", F, T, T),
    ("double star extension is anchored at the end", "**.md", "x/y/z.mdx", F, F, T),
    ("repeated globstar segments collapse", "a/**/**/b", "a/b", F, T, T),
    ("two globstar segments match one segment", "**/**", "a", F, T, T),
    ("trailing double globstar matches the folder", "a/**/**", "a", F, T, T),
    ("question mark is one character", "?.md", "a.md", F, T, T),
    ("question mark is exactly one character", "?.md", "ab.md", F, F, T),
    ("question mark never matches a slash", "a?b", "a/b", F, F, T),
    ("question mark is one code point (emoji)", "?", "\U0001F9E0", F, T, T),
    ("question mark sees NFC: e + combining acute is one character", "?", "e\u0301", F, T, T),
    ("class member", "[abc].md", "b.md", F, T, T),
    ("class range excludes", "[a-c].md", "d.md", F, F, T),
    ("negated class with bang", "[!a-c].md", "d.md", F, T, T),
    ("negated class with caret", "[^a-c].md", "a.md", F, F, T),
    ("bracket first in a class is literal", "[]]", "]", F, T, T),
    ("dash last in a class is literal", "[a-]", "-", F, T, T),
    ("negated class never matches a slash", "x[!a]y", "x/y", F, F, T),
    ("escaped star is literal", "\\*.md", "*.md", F, T, T),
    ("escaped star is not a wildcard", "\\*.md", "a.md", F, F, T),
    ("escaped brackets", "\\[draft\\] *", "[draft] note", F, T, T),
    ("case-sensitive by default", "Notes/*.md", "notes/a.MD", F, F, T),
    ("case-insensitive mode", "Notes/*.md", "notes/a.MD", T, T, T),
    ("case-insensitive uppercase range", "[A-Z]*", "q", T, T, T),
    ("case-insensitive non-ASCII letters", "\u00c9T\u00c9/**", "\u00e9t\u00e9/x.md", T, T, T),
    ("case-insensitive long s folds to s", ".trash/**", ".TRA\u017fH/x", T, T, T),
    ("case-insensitive Cyrillic", "\u0416\u0443\u0440\u043d\u0430\u043b/*", "\u0436\u0443\u0440\u043d\u0430\u043b/x", T, T, T),
    ("NFC pattern matches an NFD path", "Caf\u00e9/**", "Cafe\u0301/x.md", F, T, T),
    ("NFD pattern matches an NFC path", "Cafe\u0301/**", "Caf\u00e9/x.md", F, T, T),
    ("CJK names", "\u65e5\u672c/*.md", "\u65e5\u672c/\u30e1\u30e2.md", F, T, T),
    ("emoji names", "\U0001F9E0 *", "\U0001F9E0 brain.md", F, T, T),
    ("percent-encoding is literal", "%2e%2e/*", "%2e%2e/x", F, T, T),
    ("percent-encoding is not decoded", "../*".replace("..", "%2e%2e"), "../x", F, F, T),
    # Python's backtracking regex takes polynomial time of a high degree on these; the
    # answers are plain: no 'b' anywhere, so no match; a pattern ending in '*' after five
    # 'a's matches any run of at least five 'a's.
    ("pathological stars without the final b", "*a*a*a*a*a*b", "a" * 5000, F, F, F),
    ("pathological stars that match", "*a*a*a*a*a*", "a" * 5000, F, T, F),
    ("pathological globstars against a deep path", "**/a/**/a/**/a/**/c", "a/" * 500 + "b", F, F, F),
    ("subtree of 1000 segments", "a/**", "/".join(["a"] * 1000), F, T, T),
    ("empty pattern", "", "a", F, "empty", T),
    ("absolute pattern", "/abs/**", "abs/x", F, "leading_slash", T),
    ("empty segment in a pattern", "a//b", "a/b", F, "empty_segment", T),
    ("trailing slash in a pattern", "a/", "a", F, "empty_segment", T),
    ("dot-dot segment in a pattern", "../x", "x", F, "dot_segment", T),
    ("unclosed class", "[abc", "a", F, "unclosed_class", T),
    ("backwards range", "[z-a]", "a", F, "invalid_range", T),
    ("dangling escape", "a\\", "a", F, "dangling_escape", T),
    ("NUL in a pattern", "a\u0000b", "a", F, "control_character", T),
    ("pattern over 1024 bytes", "a" * 1025, "a", F, "too_long", T),
]


def main():
    out = []
    for name, pattern, path, ci, expected, check in CASES:
        if isinstance(expected, str):
            try:
                glob_regex(pattern)
            except ValueError as e:
                assert str(e) == expected, f"{name}: reference says {e}, hand says {expected}"
            else:
                raise AssertionError(f"{name}: reference compiles a pattern the hand says is bad")
        elif check:
            got = reference_match(pattern, path, ci)
            assert got == expected, f"{name}: reference {got}, hand {expected}"
        case = {"name": name, "input": {"pattern": pattern, "path": path}}
        if ci:
            case["input"]["case_insensitive"] = True
        if isinstance(expected, str):
            case["error"] = "invalid_glob"
        else:
            case["expected"] = {"matched": expected}
        out.append(case)
    doc = {
        "function": "glob_match",
        "description": "Glob matching: *, ** (whole-segment globstar and inside a segment), ?, classes, "
        "escapes, case modes, NFC, adversarial patterns; invalid patterns.",
        "expected_source": "hand, each checked against a Python re translation of the documented "
        "semantics (tests/vectors/gen/acl_glob.py); the three pathological cases by hand only",
        "cases": out,
    }
    target = Path(__file__).resolve().parents[1] / "acl_glob_match.json"
    target.write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(out)} cases to {target}")


if __name__ == "__main__":
    main()

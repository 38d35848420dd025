"""Writes tests/vectors/markdown_extract.json (export `extract_markdown`).

Expected values are written by hand below, after reasoning about each input against
Obsidian's documented behaviour (help.obsidian.md: Tags, Internal links, Callouts, Basic
formatting syntax) and the choices documented in engine-core/src/markdown. See
markdown_common.py for the only mechanical parts: byte offsets from bytes.find and line/col
from counting newlines. Run: python3 tests/vectors/gen/markdown_extract.py
"""

import os

from markdown_common import Case, write

CASES = []


def H(*headings):
    return {"kind": "heading", "headings": list(headings)}


def B(block_id):
    return {"kind": "block", "id": block_id}


def link(c, original, target, path, sub=None, display=None, nth=0, after=None, syntax="wikilink"):
    return {
        "syntax": syntax,
        "link": target,
        "original": original,
        "display_text": display,
        "path": path,
        "subpath": sub,
        "position": c.text_pos(original, nth, after),
    }


def md(c, original, target, path, sub=None, display=None, nth=0, after=None):
    return link(c, original, target, path, sub, display, nth, after, syntax="markdown")


def ext(c, original, url, display=None, embed=False, nth=0):
    return {"url": url, "original": original, "display_text": display, "embed": embed, "position": c.text_pos(original, nth)}


def tag(c, text, key, nth=0, after=None):
    return {"tag": text, "key": key, "position": c.text_pos(text, nth, after)}


def blk(c, block_id, nth=0):
    return {"id": block_id, "position": c.text_pos("^" + block_id, nth)}


def head(c, level, heading, first, last=None, col=0):
    return {"heading": heading, "level": level, "position": c.lines(first, first if last is None else last, col)}


def item(c, marker, task, text, parent, first, col=0, last=None, block_id=None):
    return {
        "marker": marker,
        "task": task,
        "text": text,
        "parent": parent,
        "id": block_id,
        "position": c.lines(first, first if last is None else last, col),
    }


def callout(c, kind, title, depth, first, last, fold=None, metadata=None):
    return {
        "callout_type": kind,
        "metadata": metadata,
        "fold": fold,
        "title": title,
        "depth": depth,
        "position": c.lines(first, last),
    }


def sec(c, kind, first, last=None, col=0):
    return {"type": kind, "position": c.lines(first, first if last is None else last, col)}


def frontmatter(c, yaml, close_line, body_start_text=None, col=0):
    start, end = c.span(yaml) if yaml else (c.line_start(1), c.line_start(1))
    body = len(c.bytes) if body_start_text is None else c.span(body_start_text)[0]
    return {
        "yaml": yaml,
        "yaml_range": {"start": start, "end": end},
        "body_start": body,
        "position": c.lines(0, close_line, col),
    }


FIELDS = ["headings", "links", "embeds", "external_links", "tags", "blocks", "list_items", "callouts", "sections"]


def add(c, frontmatter=None, **items):
    assert set(items) <= set(FIELDS), set(items) - set(FIELDS)
    expected = {"frontmatter": frontmatter}
    expected.update({field: items.get(field, []) for field in FIELDS})
    CASES.append({"name": c.name, "input": {"text": c.text}, "expected": expected})


def error(name, given, code):
    CASES.append({"name": name, "input": given, "error": code})


def P(c, first=0, last=None):
    """The one paragraph section most cases have."""
    return [sec(c, "paragraph", first, last)]


# --- empty and plain input -------------------------------------------------------------

c = Case("empty input", "")
add(c)

c = Case("only whitespace and blank lines", " \n\t\n  ")
add(c)

c = Case("a plain paragraph", "Hello world")
add(c, sections=P(c))

# --- wikilinks ---------------------------------------------------------------------------

c = Case("wikilink", "See [[Note]] now")
add(c, links=[link(c, "[[Note]]", "Note", "Note")], sections=P(c))

c = Case("wikilink with heading and alias", "[[Note#Part|the part]]")
add(c, links=[link(c, "[[Note#Part|the part]]", "Note#Part", "Note", H("Part"), "the part")], sections=P(c))

c = Case("alias keeps every later pipe", "[[a|b|c]]")
add(c, links=[link(c, "[[a|b|c]]", "a", "a", None, "b|c")], sections=P(c))

c = Case("same-note heading link", "[[#Heading One]]")
add(c, links=[link(c, "[[#Heading One]]", "#Heading One", "", H("Heading One"))], sections=P(c))

c = Case("same-note block link", "[[#^abc-1]]")
add(c, links=[link(c, "[[#^abc-1]]", "#^abc-1", "", B("abc-1"))], sections=P(c))

c = Case("block reference with alias", "[[Daily/2024-01-01#^37066d|quote]]")
add(c, links=[link(c, "[[Daily/2024-01-01#^37066d|quote]]", "Daily/2024-01-01#^37066d", "Daily/2024-01-01", B("37066d"), "quote")], sections=P(c))

c = Case("caret without hash is part of the file name", "[[^block]]")
add(c, links=[link(c, "[[^block]]", "^block", "^block")], sections=P(c))

c = Case("heading chain", "[[a#b#c]]")
add(c, links=[link(c, "[[a#b#c]]", "a#b#c", "a", H("b", "c"))], sections=P(c))

c = Case("empty subpath parts are dropped", "[[a#]] [[b##c]]")
add(c, links=[link(c, "[[a#]]", "a#", "a"), link(c, "[[b##c]]", "b##c", "b", H("c"))], sections=P(c))

c = Case("image embed with size", "![[image.png|100x200]]")
add(c, embeds=[link(c, "![[image.png|100x200]]", "image.png", "image.png", None, "100x200")], sections=P(c))

c = Case("note embed with heading and a PDF page", "![[Note#Section]] ![[doc.pdf#page=3]]")
add(c, embeds=[
    link(c, "![[Note#Section]]", "Note#Section", "Note", H("Section")),
    link(c, "![[doc.pdf#page=3]]", "doc.pdf#page=3", "doc.pdf", H("page=3")),
], sections=P(c))

c = Case("unclosed wikilink", "[[not closed and [single] text")
add(c, sections=P(c))

c = Case("closing brackets without opening", "text ]] and ]]")
add(c, sections=P(c))

c = Case("nested opening brackets: the inner link wins", "[[a [[b]] c]]")
add(c, links=[link(c, "[[b]]", "b", "b")], sections=P(c))

c = Case("escaped brackets are text", "\\[[not a link]] and \\[\\[also not\\]\\]")
add(c, sections=P(c))

c = Case("blank wikilinks are not links", "[[ ]] [[|alias]] [[]]")
add(c, sections=P(c))

c = Case("escaped pipe in a table cell", "| a | b |\n|---|---|\n| [[Note\\|alias]] | x |")
add(c, links=[link(c, "[[Note\\|alias]]", "Note", "Note", None, "alias")], sections=[sec(c, "table", 0, 2)])

# --- markdown links ----------------------------------------------------------------------

c = Case("markdown link to a note", "[text](note.md)")
add(c, links=[md(c, "[text](note.md)", "note.md", "note.md", None, "text")], sections=P(c))

c = Case("percent-encoded destination", "[My Note](My%20Note.md)")
add(c, links=[md(c, "[My Note](My%20Note.md)", "My Note.md", "My Note.md", None, "My Note")], sections=P(c))

c = Case("angle-bracket destination with spaces", "[x](<My Note.md>)")
add(c, links=[md(c, "[x](<My Note.md>)", "My Note.md", "My Note.md", None, "x")], sections=P(c))

c = Case("markdown link with encoded anchor", "[t](Folder/A%20B.md#Head%20One)")
add(c, links=[md(c, "[t](Folder/A%20B.md#Head%20One)", "Folder/A B.md#Head One", "Folder/A B.md", H("Head One"), "t")], sections=P(c))

c = Case("markdown link to a heading of the same note", "[up](#Top)")
add(c, links=[md(c, "[up](#Top)", "#Top", "", H("Top"), "up")], sections=P(c))

c = Case("markdown link with a title", "[a](b.md \"Title\")")
add(c, links=[md(c, "[a](b.md \"Title\")", "b.md", "b.md", None, "a")], sections=P(c))

c = Case("local markdown image is an embed", "![alt text](img/a.png)")
add(c, embeds=[md(c, "![alt text](img/a.png)", "img/a.png", "img/a.png", None, "alt text")], sections=P(c))

c = Case("external links are kept apart", "[Obsidian](https://obsidian.md) and ![pic](https://x.org/p.png)")
add(c, external_links=[
    ext(c, "[Obsidian](https://obsidian.md)", "https://obsidian.md", "Obsidian"),
    ext(c, "![pic](https://x.org/p.png)", "https://x.org/p.png", "pic", embed=True),
], sections=P(c))

c = Case("autolinks and other URI schemes", "<https://example.com/a?b=1#c> [m](mailto:me@x.org) [o](obsidian://open?vault=V&file=N)")
add(c, external_links=[
    ext(c, "<https://example.com/a?b=1#c>", "https://example.com/a?b=1#c"),
    ext(c, "[m](mailto:me@x.org)", "mailto:me@x.org", "m"),
    ext(c, "[o](obsidian://open?vault=V&file=N)", "obsidian://open?vault=V&file=N", "o"),
], sections=P(c))

c = Case("a tag in link text counts, the destination does not", "[see #topic](page.md#anchor)")
add(c,
    links=[md(c, "[see #topic](page.md#anchor)", "page.md#anchor", "page.md", H("anchor"), "see #topic")],
    tags=[tag(c, "#topic", "topic")],
    sections=P(c))

c = Case("image inside a link", "[![logo](logo.png)](Home.md)")
add(c,
    links=[md(c, "[![logo](logo.png)](Home.md)", "Home.md", "Home.md", None, "![logo](logo.png)")],
    embeds=[md(c, "![logo](logo.png)", "logo.png", "logo.png", None, "logo")],
    sections=P(c))

# --- code, comments, math: nothing inside is read ------------------------------------------

c = Case("links in inline code are not links", "`[[a]]` ``[[b]] ` [[c]]`` [[d]]")
add(c, links=[link(c, "[[d]]", "d", "d")], sections=P(c))

c = Case("links in fenced code are not links", "```md\n[[a]] #tag\n```\n~~~\n![[b]]\n~~~\n[[c]]")
add(c, links=[link(c, "[[c]]", "c", "c")], sections=[sec(c, "code", 0, 2), sec(c, "code", 3, 5), sec(c, "paragraph", 6)])

c = Case("a fence closes only with the same character, at least as long", "````\n```\n[[a]]\n~~~~\n````\n[[b]]")
add(c, links=[link(c, "[[b]]", "b", "b")], sections=[sec(c, "code", 0, 4), sec(c, "paragraph", 5)])

c = Case("an unclosed fence runs to the end", "[[a]]\n```js\n[[b]]\n# not a heading")
add(c, links=[link(c, "[[a]]", "a", "a")], sections=[sec(c, "paragraph", 0), sec(c, "code", 1, 3)])

c = Case("inline comments hide links and tags", "a %%[[x]] #y%% b [[z]] %% #w %%")
add(c, links=[link(c, "[[z]]", "z", "z")], sections=P(c))

c = Case("a multi-line comment hides headings and links", "%%\n# Hidden\n[[x]]\n%%\n# Shown")
add(c, headings=[head(c, 1, "Shown", 4)], sections=[sec(c, "comment", 0, 3), sec(c, "heading", 4)])

c = Case("an unclosed comment runs to the end", "[[a]] %% open\n[[b]]\n#c")
add(c, links=[link(c, "[[a]]", "a", "a")], sections=[sec(c, "paragraph", 0, 2)])

c = Case("html comments hide what they contain", "<!-- [[a]] -->[[b]]\n<!--\n#x\n-->\n#y")
add(c,
    links=[link(c, "[[b]]", "b", "b")],
    tags=[tag(c, "#y", "y")],
    sections=[sec(c, "html", 0, 4)])

c = Case("math is not read", "$x #a$ and $$[[b]]$$ and #c\n$$\n#d [[e]]\n$$")
add(c, tags=[tag(c, "#c", "c")], sections=[sec(c, "paragraph", 0, 3)])

c = Case("an unclosed $$ is text", "costs $$ #a")
add(c, tags=[tag(c, "#a", "a")], sections=P(c))

c = Case("dollar amounts are not math", "pay $5 and $10 #ok")
add(c, tags=[tag(c, "#ok", "ok")], sections=P(c))

c = Case("html blocks hide their content", "<div>\n[[a]] #b\n</div>\n\n[[c]]")
add(c, links=[link(c, "[[c]]", "c", "c")], sections=[sec(c, "html", 0, 2), sec(c, "paragraph", 4)])

c = Case("indented code hides links, but cannot interrupt a paragraph", "    [[a]]\n\ntext\n    [[b]]")
add(c, links=[link(c, "[[b]]", "b", "b")], sections=[sec(c, "code", 0), sec(c, "paragraph", 2, 3)])

# --- tags --------------------------------------------------------------------------------

c = Case("tags with nesting, dashes and underscores", "#tag #nested/tag #with-dash #with_under")
add(c, tags=[
    tag(c, "#tag", "tag"),
    tag(c, "#nested/tag", "nested/tag"),
    tag(c, "#with-dash", "with-dash"),
    tag(c, "#with_under", "with_under"),
], sections=P(c))

c = Case("digits-only is not a tag, one other character is enough", "#123 #1a #2024/05 #_")
add(c, tags=[tag(c, "#1a", "1a"), tag(c, "#2024/05", "2024/05"), tag(c, "#_", "_")], sections=P(c))

c = Case("a tag needs whitespace or the line start before #", "a#b (#c) x.#d \"#e\" #f")
add(c, tags=[tag(c, "#f", "f")], sections=P(c))

c = Case("a heading marker is not a tag", "# Heading\n#tag")
add(c,
    headings=[head(c, 1, "Heading", 0)],
    tags=[tag(c, "#tag", "tag")],
    sections=[sec(c, "heading", 0), sec(c, "paragraph", 1)])

c = Case("Unicode tags keep their text and lowercase their key", "#日本語 #café/été #ÉTÉ #Ñandú")
add(c, tags=[
    tag(c, "#日本語", "日本語"),
    tag(c, "#café/été", "café/été"),
    tag(c, "#ÉTÉ", "été"),
    tag(c, "#Ñandú", "ñandú"),
], sections=P(c))

c = Case("emoji tags", "#🎉party #✅ #a🙂b")
add(c, tags=[tag(c, "#🎉party", "🎉party"), tag(c, "#✅", "✅"), tag(c, "#a🙂b", "a🙂b")], sections=P(c))

c = Case("tags end at punctuation, general punctuation and whitespace", "#tag. #tag, #tag! #tag? #tag: #tag; #tag) #a\u2014b #c\u3000d")
add(c, tags=[tag(c, "#tag", "tag", nth=n) for n in range(7)] + [tag(c, "#a", "a"), tag(c, "#c", "c")], sections=P(c))

c = Case("a # right after a tag starts another", "#a#b #c/#d")
add(c, tags=[tag(c, "#a", "a"), tag(c, "#b", "b"), tag(c, "#c/", "c/"), tag(c, "#d", "d")], sections=P(c))

c = Case("URL fragments are not tags", "see http://x.org/#frag and https://y.org/page#sec")
add(c, sections=P(c))

c = Case("an escaped hash is text", "\\#notatag #real")
add(c, tags=[tag(c, "#real", "real")], sections=P(c))

c = Case("tags after emphasis marks, NBSP and ideographic space", "**#bold** _#under_ a\u00a0#nbsp b\u3000#wide")
add(c, tags=[
    tag(c, "#bold", "bold"),
    tag(c, "#under", "under"),
    tag(c, "#nbsp", "nbsp"),
    tag(c, "#wide", "wide"),
], sections=P(c))

c = Case("a tag inside a heading is a tag", "## Plan #project")
add(c, headings=[head(c, 2, "Plan #project", 0)], tags=[tag(c, "#project", "project")], sections=[sec(c, "heading", 0)])

# --- block ids ---------------------------------------------------------------------------

c = Case("block id at the end of a paragraph", "Some text ^my-id\n\nNext")
add(c, blocks=[blk(c, "my-id")], sections=[sec(c, "paragraph", 0), sec(c, "paragraph", 2)])

c = Case("only the last line's block id counts", "one ^a\ntwo ^b")
add(c, blocks=[blk(c, "b")], sections=P(c, 0, 1))

c = Case("block id on its own line after a list", "- a\n- b\n\n^list-id")
add(c,
    blocks=[blk(c, "list-id")],
    list_items=[item(c, "-", None, "a", None, 0), item(c, "-", None, "b", None, 1)],
    sections=[sec(c, "list", 0, 1), sec(c, "paragraph", 3)])

c = Case("block ids take Latin letters, digits and dashes only", "a ^a_b\n\nb ^é\n\nc^d\n\nd ^ok-2")
add(c, blocks=[blk(c, "ok-2")], sections=[sec(c, "paragraph", n) for n in (0, 2, 4, 6)])

c = Case("block id on a list item", "- first ^one\n- second")
add(c,
    blocks=[blk(c, "one")],
    list_items=[item(c, "-", None, "first ^one", None, 0, block_id="one"), item(c, "-", None, "second", None, 1)],
    sections=[sec(c, "list", 0, 1)])

# --- headings ----------------------------------------------------------------------------

c = Case("ATX headings: levels, closing hashes, indentation", "# One\n## Two ##\n   ### Three\n#### Four #\n####### Seven\n#NoSpace")
add(c,
    headings=[head(c, 1, "One", 0), head(c, 2, "Two", 1), head(c, 3, "Three", 2), head(c, 4, "Four", 3)],
    tags=[tag(c, "#NoSpace", "nospace")],
    sections=[sec(c, "heading", 0), sec(c, "heading", 1), sec(c, "heading", 2), sec(c, "heading", 3), sec(c, "paragraph", 4, 5)])

c = Case("setext headings", "Title\n=====\n\nSub\ntitle\n---\n\n***")
add(c,
    headings=[head(c, 1, "Title", 0, 1), head(c, 2, "Sub\ntitle", 3, 5)],
    sections=[sec(c, "heading", 0, 1), sec(c, "heading", 3, 5), sec(c, "thematicBreak", 7)])

c = Case("headings in blockquotes and lists are not headings", "> # Quoted\n\n- # Listed")
add(c,
    list_items=[item(c, "-", None, "# Listed", None, 2)],
    sections=[sec(c, "blockquote", 0), sec(c, "list", 2)])

c = Case("a link in a heading", "# See [[Target]]")
add(c, headings=[head(c, 1, "See [[Target]]", 0)], links=[link(c, "[[Target]]", "Target", "Target")], sections=[sec(c, "heading", 0)])

c = Case("a setext underline needs a top-level paragraph", "- item\n---")
add(c, list_items=[item(c, "-", None, "item", None, 0)], sections=[sec(c, "list", 0), sec(c, "thematicBreak", 1)])

c = Case("a thematic break between paragraphs", "a\n\n***\n\nb")
add(c, sections=[sec(c, "paragraph", 0), sec(c, "thematicBreak", 2), sec(c, "paragraph", 4)])

# --- lists and tasks ---------------------------------------------------------------------

c = Case("tasks with any status character", "- [ ] open\n- [x] done\n- [/] doing\n- [-] cancelled\n- [>] forwarded\n- [] not a task")
add(c, list_items=[
    item(c, "-", " ", "open", None, 0),
    item(c, "-", "x", "done", None, 1),
    item(c, "-", "/", "doing", None, 2),
    item(c, "-", "-", "cancelled", None, 3),
    item(c, "-", ">", "forwarded", None, 4),
    item(c, "-", None, "[] not a task", None, 5),
], sections=[sec(c, "list", 0, 5)])

c = Case("nested and numbered lists", "1. one\n   - child\n     - grandchild\n2. two\n\t- tab child")
add(c, list_items=[
    item(c, "1.", None, "one", None, 0),
    item(c, "-", None, "child", 0, 1, col=3),
    item(c, "-", None, "grandchild", 1, 2, col=5),
    item(c, "2.", None, "two", None, 3),
    item(c, "-", None, "tab child", 3, 4, col=1),
], sections=[sec(c, "list", 0, 4)])

c = Case("an ordered item not starting at 1 does not interrupt a paragraph", "Year\n2019. was good")
add(c, sections=P(c, 0, 1))

c = Case("numbered tasks and a continuation line", "1) [x] done\n   more text\n2) [ ] next")
add(c, list_items=[
    item(c, "1)", "x", "done", None, 0, last=1),
    item(c, "2)", " ", "next", None, 2),
], sections=[sec(c, "list", 0, 2)])

# --- callouts ----------------------------------------------------------------------------

c = Case("callout with fold and title", "> [!NOTE]- My *title*\n> body [[x]]")
add(c,
    links=[link(c, "[[x]]", "x", "x")],
    callouts=[callout(c, "note", "My *title*", 1, 0, 1, fold="collapsed")],
    sections=[sec(c, "callout", 0, 1)])

c = Case("nested callouts", "> [!question] Q\n> > [!todo] T\n> > > [!example]\n\nafter")
add(c, callouts=[
    callout(c, "question", "Q", 1, 0, 2),
    callout(c, "todo", "T", 2, 1, 2),
    callout(c, "example", None, 3, 2, 2),
], sections=[sec(c, "callout", 0, 2), sec(c, "paragraph", 4)])

c = Case("callout metadata and a plain blockquote", "> [!info|wide]+\n\n> just a quote [[q]]")
add(c,
    links=[link(c, "[[q]]", "q", "q")],
    callouts=[callout(c, "info", None, 1, 0, 0, fold="expanded", metadata="wide")],
    sections=[sec(c, "callout", 0), sec(c, "blockquote", 2)])

c = Case("a callout continues lazily until a blank line", "> [!tip] T\n> body\nlazy line\n\nafter")
add(c, callouts=[callout(c, "tip", "T", 1, 0, 2)], sections=[sec(c, "callout", 0, 2), sec(c, "paragraph", 4)])

# --- frontmatter -------------------------------------------------------------------------

c = Case("frontmatter", "---\ntitle: Hello\ntags: [a, b]\n---\n# Body")
add(c,
    frontmatter=frontmatter(c, "title: Hello\ntags: [a, b]", 3, "# Body"),
    headings=[head(c, 1, "Body", 4)],
    sections=[sec(c, "yaml", 0, 3), sec(c, "heading", 4)])

c = Case("frontmatter with --- inside values", "---\na: ---x\nb: |\n  --- not a fence\n---\ntext")
add(c,
    frontmatter=frontmatter(c, "a: ---x\nb: |\n  --- not a fence", 4, "text"),
    sections=[sec(c, "yaml", 0, 4), sec(c, "paragraph", 5)])

c = Case("empty frontmatter", "---\n---\nx")
add(c, frontmatter=frontmatter(c, "", 1, "x"), sections=[sec(c, "yaml", 0, 1), sec(c, "paragraph", 2)])

c = Case("frontmatter must start on the first line", "\n---\na: 1\n---\n")
add(c, headings=[head(c, 2, "a: 1", 2, 3)], sections=[sec(c, "thematicBreak", 1), sec(c, "heading", 2, 3)])

c = Case("unclosed frontmatter is a thematic break", "---\na: 1\n")
add(c, sections=[sec(c, "thematicBreak", 0), sec(c, "paragraph", 1)])

# --- line endings, BOM, tabs, scripts ----------------------------------------------------

c = Case("CRLF line endings", "---\r\nk: v\r\n---\r\n# T\r\n[[a]] #b ^c\r\n- [x] d\r\n")
add(c,
    frontmatter=frontmatter(c, "k: v", 2, "# T"),
    headings=[head(c, 1, "T", 3)],
    links=[link(c, "[[a]]", "a", "a")],
    tags=[tag(c, "#b", "b")],
    blocks=[blk(c, "c")],
    list_items=[item(c, "-", "x", "d", None, 5)],
    sections=[sec(c, "yaml", 0, 2), sec(c, "heading", 3), sec(c, "paragraph", 4), sec(c, "list", 5)])

c = Case("a byte order mark before the frontmatter", "\ufeff---\nk: v\n---\n[[a]]")
add(c,
    frontmatter=frontmatter(c, "k: v", 2, "[[a]]", col=3),
    links=[link(c, "[[a]]", "a", "a")],
    sections=[sec(c, "yaml", 0, 2, col=3), sec(c, "paragraph", 3)])

c = Case("a byte order mark before a heading", "\ufeff# Title")
add(c, headings=[head(c, 1, "Title", 0, col=3)], sections=[sec(c, "heading", 0, col=3)])

c = Case("tabs", "#tag\tafter\n\n-\t[ ]\ttask\n\n\t[[code]]")
add(c,
    tags=[tag(c, "#tag", "tag")],
    list_items=[item(c, "-", " ", "task", None, 2)],
    sections=[sec(c, "paragraph", 0), sec(c, "list", 2), sec(c, "code", 4)])

c = Case("positions are byte offsets in UTF-8", "é [[ü]] 日本 #語")
add(c, links=[link(c, "[[ü]]", "ü", "ü")], tags=[tag(c, "#語", "語")], sections=P(c))

c = Case("right-to-left links and tags", "انظر [[مرحبا|عالم]] #وسم")
add(c, links=[link(c, "[[مرحبا|عالم]]", "مرحبا", "مرحبا", None, "عالم")], tags=[tag(c, "#وسم", "وسم")], sections=P(c))

c = Case("links glued to CJK text", "見て[[ノート]]と![[図.png]]、#タグ")
add(c,
    links=[link(c, "[[ノート]]", "ノート", "ノート")],
    embeds=[link(c, "![[図.png]]", "図.png", "図.png")],
    sections=P(c))

c = Case("links and tags in a table", "| Note | Tag |\n| --- | --- |\n| [[a\\|A]] | #t |\n|#u|x|")
add(c,
    links=[link(c, "[[a\\|A]]", "a", "a", None, "A")],
    tags=[tag(c, "#t", "t"), tag(c, "#u", "u")],
    sections=[sec(c, "table", 0, 3)])

# --- huge and hostile input --------------------------------------------------------------

c = Case("fifty thousand opening brackets", "[" * 50000)
add(c, sections=P(c))

c = Case("ten thousand nested blockquote markers", ">" * 10000 + " deep #tag")
add(c, tags=[tag(c, "#tag", "tag")], sections=[sec(c, "blockquote", 0)])

c = Case("a link after 100 kB of words", "word " * 20000 + "[[end]]")
add(c, links=[link(c, "[[end]]", "end", "end")], sections=P(c))

c = Case("an odd number of backticks leaves the last one literal", "`a " * 1001 + "[[x]]")
add(c, links=[link(c, "[[x]]", "x", "x")], sections=P(c))

# --- invalid input -----------------------------------------------------------------------

error("missing text is invalid input", {}, "invalid_input")
error("an unknown field is invalid input", {"text": "a", "extra": 1}, "invalid_input")
error("text must be a string", {"text": 5}, "invalid_input")


if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    write(
        os.path.join(here, "..", "markdown_extract.json"),
        "extract_markdown",
        "Obsidian-flavoured markdown extraction: wikilinks, embeds, markdown and external links, "
        "subpaths, tags, block ids, headings, lists and tasks, callouts, frontmatter, sections; "
        "code, comments, math and HTML hidden; CRLF, BOM, tabs, scripts, hostile input",
        "written by hand (tests/vectors/gen/markdown_extract.py; offsets via Python bytes.find, "
        "line/col by counting newlines)",
        CASES,
    )
    print(len(CASES), "cases")

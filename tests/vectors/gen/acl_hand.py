#!/usr/bin/env python3
"""Writes the hand-written ACL vector files:

    tests/vectors/acl_parse_scope.json      tests/vectors/acl_validate_path.json
    tests/vectors/acl_scopes_satisfy.json   tests/vectors/acl_evaluate.json
    tests/vectors/acl_scope_class.json      tests/vectors/acl_from_presets.json

Independent source: none is computed. Every expected value below is written by hand from the
grammar and rules documented in engine-core/src/acl (and the reference obsidian-tc-v1.md §2.2,
§2.3); this script only spells out long inputs (5,000-character paths, 1,000 segments) that
are impractical to type into JSON, and writes the files. Run from the repository root:

    python3 tests/vectors/gen/acl_hand.py
"""

import json
from pathlib import Path

VECTORS = Path(__file__).resolve().parents[1]


def write(name, function, description, cases):
    names = [c["name"] for c in cases]
    assert len(names) == len(set(names)), f"{name}: duplicate case names"
    doc = {
        "function": function,
        "description": description,
        "expected_source": "hand (tests/vectors/gen/acl_hand.py spells out long inputs only)",
        "cases": cases,
    }
    (VECTORS / name).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {len(cases)} cases to {name}")


def ok(name, input, expected):
    return {"name": name, "input": input, "expected": expected}


def err(name, input, code):
    return {"name": name, "input": input, "error": code}


# ---------------------------------------------------------------------------------------------
# parse_scope


def scope(canonical, family, resource):
    return {"valid": True, "canonical": canonical, "family": family, "resource": resource}


def bad_scope(reason):
    return {"valid": False, "error": reason}


PARSE_SCOPE = [
    ok("star alone grants everything", {"scope": "*"}, scope("*", "*", "*")),
    ok("star colon star is star", {"scope": "*:*"}, scope("*", "*", "*")),
    ok("bare family means family:*", {"scope": "read"}, scope("read:*", "read", "*")),
    ok("explicit resource wildcard", {"scope": "read:*"}, scope("read:*", "read", "*")),
    ok("read notes", {"scope": "read:notes"}, scope("read:notes", "read", "notes")),
    ok("hyphenated resource", {"scope": "write:daily-notes"}, scope("write:daily-notes", "write", "daily-notes")),
    ok("admin workspace", {"scope": "admin:workspace"}, scope("admin:workspace", "admin", "workspace")),
    ok("bulk notes", {"scope": "bulk:notes"}, scope("bulk:notes", "bulk", "notes")),
    ok("execute git", {"scope": "execute:git"}, scope("execute:git", "execute", "git")),
    ok("delete attachments", {"scope": "delete:attachments"}, scope("delete:attachments", "delete", "attachments")),
    ok("family wildcard with a resource", {"scope": "*:notes"}, scope("*:notes", "*", "notes")),
    ok("underscore and digits in a resource", {"scope": "read:v2_notes"}, scope("read:v2_notes", "read", "v2_notes")),
    ok("grammar does not police resource names", {"scope": "read:graph"}, scope("read:graph", "read", "graph")),
    ok("empty string", {"scope": ""}, bad_scope("empty")),
    ok("missing family", {"scope": ":notes"}, bad_scope("empty_family")),
    ok("missing resource", {"scope": "read:"}, bad_scope("empty_resource")),
    ok("missing resource after a family wildcard", {"scope": "*:"}, bad_scope("empty_resource")),
    ok("unknown family", {"scope": "reads:notes"}, bad_scope("unknown_family")),
    ok("families are lowercase", {"scope": "Read:notes"}, bad_scope("unknown_family")),
    ok("leading space is not trimmed", {"scope": " read"}, bad_scope("unknown_family")),
    ok("not a family on its own", {"scope": "graph"}, bad_scope("unknown_family")),
    ok("star glued to a family", {"scope": "*read"}, bad_scope("unknown_family")),
    ok("resources are lowercase", {"scope": "read:Notes"}, bad_scope("invalid_resource")),
    ok("a second colon", {"scope": "read:notes:extra"}, bad_scope("invalid_resource")),
    ok("space in a resource", {"scope": "read:no tes"}, bad_scope("invalid_resource")),
    ok("partial wildcard in a resource", {"scope": "read:no*"}, bad_scope("invalid_resource")),
    ok("emoji resource", {"scope": "read:\U0001F4DD"}, bad_scope("invalid_resource")),
    ok("over 128 bytes", {"scope": "read:" + "a" * 124}, bad_scope("too_long")),
    ok("exactly 128 bytes", {"scope": "read:" + "a" * 123}, scope("read:" + "a" * 123, "read", "a" * 123)),
]

# ---------------------------------------------------------------------------------------------
# scopes_satisfy


def sat(missing):
    return {"satisfied": not missing, "missing": missing}


SCOPES_SATISFY = [
    ok("star grants anything", {"granted": ["*"], "required": ["admin:config", "bulk:notes"]}, sat([])),
    ok("nothing required", {"granted": [], "required": []}, sat([])),
    ok("nothing granted", {"granted": [], "required": ["read:notes"]}, sat(["read:notes"])),
    ok("family wildcard covers resources", {"granted": ["read"], "required": ["read:notes", "read:tasks"]}, sat([])),
    ok("a named resource does not cover a wildcard requirement", {"granted": ["read:notes"], "required": ["read"]}, sat(["read:*"])),
    ok("siblings do not imply each other", {"granted": ["write:notes"], "required": ["read:notes"]}, sat(["read:notes"])),
    ok("family wildcard grant", {"granted": ["*:notes"], "required": ["delete:notes", "write:notes"]}, sat([])),
    ok("family wildcard grant is per resource", {"granted": ["*:notes"], "required": ["delete:memory"]}, sat(["delete:memory"])),
    ok("bulk needs its own scope", {"granted": ["read:notes", "write:notes"], "required": ["write:notes", "bulk:notes"]}, sat(["bulk:notes"])),
    ok("admin star covers admin resources", {"granted": ["admin:*"], "required": ["admin:acl", "admin:workspace"]}, sat([])),
    ok("star colon star", {"granted": ["*:*"], "required": ["execute:command"]}, sat([])),
    ok("missing keeps the required order", {"granted": ["read"], "required": ["write:x", "read:y", "delete:z"]}, sat(["write:x", "delete:z"])),
    ok("missing is canonical", {"granted": [], "required": ["bulk", "*:*"]}, sat(["bulk:*", "*"])),
    ok("duplicates are kept", {"granted": [], "required": ["read:notes", "read:notes"]}, sat(["read:notes", "read:notes"])),
    ok("write family covers a floor scope", {"granted": ["write"], "required": ["write:templater"]}, sat([])),
    err("invalid granted scope", {"granted": ["root"], "required": []}, "invalid_scope"),
    err("invalid required scope", {"granted": ["*"], "required": ["read:"]}, "invalid_scope"),
]

# ---------------------------------------------------------------------------------------------
# scope_class


def cls(value):
    return {"scope_class": value}


SCOPE_CLASS = [
    ok("no scopes", {"required": []}, cls(None)),
    ok("read only", {"required": ["read:notes"]}, cls("read")),
    ok("write over read", {"required": ["read:notes", "write:notes"]}, cls("write")),
    ok("delete over write", {"required": ["write:notes", "delete:notes"]}, cls("delete")),
    ok("admin over delete", {"required": ["delete:notes", "admin:acl"]}, cls("admin")),
    ok("execute over admin", {"required": ["admin:acl", "execute:command"]}, cls("execute")),
    ok("bulk over everything", {"required": ["write:notes", "bulk:notes"]}, cls("bulk")),
    ok("order of the set does not matter", {"required": ["read", "execute:git", "write"]}, cls("execute")),
    ok("a family wildcard requirement counts as bulk", {"required": ["*:notes"]}, cls("bulk")),
    ok("star counts as bulk", {"required": ["*"]}, cls("bulk")),
    err("invalid scope", {"required": ["nope"]}, "invalid_scope"),
]

# ---------------------------------------------------------------------------------------------
# validate_path


def valid(path):
    return {"valid": True, "path": path}


def invalid(reason):
    return {"valid": False, "reason": reason}


def same(name, path):
    return ok(name, {"path": path}, valid(path))


def bad(name, path, reason):
    return ok(name, {"path": path}, invalid(reason))


THOUSAND_A = "/".join(["a"] * 1000)  # 1,999 bytes
THOUSAND_ABCDE = "/".join(["abcde"] * 1000)  # 5,999 bytes
PATH_4096 = "/".join(["y" * 255] * 15 + ["y" * 254, "y"])
assert len(PATH_4096) == 4096

VALIDATE_PATH = [
    same("plain note", "a.md"),
    same("nested note", "Daily/2024-01-01.md"),
    same("colon inside a name (real vault file)", "RedShift: OLED Blue Light Filter.md"),
    same("percent-encoding is a literal name, never decoded", "%2e%2e/etc/passwd"),
    same("three dots is a name", "..."),
    same("dot-prefixed names are fine", "a/.hidden/b.md"),
    same("control folders are valid paths (hard-deny is separate)", ".obsidian/app.json"),
    same("fullwidth solidus is an ordinary character", "日本語／メモ.md"),
    same("fullwidth dot before a name", "\uff0eobsidian/x"),
    same("emoji", "emoji \U0001F9E0/note.md"),
    same("leading space in a segment", " leading space.md"),
    same("right-to-left override is a format character, not a control", "a\u202eb.md"),
    same("mixed scripts", "Ελληνικά/Кириллица/עברית.md"),
    same("255-byte segment", "x" * 255),
    same("1,000 segments", THOUSAND_A),
    same("exactly 4,096 bytes", PATH_4096),
    ok("NFD becomes NFC", {"path": "Cafe\u0301/x.md"}, valid("Caf\u00e9/x.md")),
    ok("length is measured on NFC (300 NFD bytes, 200 NFC)", {"path": "e\u0301" * 100}, valid("\u00e9" * 100)),
    bad("empty", "", "empty"),
    bad("parent escape", "../etc/passwd", "dot_dot_segment"),
    bad("parent escape in the middle", "a/../../b", "dot_dot_segment"),
    bad("parent at the end", "a/..", "dot_dot_segment"),
    bad("parent with a trailing slash", "../", "dot_dot_segment"),
    bad("current directory prefix", "./a", "dot_segment"),
    bad("current directory in the middle", "a/./b", "dot_segment"),
    bad("absolute", "/etc/passwd", "absolute"),
    bad("absolute with traversal", "/../x", "absolute"),
    bad("UNC-like", "//server/share/x", "absolute"),
    bad("Windows drive with backslash", "C:\\x", "backslash"),
    bad("Windows drive with slash", "C:/x", "drive_letter"),
    bad("drive-relative", "c:notes.md", "drive_letter"),
    bad("backslash traversal", "a\\..\\b", "backslash"),
    bad("NUL", "a\u0000b", "nul"),
    bad("NUL before traversal", "a\u0000/../b", "nul"),
    bad("unit separator", "a\u001fb", "control_character"),
    bad("newline", "a\nb", "control_character"),
    bad("DEL", "a\u007f", "control_character"),
    bad("C1 next line", "a\u0085b", "control_character"),
    bad("double slash", "a//b", "empty_segment"),
    bad("trailing slash", "a/", "empty_segment"),
    bad("fullwidth dot-dot", "\uff0e\uff0e/etc/passwd", "confusable_dot_segment"),
    bad("two dot leader", "a/\u2025/b", "confusable_dot_segment"),
    bad("small full stop", "a/\ufe52", "confusable_dot_segment"),
    bad("256-byte segment", "x" * 256, "segment_too_long"),
    bad("NFC expansion makes a segment too long", "\u0958" * 85, "segment_too_long"),
    bad("4,097 bytes", PATH_4096 + "y", "too_long"),
    bad("1,000 long segments", THOUSAND_ABCDE, "too_long"),
    bad("very long path", "a" * 20000, "too_long"),
]

# ---------------------------------------------------------------------------------------------
# acl_evaluate


def decision(op, path, denied_by=None, path_error=None, entry=None, rule=None, required=(), missing=()):
    return {
        "allowed": denied_by is None,
        "denied_by": denied_by,
        "op": op,
        "path": path,
        "path_error": path_error,
        "path_list_entry": entry,
        "matched_rule": rule,
        "required_scopes": list(required),
        "missing_scopes": list(missing),
    }


def ev(name, config, path, op, granted, expected, case_insensitive=False):
    input = {"config": config, "path": path, "op": op, "granted": granted}
    if case_insensitive:
        input["case_insensitive"] = True
    return ok(name, input, expected)


def invalid_path(op, reason):
    return decision(op, None, "path_invalid", path_error=reason)


EMPTY = {}
LISTS = {"readPaths": ["Public/**", "Caf\u00e9/**"], "writePaths": ["Inbox/**"], "deletePaths": []}
NEGATED = {"readPaths": ["**", "!Private/**", "Private/Shared/**"]}
STRICT = {"strictReadDefault": True, "writePaths": ["Inbox/**"]}
STRICT_LISTED = {"strictReadDefault": True, "readPaths": ["Notes/**"]}
READ_ONLY = {"readOnly": True}
RULES = {
    "defaultScopes": ["read:notes"],
    "rules": [
        {"glob": "Work/**", "scopes": ["admin:vault"]},
        {"glob": "Work/Public/**", "scopes": []},
        {"glob": "**/*.canvas", "scopes": ["read:canvas"]},
    ],
}
COMBINED = {"readOnly": True, "writePaths": [], "defaultScopes": ["admin:vault"]}
NFD_RULE = {"rules": [{"glob": "Re\u0301sume\u0301/**", "scopes": ["admin:vault"]}]}
STAR = ["*"]

ACL_EVALUATE = [
    ev("empty config allows a read", EMPTY, "Notes/a.md", "read", [], decision("read", "Notes/a.md")),
    ev("empty config allows a delete", EMPTY, "Notes/a.md", "delete", [], decision("delete", "Notes/a.md")),
    ev("obsidian config is hard-denied even to star", EMPTY, ".obsidian/app.json", "read", STAR,
       decision("read", ".obsidian/app.json", "hard_deny")),
    ev("plugin secrets are hard-denied", EMPTY, ".obsidian/plugins/sync/data.json", "write", STAR,
       decision("write", ".obsidian/plugins/sync/data.json", "hard_deny")),
    ev("uppercase obsidian folder", EMPTY, ".OBSIDIAN/app.json", "read", STAR, decision("read", ".OBSIDIAN/app.json", "hard_deny")),
    ev("mixed-case git folder", EMPTY, ".Git/config", "read", STAR, decision("read", ".Git/config", "hard_deny")),
    ev("trash folder", EMPTY, ".trash/old.md", "delete", STAR, decision("delete", ".trash/old.md", "hard_deny")),
    ev("bookmarks file is exempt", EMPTY, ".obsidian/bookmarks.json", "write", [], decision("write", ".obsidian/bookmarks.json")),
    ev("workspaces file is exempt", EMPTY, ".obsidian/workspaces.json", "read", [], decision("read", ".obsidian/workspaces.json")),
    ev("exemption is exact: case variant is denied", EMPTY, ".Obsidian/bookmarks.json", "read", STAR,
       decision("read", ".Obsidian/bookmarks.json", "hard_deny")),
    ev("trailing dot alias of the obsidian folder", EMPTY, ".obsidian./app.json", "read", STAR,
       decision("read", ".obsidian./app.json", "hard_deny")),
    ev("trailing space alias of the obsidian folder", EMPTY, ".obsidian /app.json", "read", STAR,
       decision("read", ".obsidian /app.json", "hard_deny")),
    ev("NTFS stream alias of the git folder", EMPTY, ".git::$INDEX_ALLOCATION/config", "read", STAR,
       decision("read", ".git::$INDEX_ALLOCATION/config", "hard_deny")),
    ev("DOS short name of the git folder", EMPTY, "GIT~1/config", "read", STAR, decision("read", "GIT~1/config", "hard_deny")),
    ev("nested vault config", EMPTY, "sub/vault/.obsidian/app.json", "read", STAR,
       decision("read", "sub/vault/.obsidian/app.json", "hard_deny")),
    ev("server cache inside the vault", EMPTY, ".obsidian-tc/cache.db", "read", STAR,
       decision("read", ".obsidian-tc/cache.db", "hard_deny")),
    ev("long s folds to s in .trash", EMPTY, ".tra\u017fh/x.md", "read", STAR, decision("read", ".tra\u017fh/x.md", "hard_deny")),
    ev("fullwidth dot is a different folder", EMPTY, "\uff0eobsidian/app.json", "read", [],
       decision("read", "\uff0eobsidian/app.json")),
    ev("parent escape", EMPTY, "../etc/passwd", "read", STAR, invalid_path("read", "dot_dot_segment")),
    ev("absolute path", EMPTY, "/etc/passwd", "read", STAR, invalid_path("read", "absolute")),
    ev("Windows path", EMPTY, "C:\\x", "write", STAR, invalid_path("write", "backslash")),
    ev("NUL in a path", EMPTY, "a\u0000b", "read", STAR, invalid_path("read", "nul")),
    ev("fullwidth parent escape", EMPTY, "\uff0e\uff0e/etc/passwd", "read", STAR, invalid_path("read", "confusable_dot_segment")),
    ev("percent-encoded dots are a literal name", EMPTY, "%2e%2e/secret.md", "read", [], decision("read", "%2e%2e/secret.md")),
    ev("very long path", EMPTY, "a" * 5000, "read", STAR, invalid_path("read", "too_long")),
    ev("whitelisted read", LISTS, "Public/a.md", "read", [], decision("read", "Public/a.md", entry="Public/**")),
    ev("read outside the whitelist", LISTS, "Private/a.md", "read", [], decision("read", "Private/a.md", "not_in_read_paths")),
    ev("NFD path in an NFC-whitelisted folder", LISTS, "Cafe\u0301/menu.md", "read", [],
       decision("read", "Caf\u00e9/menu.md", entry="Caf\u00e9/**")),
    ev("whitelisted write", LISTS, "Inbox/new.md", "write", [], decision("write", "Inbox/new.md", entry="Inbox/**")),
    ev("write outside the write whitelist", LISTS, "Public/a.md", "write", [],
       decision("write", "Public/a.md", "not_in_write_paths")),
    ev("empty delete list denies every delete", LISTS, "Inbox/new.md", "delete", [],
       decision("delete", "Inbox/new.md", "not_in_delete_paths")),
    ev("case variant outside a case-sensitive whitelist", LISTS, "public/a.md", "read", [],
       decision("read", "public/a.md", "not_in_read_paths")),
    ev("case variant inside a case-insensitive whitelist", LISTS, "public/a.md", "read", [],
       decision("read", "public/a.md", entry="Public/**"), case_insensitive=True),
    ev("the whitelisted folder itself", LISTS, "Public", "read", [], decision("read", "Public", entry="Public/**")),
    ev("exempt file still needs the whitelist", LISTS, ".obsidian/bookmarks.json", "read", [],
       decision("read", ".obsidian/bookmarks.json", "not_in_read_paths")),
    ev("hard-deny wins over a matching whitelist", {"readPaths": ["**"]}, ".git/config", "read", STAR,
       decision("read", ".git/config", "hard_deny", entry="**")),
    ev("negated entry excludes", NEGATED, "Private/diary.md", "read", [],
       decision("read", "Private/diary.md", "not_in_read_paths", entry="!Private/**")),
    ev("later entry re-admits", NEGATED, "Private/Shared/plan.md", "read", [],
       decision("read", "Private/Shared/plan.md", entry="Private/Shared/**")),
    ev("first entry admits the rest", NEGATED, "Notes/a.md", "read", [], decision("read", "Notes/a.md", entry="**")),
    ev("strict reads fail closed without readPaths", STRICT, "Inbox/a.md", "read", STAR,
       decision("read", "Inbox/a.md", "strict_read_default")),
    ev("strict reads do not affect writes", STRICT, "Inbox/a.md", "write", [], decision("write", "Inbox/a.md", entry="Inbox/**")),
    ev("strict reads with readPaths use the list", STRICT_LISTED, "Notes/a.md", "read", [],
       decision("read", "Notes/a.md", entry="Notes/**")),
    ev("read-only allows reads", READ_ONLY, "a.md", "read", [], decision("read", "a.md")),
    ev("read-only refuses writes even to star", READ_ONLY, "a.md", "write", STAR, decision("write", "a.md", "read_only")),
    ev("read-only refuses deletes", READ_ONLY, "a.md", "delete", STAR, decision("delete", "a.md", "read_only")),
    ev("hard-deny comes before read-only", READ_ONLY, ".git/config", "write", STAR, decision("write", ".git/config", "hard_deny")),
    ev("default scopes apply when no rule matches", RULES, "Home/a.md", "read", [],
       decision("read", "Home/a.md", "missing_scope", required=["read:notes"], missing=["read:notes"])),
    ev("default scopes satisfied by a family grant", RULES, "Home/a.md", "read", ["read"],
       decision("read", "Home/a.md", required=["read:notes"])),
    ev("a rule replaces the default scopes", RULES, "Work/plan.md", "read", ["read:notes"],
       decision("read", "Work/plan.md", "missing_scope", rule="Work/**", required=["admin:vault"], missing=["admin:vault"])),
    ev("a later rule with no scopes lifts the requirement", RULES, "Work/Public/faq.md", "read", [],
       decision("read", "Work/Public/faq.md", rule="Work/Public/**")),
    ev("the last matching rule wins", RULES, "Work/Public/board.canvas", "read", ["read:notes"],
       decision("read", "Work/Public/board.canvas", "missing_scope", rule="**/*.canvas",
                required=["read:canvas"], missing=["read:canvas"])),
    ev("star satisfies a rule", RULES, "Work/plan.md", "write", STAR,
       decision("write", "Work/plan.md", rule="Work/**", required=["admin:vault"])),
    ev("admin family grant satisfies admin:vault", RULES, "Work/plan.md", "read", ["admin"],
       decision("read", "Work/plan.md", rule="Work/**", required=["admin:vault"])),
    ev("read-only reported before missing scopes", COMBINED, "a.md", "write", [],
       decision("write", "a.md", "read_only", required=["admin:vault"], missing=["admin:vault"])),
    ev("missing scope on a read", COMBINED, "a.md", "read", [],
       decision("read", "a.md", "missing_scope", required=["admin:vault"], missing=["admin:vault"])),
    ev("NFD rule glob matches an NFC path and is reported as written", NFD_RULE, "R\u00e9sum\u00e9/cv.md", "read", [],
       decision("read", "R\u00e9sum\u00e9/cv.md", "missing_scope", rule="Re\u0301sume\u0301/**",
                required=["admin:vault"], missing=["admin:vault"])),
    ev("1,000 segments under a whitelisted folder", {"readPaths": ["a/**"]}, THOUSAND_A, "read", [],
       decision("read", THOUSAND_A, entry="a/**")),
    err("bad glob in readPaths", {"config": {"readPaths": ["[abc"]}, "path": "a", "op": "read", "granted": []}, "invalid_config"),
    err("negated rule glob", {"config": {"rules": [{"glob": "!Private/**", "scopes": []}]}, "path": "a", "op": "read",
                              "granted": []}, "invalid_config"),
    err("bad scope in a rule", {"config": {"rules": [{"glob": "a/**", "scopes": ["nope:x"]}]}, "path": "a", "op": "read",
                                "granted": []}, "invalid_config"),
    err("misspelt config field", {"config": {"readpaths": []}, "path": "a", "op": "read", "granted": []}, "invalid_config"),
    err("snake_case config field", {"config": {"read_only": True}, "path": "a", "op": "write", "granted": []}, "invalid_config"),
    err("misspelt rule field", {"config": {"rules": [{"glob": "a/**", "scope": []}]}, "path": "a", "op": "read",
                                "granted": []}, "invalid_config"),
    err("bad granted scope", {"config": {}, "path": "a", "op": "read", "granted": ["superuser"]}, "invalid_scope"),
    err("unknown operation", {"config": {}, "path": "a", "op": "execute", "granted": []}, "invalid_input"),
]

# ---------------------------------------------------------------------------------------------
# acl_from_presets


def config(read, write, delete):
    return {
        "readOnly": False,
        "readPaths": read,
        "writePaths": write,
        "deletePaths": delete,
        "strictReadDefault": False,
        "defaultScopes": [],
        "rules": [],
    }


def folders(*pairs):
    return [{"folder": f, "preset": p} for f, p in pairs]


ACL_FROM_PRESETS = [
    ok("no folders: unlisted defaults to read-only", {"folders": []}, config(["**"], [], [])),
    ok("private none and inbox rwd", {"folders": folders(("Private", "none"), ("Inbox", "rwd"))},
       config(["**", "!Private/**"], ["Inbox/**"], ["Inbox/**"])),
    ok("nested folders, any input order, unlisted none",
       {"folders": folders(("Work/HR", "none"), ("Work", "rw"), ("Work/HR/Public", "r")), "unlisted": "none"},
       config(["Work/**", "!Work/HR/**", "Work/HR/Public/**"], ["Work/**", "!Work/HR/**"], [])),
    ok("unlisted rwd with a read-only archive", {"folders": folders(("Archive", "r")), "unlisted": "rwd"},
       config(["**"], ["**", "!Archive/**"], ["**", "!Archive/**"])),
    ok("a preset equal to what it inherits adds nothing", {"folders": folders(("Notes", "r"))}, config(["**"], [], [])),
    ok("explicit unlisted r equals the default", {"folders": folders(("Inbox", "rw")), "unlisted": "r"},
       config(["**"], ["Inbox/**"], [])),
    ok("glob characters in folder names are escaped", {"folders": folders(("Notes [old]", "rw")), "unlisted": "none"},
       config(["Notes \\[old\\]/**"], ["Notes \\[old\\]/**"], [])),
    ok("leading bang in a folder name is escaped", {"folders": folders(("!Inbox", "r")), "unlisted": "none"},
       config(["\\!Inbox/**"], [], [])),
    ok("NFD folder becomes an NFC glob", {"folders": folders(("Cafe\u0301", "rw")), "unlisted": "none"},
       config(["Caf\u00e9/**"], ["Caf\u00e9/**"], [])),
    ok("deeper rwd inside rw", {"folders": folders(("A", "rw"), ("A/B", "rwd")), "unlisted": "none"},
       config(["A/**"], ["A/**"], ["A/B/**"])),
    ok("none inside none adds nothing", {"folders": folders(("A", "none"), ("A/B", "none")), "unlisted": "none"},
       config([], [], [])),
    err("parent escape in a folder", {"folders": folders(("../x", "r"))}, "invalid_presets"),
    err("trailing slash in a folder", {"folders": folders(("Work/", "rw"))}, "invalid_presets"),
    err("same folder in NFC and NFD", {"folders": folders(("Caf\u00e9", "r"), ("Cafe\u0301", "rw"))}, "invalid_presets"),
    err("unknown preset", {"folders": folders(("Work", "rx"))}, "invalid_input"),
]


def main():
    write("acl_parse_scope.json", "parse_scope", "Scope grammar: wildcards, bare families, canonical form, typed parse errors.",
          PARSE_SCOPE)
    write("acl_scopes_satisfy.json", "scopes_satisfy",
          "Grant matching: family and resource wildcards, siblings, missing scopes in order.", SCOPES_SATISFY)
    write("acl_scope_class.json", "scope_class", "Scope class precedence bulk > execute > admin > delete > write > read.",
          SCOPE_CLASS)
    write("acl_validate_path.json", "validate_path",
          "Lexical validation of vault-relative paths: NFC, traversal, absolute, drive letters, backslashes, control "
          "characters, confusable dots, length limits.", VALIDATE_PATH)
    write("acl_evaluate.json", "acl_evaluate",
          "Folder ACL decisions: hard-deny (case folding, Windows aliases, exemptions), path lists (omitted vs empty, "
          "negation), strict reads, read-only, last-match-wins rules, reason precedence, malicious paths.", ACL_EVALUATE)
    write("acl_from_presets.json", "acl_from_presets",
          "Folder presets none / r / rw / rwd mapped onto path lists; unlisted folders default to r.", ACL_FROM_PRESETS)


if __name__ == "__main__":
    main()

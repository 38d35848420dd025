"""Attacks the vault boundary of a real obsidian-tc binary through the Python MCP client, as
an agent with hostile tool input would: escapes by `..`, absolute, drive and UNC paths and
`\\`; Windows device names, trailing dots and spaces, alternate data streams; case variants
of `.obsidian` and of notes under a deny rule; symlinks and hard links placed in the vault
(on Windows under Wine these are what Wine shows as reparse points and links); a path longer
than Windows' old 260-character limit; a CRLF note edited in place.

The same script runs against the Linux build and, through tests/wine/run.sh, the Windows
build. It passes only when every hostile call is refused with a typed error code, nothing
outside the vault is read, created or changed, and no note of the vault is corrupted.

    .venv/bin/python tests/e2e/py_vault_attack.py          # OBSIDIAN_TC_BIN or the release build
    tests/wine/run.sh obsidian-tc.exe .venv/bin/python tests/e2e/py_vault_attack.py
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

from py_sdk import BIN, ROOT, report_failure
# Whether the binary under test is the Windows build (set by tests/wine/run.sh).
WINDOWS = os.environ.get("OBSIDIAN_TC_TARGET_OS") == "windows"
SECRET = "TOPSECRET-" + os.urandom(8).hex()
# The codes a refusal of hostile input may carry: each names why, none is a bare failure.
REFUSALS = {
    "path_invalid", "escapes_vault", "acl_denied", "not_found", "hard_link",
    "not_regular_file", "is_directory", "not_a_directory", "already_exists",
    "validation_error", "elicit_required",
}


class AttackFailed(AssertionError):
    """The server let a hostile call through, or answered it without a typed refusal."""


def snapshot(folder: Path, skip: Path | None = None) -> dict[str, str]:
    """Every file under `folder` (not following links) with the SHA-256 of its bytes."""
    files: dict[str, str] = {}
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath)
        if skip is not None and (here == skip or skip in here.parents):
            dirnames[:] = []
            continue
        for name in filenames:
            path = here / name
            key = str(path.relative_to(folder))
            if path.is_symlink():
                files[key] = "link -> " + os.readlink(path)
            else:
                files[key] = hashlib.sha256(path.read_bytes()).hexdigest()
    return files


def windows_form(path: Path) -> str:
    """`path` as the Windows build names it under Wine, where drive Z: is the Unix root."""
    return "Z:" + str(path).replace("/", "\\")


class Arena:
    """A temporary folder holding the vault and, beside it, what must stay out of reach."""

    def __init__(self) -> None:
        self.top = Path(tempfile.mkdtemp(prefix="obsidian-tc-attack-"))
        self.vault = self.top / "vault"
        self.outside = self.top / "outside"
        shutil.copytree(ROOT / "tests" / "fixtures" / "sample-vault", self.vault,
                        ignore=shutil.ignore_patterns(".obsidian-tc"))
        (self.vault / ".obsidian").mkdir(exist_ok=True)
        (self.vault / ".obsidian" / "app.json").write_text('{"token": "%s"}' % SECRET)
        (self.vault / "Private").mkdir()
        (self.vault / "Private" / "secret.md").write_text(f"# Secret\n\n{SECRET}\n")
        (self.vault / "CRLF.md").write_bytes(b"# Windows note\r\n\r\nfirst line\r\nsecond line\r\n")
        self.outside.mkdir()
        (self.outside / "secret.md").write_text(f"# Outside\n\n{SECRET}\n")
        # Links placed by someone with shell access, pointing out of the vault.
        os.symlink(self.outside / "secret.md", self.vault / "file-link.md")
        os.symlink(self.outside, self.vault / "folder-link")
        os.symlink("../outside/secret.md", self.vault / "relative-link.md")
        os.link(self.outside / "secret.md", self.vault / "hard-link.md")

    def config(self) -> Path:
        """A config file serving the vault with a deny rule on `Private/`."""
        config = self.top / "config.json"
        config.write_text(json.dumps({
            "vaults": [{"id": "main", "path": str(self.vault),
                        "acl": {"readPaths": ["**", "!Private/**"],
                                "writePaths": ["**", "!Private/**"]}}],
            "cacheDir": str(self.top / "cache"),
        }))
        return config


def escapes(arena: Arena, acl: bool) -> list[str]:
    """Paths that name something outside the vault, or a control folder inside it; with an
    ACL in force also the hard link (another name of a file outside)."""
    outside = str(arena.outside / "secret.md")
    paths = [
        "../outside/secret.md", "Daily/../../outside/secret.md", "..", "../",
        outside, "/etc/passwd", "//server/share/secret.md",
        "..\\outside\\secret.md", "Daily\\..\\..\\outside\\secret.md",
        "C:\\Windows\\win.ini", "C:/Windows/win.ini", "c:secret.md",
        "Z:" + outside, windows_form(arena.outside / "secret.md"),
        "\\\\?\\" + windows_form(arena.outside / "secret.md"),
        "\\\\server\\share\\secret.md", "\\\\.\\pipe\\obsidian", "\\\\?\\UNC\\server\\share\\x.md",
        ".obsidian/app.json", ".OBSIDIAN/app.json", ".Obsidian/app.json", "OBSIDI~1/app.json",
        ".obsidian./app.json", ".obsidian /app.json", ".obsidian::$DATA/app.json",
        ".git/config", ".GIT/config", ".trash/x.md",
        "folder-link/secret.md", "file-link.md", "relative-link.md",
        "%2e%2e/outside/secret.md", "\uff0e\uff0e/outside/secret.md",
        "a/" * 1100 + "x.md",
    ]
    return paths + (["hard-link.md"] if acl else [])


def windows_names() -> list[str]:
    """Names Windows cannot hold or reads as something else: devices, trailing dots and
    spaces, alternate data streams, characters its file systems refuse."""
    return [
        "CON", "con.md", "NUL.md", "Daily/nul.md", "aux.md", "PRN.txt", "COM1.md", "com9.md",
        "LPT1.md", "lpt9.md", "COM\u00b9.md", "CONIN$.md", "CONOUT$", "Recipes.md.",
        "Recipes.md ", "Daily./x.md", "Daily /x.md", "Recipes.md:hidden", "Recipes.md::$DATA",
        "what?.md", "star*.md", "a<b.md", "a>b.md", "a|b.md", 'quote".md',
    ]


def hostile_calls(arena: Arena, acl: bool) -> list[tuple[str, dict[str, Any]]]:
    """Every tool call of the attack: each hostile path read, written, appended to, patched,
    moved to and moved from."""
    calls: list[tuple[str, dict[str, Any]]] = []
    for path in escapes(arena, acl) + windows_names():
        calls += [
            ("read_note", {"path": path}),
            ("write_note", {"path": path, "content": "overwritten\n", "mode": "overwrite"}),
            ("append_note", {"path": path, "content": "appended"}),
            ("patch_note", {"path": path, "old": "Secret", "new": "Leaked"}),
            ("move_note", {"from": "Welcome.md", "to": path}),
            ("move_note", {"from": path, "to": "Moved.md"}),
        ]
    return calls


def text_of(result: Any) -> str:
    """Everything a call answered, as one text."""
    parts = [json.dumps(result.structured_content or {})]
    parts += [getattr(block, "text", "") for block in result.content]
    return "\n".join(parts)


async def attack(client: Client, arena: Arena, label: str, acl: bool) -> int:
    """Runs every hostile call; returns how many were refused."""
    refused = 0
    for tool, args in hostile_calls(arena, acl):
        result = await client.call_tool(tool, args)
        answer = text_of(result)
        where = f"{label}: {tool} {json.dumps(args)[:160]}"
        if SECRET in answer:
            raise AttackFailed(f"{where} answered with the secret: {answer[:300]}")
        if not result.is_error:
            raise AttackFailed(f"{where} succeeded: {answer[:300]}")
        code = (result.structured_content or {}).get("code")
        if code not in REFUSALS:
            raise AttackFailed(f"{where} refused without a typed reason: {answer[:300]}")
        refused += 1
    return refused


async def case_variants(client: Client, arena: Arena, label: str) -> None:
    """A note named in another case: the same file where the file system folds case (Windows),
    another name where it does not (Linux); never a way around the deny rule on `Private/`."""
    for path in ("private/secret.md", "PRIVATE/Secret.md", "Private/SECRET.MD"):
        result = await client.call_tool("read_note", {"path": path})
        if not result.is_error or SECRET in text_of(result):
            raise AttackFailed(f"{label}: read_note {path} got past the deny rule on Private/")
    read = await client.call_tool("read_note", {"path": "recipes.md"})
    created = await client.call_tool("write_note", {"path": "RECIPES.md", "content": "x\n"})
    if WINDOWS:
        if read.is_error or (read.structured_content or {}).get("path") != "Recipes.md":
            raise AttackFailed(f"{label}: recipes.md does not read as Recipes.md: {text_of(read)}")
        if not created.is_error or created.structured_content.get("code") != "already_exists":
            raise AttackFailed(f"{label}: RECIPES.md was created over Recipes.md: {text_of(created)}")
    else:
        if not read.is_error:
            raise AttackFailed(f"{label}: recipes.md read on a case-sensitive file system")
        if created.is_error:
            raise AttackFailed(f"{label}: RECIPES.md could not be created: {text_of(created)}")
        (arena.vault / "RECIPES.md").unlink()


async def long_path(client: Client, arena: Arena, label: str) -> None:
    """A note whose absolute path is longer than 260 characters is written and read back."""
    folder = "/".join(["a-long-folder-name-" + str(i) for i in range(14)])
    path = f"{folder}/a note past the old Windows limit.md"
    if len(str(arena.vault / path)) <= 300:
        raise AttackFailed("the long path is not long")
    written = await client.call_tool("write_note", {"path": path, "content": "deep\n"})
    if written.is_error or (arena.vault / path).read_bytes() != b"deep\n":
        raise AttackFailed(f"{label}: long path not written: {text_of(written)}")
    read = await client.call_tool("read_note", {"path": path})
    if WINDOWS and read.is_error and "(os error 234)" in text_of(read):
        # Wine 8's GetFinalPathNameByHandleW (the realpath of Windows) answers ERROR_MORE_DATA
        # past 260 characters: it reads the name into a MAX_PATH buffer. Windows does not.
        print(f"  {label}: long path written; read back refused by Wine's realpath "
              f"(ERROR_MORE_DATA past MAX_PATH), a limit of Wine, not of Windows", flush=True)
    elif read.is_error or read.structured_content.get("content") != "deep\n":
        raise AttackFailed(f"{label}: long path not read back: {text_of(read)}")
    shutil.rmtree(arena.vault / "a-long-folder-name-0")


async def crlf_round_trip(client: Client, arena: Arena, label: str) -> None:
    """A CRLF note stays CRLF, byte for byte, through a patch and an append."""
    read = await client.call_tool("read_note", {"path": "CRLF.md"})
    if read.is_error or read.structured_content.get("line_ending") != "crlf":
        raise AttackFailed(f"{label}: CRLF.md is not read as crlf: {text_of(read)}")
    for tool, args in (("patch_note", {"path": "CRLF.md", "old": "first line", "new": "1st line"}),
                       ("append_note", {"path": "CRLF.md", "content": "third line"})):
        result = await client.call_tool(tool, args)
        if result.is_error:
            raise AttackFailed(f"{label}: {tool} on CRLF.md: {text_of(result)}")
    want = b"# Windows note\r\n\r\n1st line\r\nsecond line\r\nthird line\r\n"
    got = (arena.vault / "CRLF.md").read_bytes()
    if got != want:
        raise AttackFailed(f"{label}: CRLF.md holds {got!r}, expected {want!r}")


def hold(note: Path, milliseconds: int) -> subprocess.Popen[bytes]:
    """Another Windows program holding `note` open without sharing it (tests/wine/hold_file.c,
    in the server's Wine prefix), once it has the handle."""
    holder = subprocess.Popen([os.environ["OBSIDIAN_TC_WINE_HOLD"], windows_form(note),
                               str(milliseconds)], stdout=subprocess.PIPE)
    if holder.stdout is None or holder.stdout.readline().rstrip() != b"held":
        raise AttackFailed(f"hold_file could not hold {note}")
    return holder


async def held_by_another_program(client: Client, arena: Arena, label: str) -> None:
    """Windows: a note an antivirus scanner holds for a moment is read once it lets go; one
    held for longer is refused with `file_busy` (retryable) and left as it was."""
    note = arena.vault / "Welcome.md"
    before = note.read_bytes()
    holder = hold(note, 600)
    started = time.monotonic()
    read = await client.call_tool("read_note", {"path": "Welcome.md"})
    waited = time.monotonic() - started
    holder.wait(timeout=30)
    if read.is_error:
        raise AttackFailed(f"{label}: a note held for 0.6 s was not read: {text_of(read)}")
    holder = hold(note, 8000)
    appended = await client.call_tool("append_note", {"path": "Welcome.md", "content": "x"})
    holder.wait(timeout=30)
    refusal = appended.structured_content or {}
    if not appended.is_error or refusal.get("code") != "file_busy" or not refusal.get("retryable"):
        raise AttackFailed(f"{label}: an append to a held note answered {text_of(appended)}")
    if note.read_bytes() != before:
        raise AttackFailed(f"{label}: the held note changed under a refused append")
    again = await client.call_tool("append_note", {"path": "Welcome.md", "content": "x"})
    if again.is_error:
        raise AttackFailed(f"{label}: the append failed once the note was free: {text_of(again)}")
    print(f"  {label}: a note held 0.6 s read after {waited:.2f} s; held 8 s: file_busy", flush=True)


async def run(label: str, config: bool) -> str:
    """One server run: the attack, then the checks that nothing moved."""
    arena = Arena()
    try:
        source = str(arena.config() if config else arena.vault)
        before_outside = snapshot(arena.outside)
        before_vault = snapshot(arena.vault, skip=arena.vault / ".obsidian-tc")
        # Hundreds of calls in a few seconds: the write rate limit would answer most of them.
        env = {**os.environ, "OBSIDIAN_TC_THROTTLE_ENABLED": "false"}
        target = StdioServerParameters(command=BIN, args=[source], env=env)
        async with Client(target, mode="legacy", raise_exceptions=True) as client:
            refused = await attack(client, arena, label, config)
            if snapshot(arena.outside) != before_outside:
                raise AttackFailed(f"{label}: the folder outside the vault changed")
            after = snapshot(arena.vault, skip=arena.vault / ".obsidian-tc")
            if after != before_vault:
                changed = sorted(set(after.items()) ^ set(before_vault.items()))
                raise AttackFailed(f"{label}: the vault changed under refused calls: {changed[:6]}")
            if config:
                await case_variants(client, arena, label)
            await long_path(client, arena, label)
            await crlf_round_trip(client, arena, label)
            if "OBSIDIAN_TC_WINE_HOLD" in os.environ:
                await held_by_another_program(client, arena, label)
        stray = [p for p in arena.top.iterdir() if p.name not in {"vault", "outside", "config.json", "cache"}]
        if stray:
            raise AttackFailed(f"{label}: files appeared beside the vault: {stray}")
        return f"{refused} hostile calls refused, each with a typed code"
    finally:
        shutil.rmtree(arena.top, ignore_errors=True)


async def main() -> int:
    failures = 0
    for label, config in (("zero-config vault", False), ("config file with a deny rule", True)):
        try:
            summary = await run(label, config)
        except Exception as error:  # noqa: BLE001 — report every run, then fail
            failures += 1
            report_failure(label, error)
            continue
        print(f"ok - {label}: {summary}; outside and vault unchanged; case, long path and "
              f"CRLF checks passed", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

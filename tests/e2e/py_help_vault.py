"""A real vault end to end, for a platform port (issue 33): `obsidian-tc index` scans and
embeds a temp copy of obsidian-help-en (`../shared/vaults/obsidian-help-en`) with the int8
all-MiniLM-L6-v2 on ONNX Runtime, then the Python `mcp` client over stdio searches it
(lexical and semantic), reads a note and moves one, checking that the links to it were
rewritten on disk.

    source /work/testenv.sh   # OBSIDIAN_TC_TEST_ONNX_MODEL, OBSIDIAN_TC_ONNXRUNTIME
    .venv/bin/python tests/e2e/py_help_vault.py   # OBSIDIAN_TC_BIN as in py_sdk.py

The config names the model folder `OBSIDIAN_TC_TEST_ONNX_MODEL` (made by scripts/test.sh) with
`engine: onnx`, so a missing or unloadable ONNX Runtime fails instead of falling back to
candle. ONNX Runtime is found as the binary finds it: `OBSIDIAN_TC_ONNXRUNTIME` when set
(passed on to the server), else next to the binary (tests/qemu/run.sh puts the aarch64 one
there). Prints the embedding rate; exits 1 on the first failed check, naming it.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from mcp import Client, StdioServerParameters

from py_memory import call, expect
from py_sdk import BIN, ROOT, StepFailed

HELP_VAULT = ROOT.parent / "shared" / "vaults" / "obsidian-help-en"
# The folders of the vault that are embedded (about 200 chunks: embedding all of its 1,600
# chunks takes minutes under an emulator).
EMBEDDED_FOLDERS = ("Linking notes and files", "Editing and formatting", "Getting started")
MODEL = "sentence-transformers/all-MiniLM-L6-v2"
# The variables the server gets besides the SDK's default environment.
PASSED = ("OBSIDIAN_TC_ONNXRUNTIME", "HF_HUB_OFFLINE")

# A query for MOVED by meaning (cosine 0.615 on x86_64, the next note 0.494).
SEMANTIC_QUERY = "refer to the same note by several different names"
# The note moved, its new name, and the notes linking to it (6 links among them, one written
# [[aliases]]: Obsidian resolves link targets regardless of case).
MOVED = "Linking notes and files/Aliases.md"
MOVED_TO = "Linking notes and files/Note aliases.md"
LINKING = ["Editing and formatting/Advanced formatting syntax.md",
           "Editing and formatting/Properties.md", "Linking notes and files/Internal links.md",
           "Obsidian Publish/Permalinks.md", "Plugins/Outgoing links.md"]


def copy_writable(source: Path, target: Path) -> None:
    """A copy of `source` (the shared vaults are read-only) that the server may change."""
    shutil.copytree(source, target, copy_function=shutil.copyfile)
    for folder, _, _ in os.walk(target):
        os.chmod(folder, 0o755)


def write_config(top: Path, name: str, embeddings: dict) -> Path:
    """The config of the vault `top/name`: no TC Bridge companion, the cache in the temp
    folder, `embeddings`, every tool listed, no throttle."""
    config = top / f"{name}.json"
    config.write_text(json.dumps({
        "vaults": [{"id": name, "path": str(top / name), "companion": False}],
        "cacheDir": str(top / "cache" / name),
        "toolFacade": {"mode": "flat"},
        "throttle": {"enabled": False},
        "embeddings": embeddings,
    }, indent=2), encoding="utf-8")
    return config


def index(config: Path) -> tuple[dict, float]:
    """`obsidian-tc index <config>`: its report of the config's one vault, and the seconds."""
    started = time.monotonic()
    run = subprocess.run([BIN, "index", str(config)], capture_output=True, text=True,
                         check=False)
    seconds = time.monotonic() - started
    if run.returncode != 0:
        raise StepFailed(f"obsidian-tc index {config.name} exited with {run.returncode}: "
                         f"{run.stderr}")
    (report,) = json.loads(run.stdout).values()
    return report, seconds


def index_whole(config: Path) -> None:
    """The whole vault, lexical: every note scanned, none failed."""
    report, seconds = index(config)
    notes = sum(1 for _ in HELP_VAULT.rglob("*.md"))
    expect(report["scanned"] == notes and report["added"] == notes and report["failed"] == 0,
           f"index of the whole vault ({notes} notes): {report}")
    expect("lexical_only" in report, f"the whole vault was embedded: {report}")
    print(f"ok - obsidian-tc index {HELP_VAULT.name}: {notes} notes in {seconds:.1f} s",
          flush=True)


def index_embedded(config: Path) -> None:
    """Part of the vault with the model: every chunk embedded."""
    report, seconds = index(config)
    coverage = report.get("embeddings")
    expect(coverage is not None, f"index embedded nothing: {report.get('lexical_only')}")
    chunks, embedded = coverage["chunks"], coverage["embedded"]
    expect(chunks > 100 and embedded == chunks, f"index embedded {embedded} of {chunks} chunks")
    print(f"ok - obsidian-tc index {', '.join(EMBEDDED_FOLDERS)}: {report['scanned']} notes, "
          f"{embedded} chunks embedded in {seconds:.1f} s ({embedded / seconds:.1f} chunks/s "
          "with the scan and the model's load)", flush=True)


def paths(found: dict) -> list[str]:
    """The note paths of a `search_vault` answer, best first."""
    return [hit["path"] for hit in found["results"]]


def server(config: Path) -> StdioServerParameters:
    """`obsidian-tc <config>` over stdio, with the variables of PASSED that are set."""
    env = {name: os.environ[name] for name in PASSED if name in os.environ}
    return StdioServerParameters(command=BIN, args=[str(config)], env=env)


async def semantic_session(config: Path) -> None:
    """The embedded part: ONNX Runtime runs the model, and semantic search finds a note by
    meaning, without the word it is named by."""
    async with Client(server(config), mode="auto") as client:
        status = await call(client, "get_index_status", {})
        found = await call(client, "search_vault", {"query": SEMANTIC_QUERY, "mode": "semantic"})
    engine = json.dumps(status.get("embeddings"))
    expect('"onnx (ONNX Runtime 1.32' in engine, f"the engine is not ONNX Runtime: {engine}")
    best = [(hit["path"], round(hit["score"], 3)) for hit in found["results"][:3]]
    expect(found["mode"] == "semantic" and best[0][0] == MOVED,
           f"semantic search {SEMANTIC_QUERY!r}: mode {found['mode']}, {best}")
    print(f"ok - stdio session: ONNX Runtime engine, semantic search found {best}", flush=True)


async def notes_session(config: Path, vault: Path) -> None:
    """The whole vault: lexical search, a read, and a move whose links are rewritten."""
    async with Client(server(config), mode="auto") as client:
        before = await call(client, "search_vault", {"query": "alias", "mode": "lexical"})
        note = await call(client, "read_note", {"path": MOVED})
        moved = await call(client, "move_note", {"from": MOVED, "to": MOVED_TO})
        # The search index follows the move in the background (the old path may be answered
        # for a moment: seen under qemu), so search again for up to 20 s.
        deadline = time.monotonic() + 20
        after = await call(client, "search_vault", {"query": "alias", "mode": "lexical"})
        while MOVED_TO not in paths(after)[:3] and time.monotonic() < deadline:
            await asyncio.sleep(0.5)
            after = await call(client, "search_vault", {"query": "alias", "mode": "lexical"})
    expect(MOVED in paths(before)[:3], f"lexical 'alias': {paths(before)[:3]}")
    expect("aliases" in note["content"], f"read_note {MOVED}: {note['content'][:200]!r}")
    expect(moved["links_rewritten"] == 6 and moved["notes_rewritten"] == LINKING,
           f"move_note: {moved}")
    expect(not (vault / MOVED).exists() and (vault / MOVED_TO).is_file(), "moved on disk")
    for path in LINKING:
        text = (vault / path).read_text(encoding="utf-8").lower()
        expect("[[note aliases" in text and "[[aliases" not in text,
               f"{path} links to the old name")
    expect(MOVED_TO in paths(after)[:3], f"lexical after the move: {paths(after)[:3]}")
    print(f"ok - stdio session: lexical search, read, move with {moved['links_rewritten']} "
          f"links rewritten in {len(LINKING)} notes", flush=True)


async def main() -> int:
    model = os.environ.get("OBSIDIAN_TC_TEST_ONNX_MODEL")
    if not model or not HELP_VAULT.is_dir():
        print(f"not ok - needs OBSIDIAN_TC_TEST_ONNX_MODEL (set: {bool(model)}) and "
              f"{HELP_VAULT}", flush=True)
        return 1
    top = Path(tempfile.mkdtemp(prefix="obsidian-tc-e2e-help-"))
    try:
        copy_writable(HELP_VAULT, top / "help")
        for folder in EMBEDDED_FOLDERS:
            copy_writable(HELP_VAULT / folder, top / "part" / folder)
        whole = write_config(top, "help", {"provider": "none"})
        part = write_config(top, "part", {"provider": "local", "model": MODEL,
                                          "modelPath": model, "engine": "onnx"})
        index_whole(whole)
        index_embedded(part)
        await semantic_session(part)
        await notes_session(whole, top / "help")
    except StepFailed as failed:
        print(f"not ok - {failed}", flush=True)
        return 1
    finally:
        shutil.rmtree(top, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

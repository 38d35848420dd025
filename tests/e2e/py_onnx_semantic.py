"""Semantic search on ONNX Runtime loaded from next to the binary, with the Python `mcp`
client over stdio: the release layout (a release archive, npm package or .mcpb puts the
ONNX Runtime library beside `obsidian-tc`), which this checks on any binary, e.g. the .mcpb's
Windows entry point under Wine:

    .venv/bin/python tests/e2e/py_onnx_semantic.py     # OBSIDIAN_TC_BIN as in py_sdk.py
    tests/wine/run.sh <unpacked .mcpb>/server/win32-x64/obsidian-tc.exe \\
        .venv/bin/python tests/e2e/py_onnx_semantic.py

The server runs on a temp copy of the sample vault with the local model
OBSIDIAN_TC_TEST_ONNX_MODEL (all-MiniLM-L6-v2 int8, as scripts/test.sh makes it) and
`embeddings.engine` "onnx", without OBSIDIAN_TC_ONNXRUNTIME in its environment: it must find
the library beside the executable, embed every chunk, and rank the tomato soup first for a
query that shares no word with it. Exits 1 on the first failed check, naming it.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import sys
import time
from pathlib import Path, PurePosixPath, PureWindowsPath

from mcp import Client, StdioServerParameters

from py_memory import call, expect
from py_sdk import BIN, fresh_vault

MODEL = os.environ.get("OBSIDIAN_TC_TEST_ONNX_MODEL")
# What get_index_status says of the engine: "onnx (ONNX Runtime 1.32 from <library>, <model file>)".
ENGINE = re.compile(r"onnx \(ONNX Runtime (\d+\.\d+) from (.+?), (.+)\)$")
# The first embedding under Wine takes a few seconds; a stuck one fails the run.
EMBED_SECONDS = 300


def write_config(vault: Path) -> Path:
    """The config file: the vault, a temp cache, the local int8 model on engine onnx."""
    config = vault.parent / "config.json"
    config.write_text(json.dumps({
        "vaults": [{"id": "main", "path": str(vault), "companion": False}],
        "cacheDir": str(vault.parent / "cache"),
        "embeddings": {"provider": "local", "model": "sentence-transformers/all-MiniLM-L6-v2",
                       "modelPath": MODEL, "engine": "onnx"},
    }, indent=2), encoding="utf-8")
    return config


def library_folder(library: str) -> PurePosixPath:
    """The folder of the library the server names, as a path on this machine (under Wine,
    `Z:\\tmp\\x\\onnxruntime.dll` is /tmp/x/onnxruntime.dll)."""
    if re.match(r"^[A-Za-z]:\\", library):
        windows = PureWindowsPath(library)
        return PurePosixPath("/", *windows.parts[1:]).parent
    return PurePosixPath(library).parent


async def session(config: Path) -> None:
    """One server process: waits until every chunk is embedded, checks the engine, searches."""
    params = StdioServerParameters(command=BIN, args=[str(config)], env={"HF_HUB_OFFLINE": "1"})
    async with Client(params, mode="auto") as client:
        deadline = time.monotonic() + EMBED_SECONDS
        while True:
            embeddings = (await call(client, "get_index_status", {})).get("embeddings", {})
            total = embeddings.get("total") or 0
            if embeddings.get("state") == "ready" and 0 < total == embeddings.get("embedded"):
                break
            expect(embeddings.get("reason") is None, f"embeddings: {embeddings}")
            expect(time.monotonic() < deadline, f"not embedded after {EMBED_SECONDS} s: {embeddings}")
            await asyncio.sleep(0.5)
        engine = ENGINE.match(embeddings.get("engine") or "")
        expect(engine is not None, f"the engine is ONNX Runtime: {embeddings.get('engine')}")
        library = engine.group(2)
        name = re.split(r"[\\/]", library)[-1]
        expect(re.fullmatch(r"onnxruntime\.dll|libonnxruntime\.so[.\d]*|libonnxruntime[.\d]*\.dylib",
                            name) is not None, f"{library} is an ONNX Runtime library")
        here = PurePosixPath(os.path.realpath(BIN)).parent
        expect(library_folder(library) == here,
               f"ONNX Runtime loaded from next to the binary ({here}), not {library}")
        print(f"# engine: {embeddings['engine']}", flush=True)
        found = await call(client, "search_vault", {"query": "a warm dish of stewed red vegetables",
                                                    "mode": "semantic"})
        paths = [hit["path"] for hit in found.get("results", [])]
        expect(paths[:1] == ["Recipes.md"], f"semantic search ranks Recipes.md first: {paths}")


async def main() -> int:
    if not MODEL or not Path(MODEL).is_dir():
        print("not ok - OBSIDIAN_TC_TEST_ONNX_MODEL must name the int8 test model folder "
              "(scripts/test.sh makes it)", flush=True)
        return 1
    vault = fresh_vault()
    try:
        await session(write_config(vault))
    except Exception as error:  # noqa: BLE001 — one report, then fail
        while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
            error = error.exceptions[0]
        print(f"not ok - semantic search on ONNX Runtime beside the binary: "
              f"{type(error).__name__}: {error}", flush=True)
        return 1
    finally:
        shutil.rmtree(vault.parent, ignore_errors=True)
    print("ok - semantic search on ONNX Runtime beside the binary (Python mcp Client over stdio)",
          flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))

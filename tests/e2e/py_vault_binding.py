"""A JWT without a `vault` claim is bound to the server's default vault: the Python `mcp`
client, over Streamable HTTP to the release binary serving two vaults under JWT auth, is
refused (`forbidden`, naming the bound vault) when it names the second vault, is answered on
the default one, and `list_vaults` shows it only that one; a token whose claim names the
second vault is answered there. Then `OBSIDIAN_TC_DEFAULT_VAULT=other` makes the second
vault the default the claimless token is bound to.

    .venv/bin/python tests/e2e/py_vault_binding.py
    OBSIDIAN_TC_BIN=path/to/obsidian-tc ...          # another binary (default: release build)

Exits 1 on the first failed check.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

from py_sdk import BIN, StepFailed, answers, mint, serve_http, stop_http_server

SECRET = "an-e2e-secret-of-at-least-32-characters"


def set_up() -> Path:
    """Vaults `main` and `other` (each `hello.md` naming it) and `config.json` under JWT."""
    if not Path(BIN).is_file():
        sys.exit(f"{BIN} is missing: run `cargo build --release -p obsidian-tc` first")
    root = Path(tempfile.mkdtemp(prefix="obsidian-tc-e2e-binding-"))
    for vault in ("main", "other"):
        (root / vault).mkdir()
        (root / vault / "hello.md").write_text(f"# {vault}\n", encoding="utf-8")
    config = {
        "vaults": [{"id": "main", "path": "main"}, {"id": "other", "path": "other"}],
        "auth": {"mode": "jwt", "jwtSecret": SECRET},
        "embeddings": {"provider": "none"},
        "throttle": {"enabled": False},
    }
    (root / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return root


def expect(label: str, got: Any, want: Any) -> None:
    if got != want:
        raise StepFailed(f"{label}: expected {want!r}, got {got!r}")


async def run(root: Path, default: str, second: str, env: dict[str, str]) -> None:
    """Serves with `env`; the claimless token must be bound to `default`."""
    server, url = serve_http(["--config", str(root / "config.json")], env)
    try:
        claimless = mint(root, "--sub", "agent", "--scope", "*")
        refused, answered, listed = await answers(url, claimless, [
            ("read_note", {"path": "hello.md", "vault": second}),
            ("read_note", {"path": "hello.md"}),
            ("list_vaults", {}),
        ])
        expect("claimless token on the second vault: is_error", refused[0], True)
        expect("claimless token on the second vault: code", refused[1]["code"], "forbidden")
        expect("claimless token: bound vault", refused[1]["details"]["bound_vault"], default)
        expect("claimless token on the default vault: is_error", answered[0], False)
        expect("claimless token on the default vault: content", answered[1]["content"],
               f"# {default}\n")
        expect("claimless token: list_vaults", [v["id"] for v in listed[1]["items"]], [default])
        claimed = mint(root, "--sub", "agent", "--scope", "*", "--vault", second)
        [own] = await answers(url, claimed, [("read_note", {"path": "hello.md", "vault": second})])
        expect("token bound to the second vault, there", own[1]["content"], f"# {second}\n")
    finally:
        stop_http_server(server)


async def main() -> int:
    root = set_up()
    failures = 0
    try:
        for label, default, second, env in (
            ("default vault = the first configured", "main", "other", {}),
            ("OBSIDIAN_TC_DEFAULT_VAULT=other", "other", "main",
             {"OBSIDIAN_TC_DEFAULT_VAULT": "other"}),
        ):
            try:
                await run(root, default, second, env)
            except Exception as error:  # noqa: BLE001 — report every run, then fail
                failures += 1
                while isinstance(error, BaseExceptionGroup) and len(error.exceptions) == 1:
                    error = error.exceptions[0]
                print(f"not ok - claimless JWT, {label}: {type(error).__name__}: {error}",
                      flush=True)
                continue
            print(f"ok - claimless JWT over HTTP, {label}: refused on the other vault, "
                  "answered on the default one", flush=True)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
